import { describe, expect, it } from 'vitest';
import {
  AuthenticationClient,
  ConfigurationError,
  createPkcePair,
  IdPlatformError,
  type Prompt,
  RequestValidationError,
  type ResponseType,
} from '../../src/auth/index.js';

const publicClient = new AuthenticationClient({ domain: 'tenant.test', clientId: 'spa app' });
const confidential = new AuthenticationClient({ domain: 'tenant.test', clientId: 'web', clientSecret: 'secret' });
const redirect_uri = 'https://app.example.com/callback';

describe('authorizeUrl', () => {
  it('builds a code-flow URL with PKCE for a public client', async () => {
    const { code_challenge } = await createPkcePair();
    const url = new URL(
      publicClient.authorizeUrl({ redirect_uri, code_challenge, state: 's t', organization: 'org_1', invitation: 'inv_1' }),
    );
    expect(url.origin + url.pathname).toBe('https://tenant.test/authorize');
    expect(Object.fromEntries(url.searchParams)).toEqual({
      client_id: 'spa app',
      response_type: 'code',
      scope: 'openid profile email',
      redirect_uri,
      state: 's t',
      organization: 'org_1',
      invitation: 'inv_1',
      code_challenge,
      code_challenge_method: 'S256',
    });
  });

  it('builds an implicit-grant URL with response_type token', () => {
    const url = new URL(
      publicClient.authorizeUrl({ redirect_uri, response_type: 'token', audience: 'https://api.example.com', prompt: 'login' }),
    );
    expect(url.searchParams.get('response_type')).toBe('token');
    expect(url.searchParams.get('audience')).toBe('https://api.example.com');
    expect(url.searchParams.has('code_challenge')).toBe(false);
  });

  it.each([
    ['token id_token', 'n'],
    ['id_token code', 'n'],
    ['token code', undefined],
    ['id_token token code', 'n'],
  ])('accepts response_type %s (a set: any order), sent as given', (response_type, nonce) => {
    const url = new URL(confidential.authorizeUrl({ redirect_uri, response_type: response_type as ResponseType, nonce }));
    expect(url.searchParams.get('response_type')).toBe(response_type);
  });

  it.each(['login consent', 'consent select_account login', 'none'])('accepts prompt %s (a space-delimited list)', (prompt) => {
    const url = new URL(confidential.authorizeUrl({ redirect_uri, prompt: prompt as Prompt }));
    expect(url.searchParams.get('prompt')).toBe(prompt);
  });

  it('refuses a public code flow without PKCE', () => {
    expect(() => publicClient.authorizeUrl({ redirect_uri })).toThrow(ConfigurationError);
    expect(() => confidential.authorizeUrl({ redirect_uri })).not.toThrow();
  });

  it.each([
    ['a missing redirect_uri', {}, 'redirect_uri'],
    ['a relative redirect_uri', { redirect_uri: '/callback' }, 'redirect_uri must be an absolute URL'],
    ['an unknown response_type', { redirect_uri, response_type: 'code token2' }, 'response_type must be code, token, id_token'],
    ['a response_type naming a value twice', { redirect_uri, response_type: 'code code' }, 'each once'],
    ['an empty response_type', { redirect_uri, response_type: '' }, 'response_type must be'],
    ['an id_token without a nonce', { redirect_uri, response_type: 'id_token' }, 'needs a non-empty `nonce`'],
    ['an id_token with an empty nonce', { redirect_uri, response_type: 'id_token', nonce: '' }, 'needs a non-empty `nonce`'],
    [
      'an id_token with a scope without openid',
      { redirect_uri, response_type: 'code id_token', nonce: 'n', scope: 'profile email' },
      'needs `openid`',
    ],
    ['an id_token (in another order) with an empty nonce', { redirect_uri, response_type: 'token id_token', nonce: '' }, 'nonce'],
    ['prompt none combined with another prompt', { redirect_uri, prompt: 'none login' }, "prompt must be 'none' alone"],
    ['an unknown prompt in a list', { redirect_uri, prompt: 'login consnet' }, 'prompt must be'],
    ['a redirect_uri with a trailing newline', { redirect_uri: `${redirect_uri}\n` }, 'surrounding whitespace'],
    ['a redirect_uri with leading whitespace', { redirect_uri: ` ${redirect_uri}` }, 'surrounding whitespace'],
    // URL parsers drop tabs, CRs and LFs anywhere and read a backslash as "/": the URL sent would not be the one typed.
    ['a redirect_uri with a tab inside', { redirect_uri: 'https://app.example.com/c\tb' }, 'control characters or backslashes'],
    ['a redirect_uri with a newline in its host', { redirect_uri: 'https://app.exa\nmple.com/cb' }, 'control characters'],
    ['a redirect_uri ending in a control character', { redirect_uri: `${redirect_uri}\u0001` }, 'control characters'],
    ['a redirect_uri with backslashes (read as https://evil.com/cb)', { redirect_uri: 'https:\\\\evil.com\\cb' }, 'backslashes'],
    ['an unknown parameter', { redirect_uri, scopes: 'openid' }, 'unknown key "scopes"'],
    ['a redirect_uri with a fragment', { redirect_uri: `${redirect_uri}#x` }, 'without a fragment'],
    ['a javascript: redirect_uri', { redirect_uri: 'javascript:alert(1)' }, 'not javascript:'],
    ['tokens asked for in the query', { redirect_uri, response_type: 'token', response_mode: 'query' }, "response_mode 'query'"],
    [
      'an ID token asked for in the query',
      { redirect_uri, response_type: 'code id_token', nonce: 'n', response_mode: 'query' },
      "response_mode 'query'",
    ],
  ])('refuses %s', (_, params, message) => {
    const build = () => confidential.authorizeUrl(params as never);
    expect(build).toThrow(RequestValidationError);
    expect(build).toThrow(message);
  });
});

describe('logoutUrl, samlUrl, wsfedUrl', () => {
  it('builds the logout URL with returnTo and federated', () => {
    const url = new URL(confidential.logoutUrl({ returnTo: 'https://app.example.com/bye?x=1', federated: true }));
    expect(url.pathname).toBe('/v2/logout');
    expect(url.searchParams.get('client_id')).toBe('web');
    expect(url.searchParams.get('returnTo')).toBe('https://app.example.com/bye?x=1');
    expect(url.searchParams.has('federated')).toBe(true);
    expect(new URL(confidential.logoutUrl()).search).toBe('?client_id=web');
    expect(() => confidential.logoutUrl({ returnTo: 'javascript:alert(1)' })).toThrow(RequestValidationError);
  });

  it('builds SAML and WS-Fed URLs with the client id percent-encoded', () => {
    expect(publicClient.samlUrl()).toBe('https://tenant.test/samlp/spa%20app');
    expect(publicClient.samlUrl({ connection: 'corp' })).toBe('https://tenant.test/samlp/spa%20app?connection=corp');
    expect(confidential.wsfedUrl({ wctx: 'ctx', wreply: 'https://app.example.com/' })).toBe(
      'https://tenant.test/wsfed/web?wctx=ctx&wreply=https%3A%2F%2Fapp.example.com%2F',
    );
  });

  it.each([
    [
      'samlUrl with an unknown key (a typo would drop the connection)',
      () => publicClient.samlUrl({ conection: 'corp' } as never),
      'unknown key',
    ],
    ['wsfedUrl with an unknown key', () => publicClient.wsfedUrl({ wrepyl: 'https://app.example.com/' } as never), 'unknown key'],
    ['wsfedUrl with a javascript: wreply', () => publicClient.wsfedUrl({ wreply: 'javascript:alert(1)' }), 'wreply must be'],
    ['wsfedUrl with a relative wreply', () => publicClient.wsfedUrl({ wreply: '/back' }), 'wreply must be an absolute URL'],
    ['samlUrl with a connection that is not a string', () => publicClient.samlUrl({ connection: 1 } as never), 'connection'],
  ])('refuses %s', (_, build, message) => {
    expect(build).toThrow(RequestValidationError);
    expect(build).toThrow(message);
  });
});

describe('createPkcePair', () => {
  it('makes an RFC 7636 verifier and its S256 challenge', async () => {
    const pair = await createPkcePair();
    expect(pair.code_verifier).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(pair.code_challenge_method).toBe('S256');
    const digest = await crypto.subtle.digest('SHA-256', new TextEncoder().encode(pair.code_verifier));
    expect(pair.code_challenge).toBe(Buffer.from(digest).toString('base64url'));
  });

  it('rejects with ConfigurationError naming the secure context when crypto.subtle is missing (a page over plain http)', async () => {
    Object.defineProperty(globalThis.crypto, 'subtle', { value: undefined, configurable: true });
    try {
      const error = await createPkcePair().then(
        () => undefined,
        (reason: unknown) => reason,
      );
      expect(error).toBeInstanceOf(ConfigurationError);
      expect(IdPlatformError.is(error)).toBe(true);
      expect((error as Error).message).toMatch(/secure context.*https or from localhost/);
    } finally {
      delete (globalThis.crypto as { subtle?: unknown }).subtle; // back to the prototype's getter
    }
    expect(globalThis.crypto.subtle).toBeDefined();
  });

  it('makes a different verifier every time', async () => {
    const verifiers = new Set(await Promise.all(Array.from({ length: 50 }, async () => (await createPkcePair()).code_verifier)));
    expect(verifiers.size).toBe(50);
  });
});
