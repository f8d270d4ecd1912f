import { inspect } from 'node:util';
import { exportPKCS8, generateKeyPair, jwtVerify } from 'jose';
import { HttpResponse, http } from 'msw';
import { describe, expect, it } from 'vitest';
import {
  AuthApiError,
  ConfigurationError,
  ManagementClient,
  type ManagementClientOptions,
  RequestValidationError,
  type TokenCache,
  TokenRequestError,
} from '../../src/management/index.js';
import { createFakeClock } from '../helpers/clock.js';
import { deferred } from '../helpers/deferred.js';
import { API, DOMAIN, ORIGIN, recordRequests, useMswServer } from '../helpers/server.js';

const server = useMswServer();
const requests = recordRequests(server);

const tokenRequests = () => requests.filter((request) => new URL(request.url).pathname === '/oauth/token');
const apiRequests = () => requests.filter((request) => new URL(request.url).pathname.startsWith('/api/v2/'));

function serve({ expiresIn = 86_400 } = {}) {
  let issued = 0;
  server.use(
    http.post(`${ORIGIN}/oauth/token`, () =>
      HttpResponse.json({ access_token: `token-${++issued}`, token_type: 'Bearer', expires_in: expiresIn }),
    ),
    http.get(`${API}/guardian/factors/phone/message-types`, () => HttpResponse.json({ message_types: ['sms'] })),
  );
}

function client(options: Partial<ManagementClientOptions> | Record<string, unknown> = {}) {
  requests.length = 0;
  return new ManagementClient({
    domain: DOMAIN,
    clientId: 'm2m-client',
    clientSecret: 'm2m-secret',
    ...options,
  } as unknown as ManagementClientOptions);
}

describe('ManagementClient options', () => {
  // Plain JavaScript can pass what the options type refuses; the constructor says what is wrong.
  const bad: [string, Record<string, unknown>, string][] = [
    ['no credentials', { clientSecret: undefined }, 'No credentials'],
    ['a token and a secret', { token: 't' }, 'Pass only one way to authenticate'],
    ['a secret and a signing key', { clientAssertionSigningKey: '-----BEGIN PRIVATE KEY-----' }, 'Pass only one way to authenticate'],
    ['a secret without a client id', { clientId: undefined }, '`clientId` is required'],
    ['an unknown auth method', { tokenEndpointAuthMethod: 'private_key_jwt' as 'client_secret_post' }, '`tokenEndpointAuthMethod` must be'],
    ['no domain', { domain: undefined }, '`domain` (the tenant host name) or `baseUrl` is required'],
    ['domain and baseUrl', { baseUrl: 'https://x.example.com/api/v2' }, 'not both'],
    ['http to a remote host', { domain: undefined, baseUrl: 'http://example.com/api/v2' }, 'http: only for a loopback host'],
    ['a zero timeout', { timeoutMs: 0 }, '`timeoutMs` must be a number of milliseconds from 1 to 2147483647'],
    ['a timeout past what timers hold', { timeoutMs: 2 ** 31 }, '`timeoutMs` must be a number of milliseconds'],
    [
      'token with client-credentials options',
      { clientSecret: undefined, clientId: undefined, token: 't', audience: 'x', tokenCache: { get: () => undefined, set: () => {} } },
      '`audience`, `tokenCache` only apply to the client-credentials grant',
    ],
    ['negative retries', { retry: { maxRetries: -1 } }, 'maxRetries'],
    ['an audience that is not a string', { audience: 42 }, '`audience` must be a non-empty string'],
    ['an empty audience', { audience: '' }, '`audience` must be a non-empty string'],
    ['validateResponses 0 (read as false)', { validateResponses: 0 }, '`validateResponses` must be true or false'],
    ["validateResponses 'no' (read as true)", { validateResponses: 'no' }, '`validateResponses` must be true or false'],
  ];
  it.each(bad)('refuses %s with ConfigurationError', (_, options, message) => {
    const create = () => client(options);
    expect(create).toThrow(ConfigurationError);
    expect(create).toThrow(message);
  });

  it('accepts http only for loopback base URLs', () => {
    for (const baseUrl of ['http://127.0.0.1:3000/api/v2', 'http://localhost:1/api/v2', 'http://[::1]:8080/api/v2']) {
      expect(() => client({ domain: undefined, baseUrl })).not.toThrow();
    }
  });

  it('shows neither secret nor key in inspect or JSON output', () => {
    const management = client({ clientSecret: 'very-secret-value' });
    expect(inspect(management, { depth: 10, showHidden: true })).not.toContain('very-secret-value');
    expect(JSON.stringify(management)).toBe(`{"baseUrl":"${API}"}`);
  });
});

describe('client-credentials tokens', () => {
  it('makes exactly one token request for 100 concurrent calls on a cold client', async () => {
    serve();
    const management = client();
    await Promise.all(Array.from({ length: 100 }, () => management.guardian.phone.getMessageTypes()));
    expect(tokenRequests()).toHaveLength(1);
    expect(apiRequests()).toHaveLength(100);
    expect(new Set(apiRequests().map((request) => request.headers.get('authorization')))).toEqual(new Set(['Bearer token-1']));
  });

  it('asks for the default audience https://{domain}/api/v2/ with client_secret_post', async () => {
    serve();
    await client().guardian.phone.getMessageTypes();
    const body = new URLSearchParams(await tokenRequests()[0]!.text());
    expect(Object.fromEntries(body)).toEqual({
      grant_type: 'client_credentials',
      audience: `${API}/`,
      client_id: 'm2m-client',
      client_secret: 'm2m-secret',
    });
    expect(tokenRequests()[0]!.headers.get('content-type')).toContain('application/x-www-form-urlencoded');
  });

  it('sends the secret in a Basic header with client_secret_basic', async () => {
    serve();
    await client({ clientId: 'id:with colon', tokenEndpointAuthMethod: 'client_secret_basic' }).guardian.phone.getMessageTypes();
    const request = tokenRequests()[0]!;
    expect(request.headers.get('authorization')).toBe(`Basic ${btoa('id%3Awith+colon:m2m-secret')}`);
    expect(new URLSearchParams(await request.text()).has('client_secret')).toBe(false);
  });

  it('signs a client assertion with private_key_jwt', async () => {
    serve();
    const { privateKey, publicKey } = await generateKeyPair('RS256', { extractable: true });
    const management = client({ clientSecret: undefined, clientAssertionSigningKey: await exportPKCS8(privateKey) });
    await management.guardian.phone.getMessageTypes();
    const body = new URLSearchParams(await tokenRequests()[0]!.text());
    expect(body.get('client_assertion_type')).toBe('urn:ietf:params:oauth:client-assertion-type:jwt-bearer');
    const { payload } = await jwtVerify(body.get('client_assertion')!, publicKey, { audience: `${ORIGIN}/`, issuer: 'm2m-client' });
    expect(payload.sub).toBe('m2m-client');
  });

  it('reuses the token until shortly before expiry, then fetches a new one', async () => {
    serve({ expiresIn: 10 });
    const clock = createFakeClock(Date.UTC(2026, 0, 1));
    const management = client({ clock });
    await management.guardian.phone.getMessageTypes();
    clock.advance(7_900);
    await management.guardian.phone.getMessageTypes();
    expect(tokenRequests()).toHaveLength(1);
    clock.advance(200);
    await management.guardian.phone.getMessageTypes();
    expect(tokenRequests()).toHaveLength(2);
    expect(apiRequests().at(-1)?.headers.get('authorization')).toBe('Bearer token-2');
  });

  it('fetches a new token and replays once when the API answers 401', async () => {
    serve();
    server.use(
      http.get(`${API}/guardian/factors/phone/message-types`, ({ request }) =>
        request.headers.get('authorization') === 'Bearer token-1'
          ? HttpResponse.json({ statusCode: 401, error: 'Unauthorized', message: 'Invalid token' }, { status: 401 })
          : HttpResponse.json({ message_types: ['voice'] }),
      ),
    );
    await expect(client().guardian.phone.getMessageTypes()).resolves.toEqual({ message_types: ['voice'] });
    expect(tokenRequests()).toHaveLength(2);
    expect(apiRequests()).toHaveLength(2);
  });

  it('replays every request of a burst that met a 401, with one new token', async () => {
    serve();
    server.use(
      http.get(`${API}/guardian/factors/phone/message-types`, ({ request }) =>
        request.headers.get('authorization') === 'Bearer token-1'
          ? HttpResponse.json({ statusCode: 401, error: 'Unauthorized', message: 'Invalid token' }, { status: 401 })
          : HttpResponse.json({ message_types: ['sms'] }),
      ),
    );
    const management = client();
    const results = await Promise.allSettled(Array.from({ length: 10 }, () => management.guardian.phone.getMessageTypes()));
    expect(results.map((result) => result.status)).toEqual(Array(10).fill('fulfilled'));
    expect(tokenRequests()).toHaveLength(2);
  });

  it('throws TokenRequestError when the token cache fails, with the failure as cause', async () => {
    serve();
    const failure = new Error('cache unreachable');
    const tokenCache: TokenCache = { get: async () => Promise.reject(failure), set: () => {} };
    const error = await client({ tokenCache })
      .guardian.phone.getMessageTypes()
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(TokenRequestError);
    expect((error as TokenRequestError).cause).toBe(failure);
    expect(requests).toHaveLength(0);
  });

  it('refuses a per-call timeoutMs that is not a usable number before sending', async () => {
    serve();
    const management = client({ token: 'caller-token', clientId: undefined, clientSecret: undefined });
    await expect(management.guardian.phone.getMessageTypes({ timeoutMs: 0 })).rejects.toBeInstanceOf(RequestValidationError);
    expect(requests).toHaveLength(0);
  });

  it.each([
    ['a zero timeout', { timeoutMs: 0 }],
    ['a header value with a line break', { headers: { 'x-trace': 'a\nb' } }],
  ])('refuses %s before it asks for a token (a cold client-credentials client sends nothing at all)', async (_, options) => {
    serve();
    await expect(client().guardian.phone.getMessageTypes(options)).rejects.toBeInstanceOf(RequestValidationError);
    expect(requests).toHaveLength(0);
  });

  it('reads a per-call timeoutMs of null as none given (the client’s), as the client option and the auth calls do', async () => {
    serve();
    const management = client({ token: 'caller-token', clientId: undefined, clientSecret: undefined });
    await expect(management.guardian.phone.getMessageTypes({ timeoutMs: null as unknown as number })).resolves.toEqual({
      message_types: ['sms'],
    });
  });

  it('reads options of null as none given, in setMessageTypes too', async () => {
    serve();
    server.use(http.put(`${API}/guardian/factors/phone/message-types`, () => HttpResponse.json({ message_types: ['voice'] })));
    const management = client({ token: 'caller-token', clientId: undefined, clientSecret: undefined });
    await expect(management.guardian.phone.getMessageTypes(null as never)).resolves.toEqual({ message_types: ['sms'] });
    await expect(management.guardian.phone.setMessageTypes({ message_types: ['voice'] }, null as never)).resolves.toEqual({
      message_types: ['voice'],
    });
  });

  it('gives up on a token function that never answers with a TimeoutError whose cause says so, as for a request', async () => {
    const management = client({ token: () => new Promise<string>(() => {}), clientId: undefined, clientSecret: undefined, retry: false });
    const error = await management.guardian.phone.getMessageTypes({ timeoutMs: 20 }).catch((caught: unknown) => caught);
    expect(error).toMatchObject({ name: 'TimeoutError', cause: { name: 'TimeoutError', message: 'timed out after 20 ms' } });
  });

  it('refuses a zero timeout at once with a token function that never answers (its deadline is not lost)', async () => {
    const management = client({ token: () => new Promise<string>(() => {}), clientId: undefined, clientSecret: undefined });
    await expect(management.guardian.phone.getMessageTypes({ timeoutMs: 0 })).rejects.toBeInstanceOf(RequestValidationError);
  });

  it('stops a call whose signal aborts while the shared token request runs; that request goes on and serves the next call', async () => {
    const answer = deferred<void>();
    let issued = 0;
    server.use(
      http.post(`${ORIGIN}/oauth/token`, async () => {
        await answer.promise;
        return HttpResponse.json({ access_token: `token-${++issued}`, token_type: 'Bearer', expires_in: 86_400 });
      }),
      http.get(`${API}/guardian/factors/phone/message-types`, () => HttpResponse.json({ message_types: ['sms'] })),
    );
    const management = client();
    const controller = new AbortController();
    const leaving = management.guardian.phone.getMessageTypes({ signal: controller.signal });
    const staying = management.guardian.phone.getMessageTypes();
    await expect.poll(() => tokenRequests().length).toBe(1);
    const reason = new Error('caller left');
    controller.abort(reason);
    await expect(leaving).rejects.toBe(reason);
    const next = management.guardian.phone.getMessageTypes();
    answer.resolve();
    await expect(staying).resolves.toEqual({ message_types: ['sms'] });
    await expect(next).resolves.toEqual({ message_types: ['sms'] });
    expect(tokenRequests()).toHaveLength(1);
    expect(apiRequests().map((request) => request.headers.get('authorization'))).toEqual(['Bearer token-1', 'Bearer token-1']);
  });

  it('ends the wait for a token function that never answers when the signal aborts, with its reason', async () => {
    const management = client({ token: () => new Promise<string>(() => {}), clientId: undefined, clientSecret: undefined });
    const controller = new AbortController();
    const pending = management.guardian.phone.getMessageTypes({ signal: controller.signal });
    const reason = new Error('stopped');
    controller.abort(reason);
    await expect(pending).rejects.toBe(reason);
  });

  it('rejects with the caller’s abort reason even when it is not an Error', async () => {
    serve();
    const management = client();
    await expect(management.guardian.phone.getMessageTypes({ signal: AbortSignal.abort('user-stop') })).rejects.toBe('user-stop');
  });

  it('throws TokenRequestError whose cause is the AuthApiError, and does not cache the failure', async () => {
    let calls = 0;
    server.use(
      http.post(`${ORIGIN}/oauth/token`, () =>
        ++calls === 1
          ? HttpResponse.json({ error: 'access_denied', error_description: 'Unauthorized' }, { status: 401 })
          : HttpResponse.json({ access_token: 'good', token_type: 'Bearer', expires_in: 60 }),
      ),
      http.get(`${API}/guardian/factors/phone/message-types`, () => HttpResponse.json({ message_types: [] })),
    );
    const management = client();
    const error = await management.guardian.phone.getMessageTypes().catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(TokenRequestError);
    expect((error as TokenRequestError).cause).toBeInstanceOf(AuthApiError);
    expect((error as TokenRequestError).cause).toMatchObject({ status: 401, error: 'access_denied', errorDescription: 'Unauthorized' });
    expect(apiRequests()).toHaveLength(0);
    await expect(management.guardian.phone.getMessageTypes()).resolves.toEqual({ message_types: [] });
  });

  it('shares tokens between clients through a common tokenCache, with a TTL below the lifetime', async () => {
    serve({ expiresIn: 3600 });
    const store = new Map<string, { token: string; ttlMs: number }>();
    const tokenCache: TokenCache = {
      get: async (key) => store.get(key)?.token,
      set: async (key, token, ttlMs) => {
        store.set(key, { token, ttlMs });
      },
    };
    await client({ tokenCache }).guardian.phone.getMessageTypes();
    requests.length = 0;
    await new ManagementClient({
      domain: DOMAIN,
      clientId: 'm2m-client',
      clientSecret: 'm2m-secret',
      tokenCache,
    }).guardian.phone.getMessageTypes();
    expect(tokenRequests()).toHaveLength(0);
    expect([...store.values()]).toEqual([{ token: 'token-1', ttlMs: 3_539_000 }]);
  });

  it('sends the token of a `token` function, called per request', async () => {
    serve();
    let count = 0;
    requests.length = 0;
    const management = new ManagementClient({ domain: DOMAIN, token: async () => `caller-${++count}` });
    await management.guardian.phone.getMessageTypes();
    await management.guardian.phone.getMessageTypes();
    expect(requests.map((request) => request.headers.get('authorization'))).toEqual(['Bearer caller-1', 'Bearer caller-2']);
  });

  it('adds the client headers and per-call headers, and the per-call signal aborts', async () => {
    serve();
    const management = client({ headers: { 'x-team': 'billing' } });
    await management.guardian.phone.getMessageTypes({ headers: { 'x-request-id': 'r1' } });
    const request = apiRequests()[0]!;
    expect(request.headers.get('x-team')).toBe('billing');
    expect(request.headers.get('x-request-id')).toBe('r1');
    expect(request.headers.get('user-agent')).toMatch(/^idplatform\/\d+\.\d+\.\d+ node\//);
    const aborted = AbortSignal.abort(new Error('stop'));
    await expect(management.guardian.phone.getMessageTypes({ signal: aborted })).rejects.toThrow('stop');
  });
});
