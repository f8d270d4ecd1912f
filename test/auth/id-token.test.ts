/**
 * ID token validation (OIDC Core 3.1.3.7) of the grants that may return one, over
 * msw: every claim check, the organization and max_age checks, the signature
 * against the tenant's JWKS, and what the grants send (nonce and max_age never).
 */

import {
  AuthenticationClient,
  type AuthenticationClientOptions,
  ConfigurationError,
  IdPlatformError,
  IdTokenValidationError,
} from 'idplatform/auth';
import { CompactSign, exportJWK, generateKeyPair, type JWTPayload, SignJWT } from 'jose';
import { delay, HttpResponse, http } from 'msw';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { stubBrowser } from '../helpers/browser.js';
import { createFakeClock } from '../helpers/clock.js';
import { DOMAIN, ORIGIN, recordRequests, useMswServer } from '../helpers/server.js';

const server = useMswServer();
const requests = recordRequests(server);
afterEach(() => {
  vi.useRealTimers();
});

const NOW_SEC = Date.UTC(2026, 0, 1) / 1000;
const CLIENT_ID = 'app';
const ISSUER = `${ORIGIN}/`;
const NONCE = 'n-0S6_WzA2Mj';

type KeyPair = Awaited<ReturnType<typeof generateKeyPair>>;
let tenantKey: KeyPair;
let otherKey: KeyPair;
let jwks: { keys: object[] };

beforeAll(async () => {
  tenantKey = await generateKeyPair('RS256', { extractable: true });
  otherKey = await generateKeyPair('RS256', { extractable: true });
  jwks = { keys: [{ ...(await exportJWK(tenantKey.publicKey)), kid: 'k1', alg: 'RS256', use: 'sig' }] };
});

/** Valid claims for CLIENT_ID at NOW_SEC, with `overrides` merged in (an `undefined` value removes a claim). */
function claims(overrides: Record<string, unknown> = {}): JWTPayload {
  const all: Record<string, unknown> = {
    iss: ISSUER,
    sub: 'user-1',
    aud: CLIENT_ID,
    exp: NOW_SEC + 3600,
    iat: NOW_SEC - 10,
    nonce: NONCE,
    ...overrides,
  };
  return Object.fromEntries(Object.entries(all).filter(([, value]) => value !== undefined));
}

/** An ID token signed by `key` (the tenant's by default) as `kid`. */
async function idToken(payload: JWTPayload, { key = tenantKey, kid = 'k1', alg = 'RS256' } = {}): Promise<string> {
  return new SignJWT(payload).setProtectedHeader({ alg, kid, typ: 'JWT' }).sign(key.privateKey);
}

function serveTokens(id_token: string) {
  server.use(
    http.post(`${ORIGIN}/oauth/token`, () =>
      HttpResponse.json({ access_token: 'at', token_type: 'Bearer', expires_in: 60, id_token, refresh_token: 'rt' }),
    ),
  );
}

/** Serves the tenant's JWKS and counts how often it is fetched. */
function serveJwks(body: () => object = () => jwks): { count: number } {
  const fetched = { count: 0 };
  server.use(
    http.get(`${ORIGIN}/.well-known/jwks.json`, () => {
      fetched.count += 1;
      return HttpResponse.json(body());
    }),
  );
  return fetched;
}

const clock = () => createFakeClock(NOW_SEC * 1000);
function client(options: Partial<AuthenticationClientOptions> = {}) {
  requests.length = 0;
  return new AuthenticationClient({
    domain: DOMAIN,
    clientId: CLIENT_ID,
    clientSecret: 'shh',
    clock: clock(),
    ...options,
  } as AuthenticationClientOptions);
}
const codeGrant = { code: 'c', redirect_uri: 'https://app.example/cb', nonce: NONCE };

/** Awaits `promise`, expecting an `IdTokenValidationError`, and returns it. */
async function validationError(promise: Promise<unknown>): Promise<IdTokenValidationError> {
  const error = await promise.then(
    () => undefined,
    (reason: unknown) => reason,
  );
  expect(error).toBeInstanceOf(IdTokenValidationError);
  return error as IdTokenValidationError;
}

describe('a valid ID token', () => {
  it('resolves with its claims, checked against the signature; nonce and max_age are not sent', async () => {
    const token = await idToken(claims({ auth_time: NOW_SEC - 60, email: 'ada@example.com' }));
    serveTokens(token);
    const jwksFetches = serveJwks();
    const result = await client().oauth.authorizationCodeGrant({ ...codeGrant, max_age: 300 });
    expect(result.id_token).toBe(token);
    expect(result.claims).toMatchObject({ iss: ISSUER, sub: 'user-1', aud: CLIENT_ID, nonce: NONCE, email: 'ada@example.com' });
    expect(jwksFetches.count).toBe(1);
    const form = Object.fromEntries(new URLSearchParams(await requests[0]!.text()));
    expect(form).toEqual({
      grant_type: 'authorization_code',
      code: 'c',
      redirect_uri: 'https://app.example/cb',
      client_id: CLIENT_ID,
      client_secret: 'shh',
    });
  });

  it('a response without id_token has no claims and fetches no keys', async () => {
    server.use(http.post(`${ORIGIN}/oauth/token`, () => HttpResponse.json({ access_token: 'at', token_type: 'Bearer' })));
    const jwksFetches = serveJwks();
    const result = await client().oauth.authorizationCodeGrant(codeGrant);
    expect(result).not.toHaveProperty('claims');
    expect(jwksFetches.count).toBe(0);
  });

  it('the key set is fetched once per client and cached', async () => {
    serveTokens(await idToken(claims()));
    const jwksFetches = serveJwks();
    const auth = client();
    await auth.oauth.authorizationCodeGrant(codeGrant);
    await auth.oauth.authorizationCodeGrant(codeGrant);
    await auth.oauth.refreshTokenGrant({ refresh_token: 'rt' });
    expect(jwksFetches.count).toBe(1);
  });

  it('refreshTokenGrant, passwordGrant and passwordless.login validate theirs too', async () => {
    serveTokens(await idToken(claims({ aud: 'someone-else' })));
    serveJwks();
    const auth = client();
    expect((await validationError(auth.oauth.refreshTokenGrant({ refresh_token: 'rt' }))).claim).toBe('aud');
    expect((await validationError(auth.oauth.passwordGrant({ username: 'ada', password: 'pw' }))).claim).toBe('aud');
    const login = auth.passwordless.login({ connection: 'email', email: 'ada@example.com', code: '123456' });
    expect((await validationError(login)).claim).toBe('aud');
  });

  it('clientCredentialsGrant does not look at id_token', async () => {
    serveTokens('not-a-jwt');
    await expect(client().oauth.clientCredentialsGrant({ audience: 'https://api' })).resolves.toMatchObject({ id_token: 'not-a-jwt' });
  });
});

describe('a refresh-token grant loads the keys before it is sent', () => {
  it('fetches the key set first, then the grant, and checks the ID token with it', async () => {
    serveTokens(await idToken(claims({ nonce: undefined })));
    const jwksFetches = serveJwks();
    const result = await client().oauth.refreshTokenGrant({ refresh_token: 'rt' });
    expect(result.claims?.sub).toBe('user-1');
    expect(jwksFetches.count).toBe(1);
    expect(requests.map((request) => new URL(request.url).pathname)).toEqual(['/.well-known/jwks.json', '/oauth/token']);
  });

  it('does not send the grant (nor spend a rotating refresh token) when the keys cannot be fetched', async () => {
    serveTokens(await idToken(claims({ nonce: undefined })));
    server.use(http.get(`${ORIGIN}/.well-known/jwks.json`, () => HttpResponse.error()));
    const error = await client({ retry: false })
      .oauth.refreshTokenGrant({ refresh_token: 'rt' })
      .catch((caught: unknown) => caught);
    expect((error as Error).name).toBe('NetworkError');
    expect(requests.map((request) => new URL(request.url).pathname)).toEqual(['/.well-known/jwks.json']);
  });

  it.each([
    ['headers', { headers: { 'x-bad': 'line\nbreak' } }],
    ['retry', { retry: { maxRetries: -1 } }],
    ['timeoutMs', { timeoutMs: 0 }],
  ])('sends nothing when the call has a bad %s option', async (_name, options) => {
    serveJwks();
    const error = await client()
      .oauth.refreshTokenGrant({ refresh_token: 'rt' }, options as never)
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(Error);
    expect(requests).toHaveLength(0);
  });

  it('fetches the set again first once the cached one is 10 minutes old, and sends no grant when that fails', async () => {
    vi.useFakeTimers({ toFake: ['Date'], now: NOW_SEC * 1000 }); // jose dates its cache with Date.now()
    let jwksUp = true;
    server.use(http.get(`${ORIGIN}/.well-known/jwks.json`, () => (jwksUp ? HttpResponse.json(jwks) : HttpResponse.error())));
    serveTokens(await idToken(claims({ nonce: undefined })));
    const auth = client();
    await auth.oauth.refreshTokenGrant({ refresh_token: 'rt-1' });
    vi.setSystemTime(Date.now() + 599_000);
    await auth.oauth.refreshTokenGrant({ refresh_token: 'rt-2' });
    vi.setSystemTime(Date.now() + 1_000);
    await auth.oauth.refreshTokenGrant({ refresh_token: 'rt-3' });
    const paths = requests.map((request) => new URL(request.url).pathname);
    expect(paths).toEqual(['/.well-known/jwks.json', '/oauth/token', '/oauth/token', '/.well-known/jwks.json', '/oauth/token']);
    vi.setSystemTime(Date.now() + 600_000);
    jwksUp = false;
    requests.length = 0;
    await expect(auth.oauth.refreshTokenGrant({ refresh_token: 'rt-4' })).rejects.toMatchObject({ name: 'NetworkError' });
    expect(requests.map((request) => new URL(request.url).pathname)).toEqual(['/.well-known/jwks.json']);
  });

  it('fetches no keys when the grant asks for a scope without openid', async () => {
    server.use(http.post(`${ORIGIN}/oauth/token`, () => HttpResponse.json({ access_token: 'at', token_type: 'Bearer' })));
    const jwksFetches = serveJwks();
    await client().oauth.refreshTokenGrant({ refresh_token: 'rt', scope: 'read:things offline_access' });
    expect(jwksFetches.count).toBe(0);
  });

  it('fetches no keys with idTokenVerification: "claims"', async () => {
    serveTokens(await idToken(claims({ nonce: undefined })));
    const jwksFetches = serveJwks();
    await client({ idTokenVerification: 'claims' }).oauth.refreshTokenGrant({ refresh_token: 'rt' });
    expect(jwksFetches.count).toBe(0);
  });
});

describe('each check of OIDC Core 3.1.3.7', () => {
  const cases: [string, Record<string, unknown>, string][] = [
    ['a wrong issuer', { iss: 'https://evil.example/' }, 'iss'],
    ['the issuer without its trailing slash', { iss: ORIGIN }, 'iss'],
    ['no subject', { sub: undefined }, 'sub'],
    ['a wrong audience', { aud: 'other-app' }, 'aud'],
    ['several audiences without azp', { aud: ['other-app', CLIENT_ID] }, 'azp'],
    ['several audiences with another azp', { aud: ['other-app', CLIENT_ID], azp: 'other-app' }, 'azp'],
    ['an azp of another client', { azp: 'other-app' }, 'azp'],
    ['expired beyond the 60 s tolerance', { exp: NOW_SEC - 61 }, 'exp'],
    ['no exp', { exp: undefined }, 'exp'],
    ['issued in the future beyond the tolerance', { iat: NOW_SEC + 61 }, 'iat'],
    ['no iat', { iat: undefined }, 'iat'],
    ['an expiry too long ago for a date', { exp: -1e17 }, 'exp'],
    ['an issue time too far ahead for a date', { iat: 1e17 }, 'iat'],
    ['a wrong nonce', { nonce: 'another-nonce' }, 'nonce'],
    ['no nonce though one was given', { nonce: undefined }, 'nonce'],
  ];
  it.each(cases)('%s → IdTokenValidationError on %s', async (_name, overrides, claim) => {
    const token = await idToken(claims(overrides));
    serveTokens(token);
    serveJwks();
    const error = await validationError(client().oauth.authorizationCodeGrant(codeGrant));
    expect(error.claim).toBe(claim);
    expect(error).toBeInstanceOf(IdPlatformError);
    expect(error.message).not.toContain(token);
    expect(JSON.stringify(error)).not.toContain(token);
  });

  // The claims IdTokenClaims types hold what it says, whether or not the login asked for them (no nonce,
  // organization or max_age given here).
  it.each([
    ['an audience list with a member that is not a string', { aud: [CLIENT_ID, 5], azp: CLIENT_ID }, 'aud'],
    ['an auth_time that is a string', { auth_time: String(NOW_SEC) }, 'auth_time'],
    ['a nonce that is a number', { nonce: 42 }, 'nonce'],
    ['an org_id that is a number', { org_id: 7 }, 'org_id'],
    ['an org_name that is an object', { org_name: { name: 'acme' } }, 'org_name'],
  ])('%s → IdTokenValidationError on %s, though nothing was asked of it', async (_name, overrides, claim) => {
    serveTokens(await idToken(claims(overrides)));
    serveJwks();
    const error = await validationError(client().oauth.authorizationCodeGrant({ ...codeGrant, nonce: undefined }));
    expect(error.claim).toBe(claim);
  });

  it.each(['exp', 'iat', 'auth_time'])('an ID token whose %s is 1e400 (Infinity in JavaScript) fails', async (claim) => {
    // SignJWT cannot write 1e400 (JSON.stringify gives null): the payload is written by hand.
    const payload = JSON.stringify(claims({ exp: 0, iat: 0, auth_time: 0 }))
      .replace('"exp":0', `"exp":${claim === 'exp' ? '1e400' : NOW_SEC + 3600}`)
      .replace('"iat":0', `"iat":${claim === 'iat' ? '1e400' : NOW_SEC - 10}`)
      .replace('"auth_time":0', `"auth_time":${claim === 'auth_time' ? '1e400' : NOW_SEC - 10}`);
    const token = await new CompactSign(new TextEncoder().encode(payload))
      .setProtectedHeader({ alg: 'RS256', kid: 'k1', typ: 'JWT' })
      .sign(tenantKey.privateKey);
    serveTokens(token);
    serveJwks();
    const error = await validationError(client().oauth.authorizationCodeGrant(codeGrant));
    expect(error.claim).toBe(claim);
    expect(error.message).toContain('Infinity');
  });

  it('accepts several audiences with azp = client id, and exp/iat within the tolerance', async () => {
    serveTokens(await idToken(claims({ aud: ['other-app', CLIENT_ID], azp: CLIENT_ID, exp: NOW_SEC - 59, iat: NOW_SEC + 59 })));
    serveJwks();
    await expect(client().oauth.authorizationCodeGrant(codeGrant)).resolves.toHaveProperty('claims.azp', CLIENT_ID);
  });

  it('clockToleranceSec widens or narrows the window', async () => {
    serveTokens(await idToken(claims({ exp: NOW_SEC - 100 })));
    serveJwks();
    await expect(client({ clockToleranceSec: 120 }).oauth.authorizationCodeGrant(codeGrant)).resolves.toHaveProperty('claims');
    serveTokens(await idToken(claims({ iat: NOW_SEC + 5 })));
    expect((await validationError(client({ clockToleranceSec: 0 }).oauth.authorizationCodeGrant(codeGrant))).claim).toBe('iat');
  });

  it('without a nonce given, the token’s nonce is not checked', async () => {
    serveTokens(await idToken(claims({ nonce: 'whatever' })));
    serveJwks();
    await expect(client().oauth.authorizationCodeGrant({ code: 'c', redirect_uri: codeGrant.redirect_uri })).resolves.toHaveProperty(
      'claims.nonce',
      'whatever',
    );
  });

  it('a token that is not a JWT fails as id_token', async () => {
    serveTokens('not-a-jwt');
    expect((await validationError(client().oauth.authorizationCodeGrant(codeGrant))).claim).toBe('id_token');
  });
});

describe('organization and max_age', () => {
  it('org_id must equal an organization id that was asked for; it is not sent', async () => {
    serveTokens(await idToken(claims({ org_id: 'org_123' })));
    serveJwks();
    await expect(client().oauth.authorizationCodeGrant({ ...codeGrant, organization: 'org_123' })).resolves.toHaveProperty(
      'claims.org_id',
      'org_123',
    );
    expect(new URLSearchParams(await requests[0]!.text()).has('organization')).toBe(false);
    const wrong = await validationError(client().oauth.authorizationCodeGrant({ ...codeGrant, organization: 'org_456' }));
    expect(wrong.claim).toBe('org_id');
  });

  it('a missing org_id fails when an organization was asked for', async () => {
    serveTokens(await idToken(claims()));
    serveJwks();
    expect((await validationError(client().oauth.authorizationCodeGrant({ ...codeGrant, organization: 'org_123' }))).claim).toBe('org_id');
  });

  it('an organization name is compared with org_name, case-insensitively', async () => {
    serveTokens(await idToken(claims({ org_name: 'acme' })));
    serveJwks();
    await expect(client().oauth.authorizationCodeGrant({ ...codeGrant, organization: 'Acme' })).resolves.toHaveProperty('claims');
    serveTokens(await idToken(claims({ org_name: 'Acme' })));
    await expect(client().oauth.authorizationCodeGrant({ ...codeGrant, organization: 'ACME' })).resolves.toHaveProperty('claims');
    expect((await validationError(client().oauth.authorizationCodeGrant({ ...codeGrant, organization: 'globex' }))).claim).toBe('org_name');
  });

  it('refreshTokenGrant checks the organization too', async () => {
    serveTokens(await idToken(claims({ org_id: 'org_9' })));
    serveJwks();
    expect((await validationError(client().oauth.refreshTokenGrant({ refresh_token: 'rt', organization: 'org_1' }))).claim).toBe('org_id');
  });

  it('max_age needs an auth_time no older than max_age plus the tolerance', async () => {
    serveJwks();
    serveTokens(await idToken(claims({ auth_time: NOW_SEC - 300 - 60 })));
    await expect(client().oauth.authorizationCodeGrant({ ...codeGrant, max_age: 300 })).resolves.toHaveProperty('claims');
    serveTokens(await idToken(claims({ auth_time: NOW_SEC - 300 - 61 })));
    expect((await validationError(client().oauth.authorizationCodeGrant({ ...codeGrant, max_age: 300 }))).claim).toBe('auth_time');
    serveTokens(await idToken(claims()));
    expect((await validationError(client().oauth.authorizationCodeGrant({ ...codeGrant, max_age: 300 }))).claim).toBe('auth_time');
  });
});

describe('signature and algorithm', () => {
  it('a token signed by another key fails as signature', async () => {
    serveTokens(await idToken(claims(), { key: otherKey }));
    serveJwks();
    const error = await validationError(client().oauth.authorizationCodeGrant(codeGrant));
    expect(error).toMatchObject({ claim: 'signature', message: 'The ID token signature is invalid' });
  });

  it('a tampered payload fails as signature', async () => {
    const [header, , signature] = (await idToken(claims())).split('.');
    const forged = Buffer.from(JSON.stringify(claims({ sub: 'admin' }))).toString('base64url');
    serveTokens(`${header}.${forged}.${signature}`);
    serveJwks();
    expect((await validationError(client().oauth.authorizationCodeGrant(codeGrant))).claim).toBe('signature');
  });

  it('with idTokenVerification: "claims" the signature is not checked and no keys are fetched', async () => {
    serveTokens(await idToken(claims(), { key: otherKey }));
    const jwksFetches = serveJwks();
    await expect(client({ idTokenVerification: 'claims' }).oauth.authorizationCodeGrant(codeGrant)).resolves.toHaveProperty('claims');
    expect(jwksFetches.count).toBe(0);
  });

  /**
   * A client that has verified one token (the key set is cached), the key set the tenant serves from now on,
   * and `advance`, which moves the client's clock and `Date.now()` (by which jose dates its cache) together.
   */
  async function clientWithCachedKeys() {
    vi.useFakeTimers({ toFake: ['Date'], now: NOW_SEC * 1000 });
    const keySet = { served: jwks };
    const jwksFetches = serveJwks(() => keySet.served);
    const testClock = clock();
    const auth = client({ clock: testClock });
    serveTokens(await idToken(claims()));
    await auth.oauth.authorizationCodeGrant(codeGrant);
    const advance = (ms: number) => {
      testClock.advance(ms);
      vi.setSystemTime(Date.now() + ms);
    };
    return { auth, advance, jwksFetches, keySet };
  }

  it('a kid the cached set lacks refetches the set (key rotation), at most every 30 s', async () => {
    const rotated = await generateKeyPair('RS256', { extractable: true });
    const { auth, advance, jwksFetches, keySet } = await clientWithCachedKeys();
    keySet.served = { keys: [...jwks.keys, { ...(await exportJWK(rotated.publicKey)), kid: 'k2', alg: 'RS256', use: 'sig' }] };
    serveTokens(await idToken(claims(), { key: rotated, kid: 'k2' }));
    // Within the cooldown: no refetch, the key is unknown.
    const error = await validationError(auth.oauth.authorizationCodeGrant(codeGrant));
    expect(error).toMatchObject({ claim: 'signature', message: 'No key of /.well-known/jwks.json matches the ID token' });
    expect(jwksFetches.count).toBe(1);
    advance(30_000);
    await expect(auth.oauth.authorizationCodeGrant(codeGrant)).resolves.toHaveProperty('claims');
    expect(jwksFetches.count).toBe(2);
  });

  it('a refetch after a rotation that fails keeps the cached set: its keys still verify, without a fetch', async () => {
    const { auth, advance, jwksFetches } = await clientWithCachedKeys();
    const unknownKidToken = await idToken(claims(), { key: otherKey, kid: 'k9' });
    server.use(
      http.get(`${ORIGIN}/.well-known/jwks.json`, () => {
        jwksFetches.count += 1;
        return HttpResponse.json({ error: 'internal' }, { status: 500 });
      }),
    );
    advance(60_000);
    serveTokens(unknownKidToken);
    const error = await validationError(auth.oauth.authorizationCodeGrant(codeGrant));
    expect(error).toMatchObject({ claim: 'signature', message: "The tenant's /.well-known/jwks.json answered HTTP 500, not its key set" });
    expect(jwksFetches.count).toBe(2);
    serveTokens(await idToken(claims()));
    await expect(auth.oauth.authorizationCodeGrant(codeGrant)).resolves.toHaveProperty('claims');
    expect(jwksFetches.count).toBe(2);
  });

  it('a login whose key is in the cached set does not wait for a rotation refetch in flight', async () => {
    const { auth, advance, jwksFetches } = await clientWithCachedKeys();
    let releaseFetch: () => void = () => {};
    server.use(
      http.get(`${ORIGIN}/.well-known/jwks.json`, async () => {
        jwksFetches.count += 1;
        await new Promise<void>((resolve) => {
          releaseFetch = resolve;
        });
        return HttpResponse.json(jwks);
      }),
    );
    advance(60_000);
    server.use(
      http.post(`${ORIGIN}/oauth/token`, async ({ request }) => {
        const code = new URLSearchParams(await request.text()).get('code');
        const id_token = await idToken(claims(), code === 'rotated' ? { key: otherKey, kid: 'k9' } : {});
        return HttpResponse.json({ access_token: 'at', token_type: 'Bearer', expires_in: 60, id_token });
      }),
    );
    const rotated = auth.oauth.authorizationCodeGrant({ ...codeGrant, code: 'rotated' }).catch((error: unknown) => error);
    await vi.waitFor(() => expect(jwksFetches.count).toBe(2));
    await expect(auth.oauth.authorizationCodeGrant(codeGrant)).resolves.toHaveProperty('claims');
    releaseFetch();
    expect(((await rotated) as IdTokenValidationError).claim).toBe('signature');
  });

  it('a token without kid is checked with each key of the set that could have signed it', async () => {
    const signer = await exportJWK(tenantKey.publicKey);
    const other = await exportJWK(otherKey.publicKey);
    // Two RS256 keys without kid, the signer second; then a set whose keys have kids.
    for (const keys of [
      [other, signer],
      [
        { ...other, kid: 'old' },
        { ...signer, kid: 'current' },
      ],
    ]) {
      serveJwks(() => ({ keys }));
      const token = await new SignJWT(claims()).setProtectedHeader({ alg: 'RS256', typ: 'JWT' }).sign(tenantKey.privateKey);
      serveTokens(token);
      await expect(client().oauth.authorizationCodeGrant(codeGrant)).resolves.toHaveProperty('claims.sub', 'user-1');
      const forged = await new SignJWT(claims())
        .setProtectedHeader({ alg: 'RS256', typ: 'JWT' })
        .sign((await generateKeyPair('RS256')).privateKey);
      serveTokens(forged);
      expect((await validationError(client().oauth.authorizationCodeGrant(codeGrant))).claim).toBe('signature');
    }
  });

  it('a key the tenant removed from its set stops being trusted once the cached set is 10 minutes old', async () => {
    const { auth, advance, jwksFetches, keySet } = await clientWithCachedKeys();
    keySet.served = { keys: [] }; // the tenant revoked k1
    advance(599_000);
    await expect(auth.oauth.authorizationCodeGrant(codeGrant)).resolves.toHaveProperty('claims'); // the cached set, not fetched again
    expect(jwksFetches.count).toBe(1);
    advance(1_000);
    expect((await validationError(auth.oauth.authorizationCodeGrant(codeGrant))).claim).toBe('signature');
    expect(jwksFetches.count).toBe(2);
  });

  it('an algorithm other than idTokenSigningAlg fails as alg, before any key is fetched', async () => {
    const es = await generateKeyPair('ES256');
    serveTokens(await idToken(claims(), { key: es, alg: 'ES256' }));
    const jwksFetches = serveJwks();
    expect((await validationError(client().oauth.authorizationCodeGrant(codeGrant))).claim).toBe('alg');
    expect(jwksFetches.count).toBe(0);
  });

  it('HS256 (signed with a shared secret) fails as alg against the RS256 default', async () => {
    const secret = new TextEncoder().encode('s'.repeat(32));
    const token = await new SignJWT(claims()).setProtectedHeader({ alg: 'HS256' }).sign(secret);
    serveTokens(token);
    expect((await validationError(client().oauth.authorizationCodeGrant(codeGrant))).claim).toBe('alg');
  });

  it('idTokenSigningAlg: "ES256" accepts ES256 tokens verified against the JWKS', async () => {
    const es = await generateKeyPair('ES256', { extractable: true });
    serveTokens(await idToken(claims(), { key: es, alg: 'ES256', kid: 'e1' }));
    const esJwk = { ...(await exportJWK(es.publicKey)), kid: 'e1', alg: 'ES256', use: 'sig' };
    serveJwks(() => ({ keys: [...jwks.keys, esJwk] }));
    await expect(client({ idTokenSigningAlg: 'ES256' }).oauth.authorizationCodeGrant(codeGrant)).resolves.toHaveProperty('claims');
  });

  it('a JWKS answered with another status than 200 fails as signature, and is fetched again next time', async () => {
    const token = await idToken(claims());
    serveTokens(token);
    server.use(
      http.get(`${ORIGIN}/.well-known/jwks.json`, () => HttpResponse.json({ error: 'not_found' }, { status: 404 }), { once: true }),
    );
    const auth = client();
    const error = await validationError(auth.oauth.authorizationCodeGrant(codeGrant));
    expect(error).toMatchObject({ claim: 'signature', message: "The tenant's /.well-known/jwks.json answered HTTP 404, not its key set" });
    const jwksFetches = serveJwks();
    await expect(auth.oauth.authorizationCodeGrant(codeGrant)).resolves.toHaveProperty('claims');
    expect(jwksFetches.count).toBe(1);
  });

  it('a JWKS that cannot be fetched is a NetworkError naming GET, the host and the cause', async () => {
    serveTokens(await idToken(claims()));
    server.use(http.get(`${ORIGIN}/.well-known/jwks.json`, () => HttpResponse.error()));
    const error = await client()
      .oauth.authorizationCodeGrant(codeGrant)
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(IdPlatformError);
    expect(error).toMatchObject({ name: 'NetworkError' });
    expect((error as Error).message).toMatch(new RegExp(`^GET ${DOMAIN} /\\.well-known/jwks\\.json failed: \\S`));
    expect((error as Error).cause).toBeInstanceOf(Error);
  });

  it('a JWKS fetch that outlasts the client timeoutMs is a TimeoutError, and the next login fetches again', async () => {
    serveTokens(await idToken(claims()));
    let jwksFetches = 0;
    server.use(
      http.get(`${ORIGIN}/.well-known/jwks.json`, () => {
        jwksFetches += 1;
        return jwksFetches === 1 ? delay('infinite') : HttpResponse.json(jwks);
      }),
    );
    const auth = client({ timeoutMs: 50 });
    const error = await auth.oauth.authorizationCodeGrant(codeGrant).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(IdPlatformError);
    expect(error).toMatchObject({ name: 'TimeoutError', message: 'GET /.well-known/jwks.json timed out after 50 ms' });
    await expect(auth.oauth.authorizationCodeGrant(codeGrant)).resolves.toHaveProperty('claims');
    expect(jwksFetches).toBe(2);
  });

  it.each([
    ['fetch', (fetch: (request: Request) => Promise<Response>) => ({ fetch })],
    ['mtls.fetch', (fetch: (request: Request) => Promise<Response>) => ({ clientSecret: undefined, mtls: { fetch } })],
  ])("the key set is fetched with the client's %s and headers, and reported to onResponse", async (_name, fetchOption) => {
    const token = await idToken(claims());
    const seen: Request[] = [];
    const fetch = async (request: Request): Promise<Response> => {
      seen.push(request);
      return new URL(request.url).pathname === '/oauth/token'
        ? Response.json({ access_token: 'at', token_type: 'Bearer', id_token: token })
        : Response.json(jwks);
    };
    const responses: { method: string; path: string; status: number }[] = [];
    const auth = client({
      ...fetchOption(fetch),
      headers: { 'x-tenant-hint': 'acme' },
      onResponse: ({ method, path, status }) => responses.push({ method, path, status }),
    } as Partial<AuthenticationClientOptions>);
    await expect(auth.oauth.authorizationCodeGrant(codeGrant)).resolves.toHaveProperty('claims.sub', 'user-1');
    const keyRequest = seen.find((request) => request.url === `${ORIGIN}/.well-known/jwks.json`);
    expect(keyRequest?.method).toBe('GET');
    expect(keyRequest?.headers.get('x-tenant-hint')).toBe('acme');
    expect(responses).toContainEqual({ method: 'GET', path: '/.well-known/jwks.json', status: 200 });
  });

  it('a custom fetch that ignores the signal and never answers is given up after the client timeoutMs', async () => {
    const token = await idToken(claims());
    let jwksFetches = 0;
    const fetch = async (request: Request): Promise<Response> => {
      if (new URL(request.url).pathname === '/oauth/token')
        return Response.json({ access_token: 'at', token_type: 'Bearer', id_token: token });
      jwksFetches += 1;
      return jwksFetches === 1 ? new Promise<Response>(() => {}) : Response.json(jwks);
    };
    const auth = client({ fetch, timeoutMs: 50 });
    await expect(auth.oauth.authorizationCodeGrant(codeGrant)).rejects.toMatchObject({ name: 'TimeoutError' });
    await expect(auth.oauth.authorizationCodeGrant(codeGrant)).resolves.toHaveProperty('claims');
    expect(jwksFetches).toBe(2);
  });

  it('a call waits for the key set as long as its timeoutMs and signal allow', async () => {
    serveTokens(await idToken(claims()));
    server.use(http.get(`${ORIGIN}/.well-known/jwks.json`, () => delay('infinite')));
    await expect(client({ retry: false }).oauth.authorizationCodeGrant(codeGrant, { timeoutMs: 50 })).rejects.toMatchObject({
      name: 'TimeoutError',
    });
    const controller = new AbortController();
    const pending = client({ retry: false }).oauth.authorizationCodeGrant(codeGrant, { signal: controller.signal });
    const abortAtJwks = ({ request }: { request: Request }) => {
      if (request.url.endsWith('/.well-known/jwks.json')) controller.abort(new Error('caller gave up'));
    };
    server.events.on('request:start', abortAtJwks);
    try {
      await expect(pending).rejects.toThrow('caller gave up');
    } finally {
      server.events.removeListener('request:start', abortAtJwks);
    }
  });

  it("one call's abort or short timeoutMs does not fail another call waiting for the same key fetch", async () => {
    serveTokens(await idToken(claims({ nonce: undefined })));
    let started!: () => void;
    const jwksStarted = new Promise<void>((resolve) => {
      started = resolve;
    });
    server.use(
      http.get(`${ORIGIN}/.well-known/jwks.json`, async () => {
        started();
        await delay(150);
        return HttpResponse.json(jwks);
      }),
    );
    const auth = client();
    const controller = new AbortController();
    const aborted = auth.oauth.refreshTokenGrant({ refresh_token: 'a' }, { signal: controller.signal }).catch((error: unknown) => error);
    const timedOut = auth.oauth.refreshTokenGrant({ refresh_token: 'b' }, { timeoutMs: 30 }).catch((error: unknown) => error);
    const patient = auth.oauth.refreshTokenGrant({ refresh_token: 'c' });
    await jwksStarted;
    controller.abort(new Error('user A navigated away'));
    expect(await aborted).toMatchObject({ message: 'user A navigated away' });
    expect(await timedOut).toMatchObject({ name: 'TimeoutError' });
    expect((await patient).claims?.sub).toBe('user-1');
    expect(requests.filter((request) => request.url.endsWith('/.well-known/jwks.json'))).toHaveLength(1);
  });

  it.each([
    ['a key set whose keys are not a list', () => HttpResponse.json({ keys: 'none' })],
    ['a body that is not JSON', () => new HttpResponse('<html>maintenance</html>', { headers: { 'content-type': 'text/html' } })],
    ['a key that cannot be imported', () => HttpResponse.json({ keys: [{ kty: 'RSA', kid: 'k1', alg: 'RS256', n: 'AQAB' }] })],
  ])('%s fails as signature', async (_name, answer) => {
    const token = await idToken(claims());
    serveTokens(token);
    server.use(http.get(`${ORIGIN}/.well-known/jwks.json`, answer));
    const error = await validationError(client().oauth.authorizationCodeGrant(codeGrant));
    expect(error).toMatchObject({
      claim: 'signature',
      message: "The tenant's /.well-known/jwks.json is not a JSON Web Key Set that can check the ID token",
    });
    expect(JSON.stringify(error)).not.toContain(token);
  });
});

describe('options', () => {
  it.each([
    [{ clockToleranceSec: -1 }, 'clockToleranceSec'],
    [{ clockToleranceSec: Number.NaN }, 'clockToleranceSec'],
    [{ idTokenSigningAlg: 'HS256' }, 'idTokenSigningAlg'],
    [{ idTokenVerification: 'none' }, 'idTokenVerification'],
  ])('%o is a ConfigurationError naming the option', (options, name) => {
    expect(() => client(options as Partial<AuthenticationClientOptions>)).toThrow(ConfigurationError);
    expect(() => client(options as Partial<AuthenticationClientOptions>)).toThrow(name);
  });

  it('in a browser, the default is claims only (no key fetch); Node defaults to the signature', async () => {
    serveTokens(await idToken(claims(), { key: otherKey }));
    const jwksFetches = serveJwks();
    stubBrowser('document', {});
    try {
      const browserClient = client({ clientSecret: undefined });
      const grant = { ...codeGrant, code_verifier: 'v'.repeat(43) };
      await expect(browserClient.oauth.authorizationCodeGrant(grant)).resolves.toHaveProperty('claims');
      expect(jwksFetches.count).toBe(0);
      const opted = client({ clientSecret: undefined, idTokenVerification: 'signature' });
      expect((await validationError(opted.oauth.authorizationCodeGrant(grant))).claim).toBe('signature');
    } finally {
      vi.unstubAllGlobals();
    }
    expect((await validationError(client().oauth.authorizationCodeGrant(codeGrant))).claim).toBe('signature');
  });

  it('under jsdom or happy-dom (a DOM simulated in Node: tests, or a server that registers one) the default stays the signature', async () => {
    serveTokens(await idToken(claims(), { key: otherKey }));
    serveJwks();
    // No navigator at all (Node 20, a DOM registered as `document` alone), jsdom's and happy-dom's own user
    // agents, and the runtime's, which a DOM registered on its globals leaves in place.
    for (const userAgent of [
      undefined,
      'Mozilla/5.0 (linux) AppleWebKit/537.36 (KHTML, like Gecko) jsdom/22.1.0',
      'Mozilla/5.0 (X11; Linux x64) HappyDOM/15.0.0',
      'Node.js/22',
      'Deno/2.1.4',
      'Bun/1.2.3',
    ]) {
      vi.stubGlobal('document', {});
      vi.stubGlobal('navigator', userAgent === undefined ? undefined : { userAgent });
      try {
        const simulated = client({ clientSecret: undefined });
        const grant = { ...codeGrant, code_verifier: 'v'.repeat(43) };
        expect((await validationError(simulated.oauth.authorizationCodeGrant(grant))).claim).toBe('signature');
      } finally {
        vi.unstubAllGlobals();
      }
    }
  });

  it('max_age must be a non-negative number', async () => {
    await expect(client().oauth.authorizationCodeGrant({ ...codeGrant, max_age: -5 })).rejects.toThrow('max_age');
    expect(requests).toHaveLength(0);
  });
});
