/**
 * The Management client's tokens over msw: what a `token` function's errors become,
 * the token cache's key and option checks, a call's own `timeoutMs` while a token is
 * being fetched, the 401 replay (once per call), and lazy chunks that fail to load.
 */
import { generateKeyPairSync } from 'node:crypto';
import { delay, HttpResponse, http } from 'msw';
import { describe, expect, it, vi } from 'vitest';
import { AuthApiError, ConfigurationError, IdPlatformError, TimeoutError, TokenRequestError } from '../../src/core/errors.js';
import type { TokenCache } from '../../src/core/tokens/provider.js';
import { ManagementClient } from '../../src/management/client.js';
import { createTenantEmulator } from '../../src/testing/index.js';
import { createFakeClock } from '../helpers/clock.js';
import { API, DOMAIN, ORIGIN, useMswServer } from '../helpers/server.js';

const server = useMswServer();
const INVITATIONS = `${API}/organizations/org_1/invitations`;

/** Runs a call expected to fail and returns what it threw. */
const failureOf = (call: () => Promise<unknown>): Promise<unknown> =>
  call().then(
    () => undefined,
    (error: unknown) => error,
  );

describe('a token function', () => {
  it('that throws an SDK error of its own gives TokenRequestError, which this client does not retry', async () => {
    let calls = 0;
    const token = () => {
      calls++;
      throw new AuthApiError({
        status: 429,
        error: 'too_many_requests',
        errorDescription: undefined,
        body: {},
        headers: {},
        rateLimit: undefined,
      });
    };
    const management = new ManagementClient({ baseUrl: API, token, clock: createFakeClock() });
    const error = await failureOf(() => management.organizations.invitations.list('org_1'));
    expect(error).toBeInstanceOf(TokenRequestError);
    expect((error as TokenRequestError).cause).toBeInstanceOf(AuthApiError);
    expect(calls).toBe(1);
  });

  it('that throws a ConfigurationError gives TokenRequestError', async () => {
    const management = new ManagementClient({
      baseUrl: API,
      token: () => {
        throw new ConfigurationError('the app built its own client wrong');
      },
    });
    expect(await failureOf(() => management.organizations.invitations.list('org_1'))).toBeInstanceOf(TokenRequestError);
  });
});

describe('the token cache', () => {
  it('never lets two configurations share a token, whatever colons their client id and audience hold', async () => {
    server.use(
      http.post(`${ORIGIN}/oauth/token`, async ({ request }) => {
        const form = new URLSearchParams(await request.text());
        return HttpResponse.json({
          access_token: `for ${form.get('client_id')} @ ${form.get('audience')}`,
          token_type: 'Bearer',
          expires_in: 86_400,
        });
      }),
      http.get(INVITATIONS, () => HttpResponse.json([])),
    );
    const sent: string[] = [];
    server.events.on('request:start', ({ request }) => {
      if (request.url.startsWith(API)) sent.push(request.headers.get('authorization') ?? '');
    });
    const entries = new Map<string, string>();
    const tokenCache: TokenCache = { get: (key) => entries.get(key), set: (key, token) => void entries.set(key, token) };
    const options = { baseUrl: API, tokenCache, retry: false } as const;
    await new ManagementClient({ ...options, clientId: 'svc', clientSecret: 's1', audience: 'urn:reports' }).organizations.invitations.list(
      'org_1',
    );
    await new ManagementClient({ ...options, clientId: 'svc:urn', clientSecret: 's2', audience: 'reports' }).organizations.invitations.list(
      'org_1',
    );
    expect(sent).toEqual(['Bearer for svc @ urn:reports', 'Bearer for svc:urn @ reports']);
    expect(entries.size).toBe(2);
  });

  it('keeps a token whose expires_in is absurdly long (1e306 s) for 30 days at most: a finite TTL a store accepts', async () => {
    server.use(
      http.post(`${ORIGIN}/oauth/token`, () => HttpResponse.json({ access_token: 'long-lived', token_type: 'Bearer', expires_in: 1e306 })),
      http.get(INVITATIONS, () => HttpResponse.json([])),
    );
    const ttls: number[] = [];
    const tokenCache: TokenCache = { get: () => undefined, set: (_key, _token, ttlMs) => void ttls.push(ttlMs) };
    const management = new ManagementClient({ baseUrl: API, clientId: 'svc', clientSecret: 's1', tokenCache, retry: false });
    await management.organizations.invitations.list('org_1');
    await vi.waitFor(() => expect(ttls).toHaveLength(1));
    expect(ttls[0]).toBe(30 * 24 * 3600 * 1000 - 61_000);
  });

  it.each([
    ['an object without get and set', {}],
    ['a string', 'redis://localhost'],
    ['a lock that is not a function', { get: () => undefined, set: () => {}, lock: true }],
  ])('refuses %s in the constructor', (_name, tokenCache) => {
    expect(
      () => new ManagementClient({ domain: DOMAIN, clientId: 'app', clientSecret: 'secret', tokenCache: tokenCache as never }),
    ).toThrow(ConfigurationError);
  });
});

it('refuses in the constructor a token string no header can carry (a newline from a file), without showing it', () => {
  const error = (() => {
    try {
      new ManagementClient({ domain: DOMAIN, token: 'secret-token-value\n' });
    } catch (caught) {
      return caught;
    }
  })();
  expect(error).toBeInstanceOf(ConfigurationError);
  expect((error as Error).message).not.toContain('secret-token-value');
});

it("bounds a call's wait for a token being fetched by its own timeoutMs", async () => {
  server.use(http.post(`${ORIGIN}/oauth/token`, () => delay('infinite')));
  vi.useFakeTimers();
  try {
    const management = new ManagementClient({ domain: DOMAIN, clientId: 'app', clientSecret: 'secret', retry: false, timeoutMs: 60_000 });
    let settled: unknown;
    void failureOf(() => management.organizations.invitations.list('org_1', {}, { timeoutMs: 50 })).then((error) => {
      settled = error;
    });
    await vi.advanceTimersByTimeAsync(60);
    expect(settled).toBeInstanceOf(TimeoutError);
  } finally {
    vi.useRealTimers();
  }
});

it('replays a request refused with 401 once per call, not once per attempt of the retry loop', async () => {
  let issued = 0;
  let answered = 0;
  server.use(
    http.post(`${ORIGIN}/oauth/token`, () =>
      HttpResponse.json({ access_token: `token-${++issued}`, token_type: 'Bearer', expires_in: 86_400 }),
    ),
    // Every token refused, and a flaky tenant besides: 401, 503, 401, 503, …
    http.get(INVITATIONS, () =>
      ++answered % 2 === 1
        ? HttpResponse.json({ statusCode: 401, error: 'Unauthorized', message: 'Invalid token' }, { status: 401 })
        : HttpResponse.json({ statusCode: 503, error: 'Service Unavailable', message: 'later' }, { status: 503 }),
    ),
  );
  const management = new ManagementClient({ baseUrl: API, clientId: 'app', clientSecret: 'secret', clock: createFakeClock() });
  await failureOf(() => management.organizations.invitations.list('org_1'));
  expect(issued).toBe(2);
});

describe('code loaded on first use', () => {
  it('loads the private_key_jwt chunk again on the next call after it failed to load', async () => {
    const emulator = createTenantEmulator();
    const { createMswHandlers } = await import('../../src/testing/msw/index.js');
    server.use(...createMswHandlers(emulator));
    const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
    const registered = emulator.registerClient({
      clientId: 'signing-app',
      tokenEndpointAuthMethod: 'private_key_jwt',
      scopes: ['read:organization_invitations'],
      publicKey: publicKey.export({ type: 'spki', format: 'pem' }).toString(),
    });
    const pem = privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
    const management = new ManagementClient({
      baseUrl: `${emulator.origin}/api/v2`,
      clientId: registered.clientId,
      clientAssertionSigningKey: pem,
      retry: false,
    });
    vi.doMock('../../src/core/tokens/client-authentication/private-key-jwt.js', () => {
      throw new TypeError('Failed to fetch dynamically imported module');
    });
    try {
      expect(await failureOf(() => management.organizations.invitations.list('org_1'))).toBeInstanceOf(TokenRequestError);
    } finally {
      vi.doUnmock('../../src/core/tokens/client-authentication/private-key-jwt.js');
    }
    const error = await failureOf(() => management.organizations.invitations.list('org_1'));
    expect(error).not.toBeInstanceOf(TokenRequestError);
  });

  it('gives an IdPlatformError when management.request() cannot load its code', async () => {
    const management = new ManagementClient({ baseUrl: API, token: 'a-token', retry: false });
    vi.doMock('../../src/management/custom-request.js', () => {
      throw new TypeError('Failed to fetch dynamically imported module');
    });
    try {
      expect(await failureOf(() => management.request({ method: 'GET', path: 'roles' }))).toBeInstanceOf(IdPlatformError);
    } finally {
      vi.doUnmock('../../src/management/custom-request.js');
    }
  });

  it("throws the first attempt's error when the retry loop's code cannot load", async () => {
    server.use(
      http.get(INVITATIONS, () => HttpResponse.json({ statusCode: 503, error: 'Service Unavailable', message: 'later' }, { status: 503 })),
    );
    const management = new ManagementClient({ baseUrl: API, token: 'a-token', clock: createFakeClock() });
    vi.doMock('p-retry', () => {
      throw new TypeError('Failed to fetch dynamically imported module');
    });
    try {
      const error = await failureOf(() => management.organizations.invitations.list('org_1'));
      expect(error).toBeInstanceOf(IdPlatformError);
      expect((error as IdPlatformError).name).toBe('ServerError');
    } finally {
      vi.doUnmock('p-retry');
    }
  });
});

describe.each([
  ['a trailing newline', 'tok-1\n'],
  ['a character above U+00FF', 'tok-1€'],
])('a token endpoint that once issues a token with %s', (_name, bad) => {
  it('fails that call with TokenRequestError and does not keep the token: the next call fetches a good one', async () => {
    let issued = 0;
    const sent: string[] = [];
    server.use(
      http.post(`${ORIGIN}/oauth/token`, () =>
        HttpResponse.json({ access_token: ++issued === 1 ? bad : `tok-${issued}`, token_type: 'Bearer', expires_in: 86_400 }),
      ),
      http.get(`${API}/organizations/org_1/invitations`, ({ request }) => {
        sent.push(request.headers.get('authorization') ?? '');
        return HttpResponse.json([]);
      }),
    );
    const management = new ManagementClient({ domain: DOMAIN, clientId: 'app', clientSecret: 'secret', clock: createFakeClock(1e12) });

    const first = await management.organizations.invitations.list('org_1').catch((error: unknown) => error);
    expect(first).toBeInstanceOf(TokenRequestError);

    // Not kept: the next call asks for another token.
    await expect(management.organizations.invitations.list('org_1')).resolves.toEqual([]);
    expect(issued).toBe(2);
    expect(sent).toEqual(['Bearer tok-2']);
  });
});
