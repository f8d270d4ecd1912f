import { HttpResponse, http } from 'msw';
import { describe, expect, it } from 'vitest';
import {
  AuthApiError,
  AuthenticationClient,
  type RequestOptions,
  RequestValidationError,
  type ResponseInfo,
} from '../../src/auth/index.js';
import { createFakeClock } from '../helpers/clock.js';
import { DOMAIN, ORIGIN, recordRequests, useMswServer } from '../helpers/server.js';

const server = useMswServer();
const requests = recordRequests(server);

type Call = (auth: AuthenticationClient, options: RequestOptions) => Promise<unknown>;

/** Every method of the client that sends a request: its endpoint and a 2xx answer. */
const calls: [string, 'get' | 'post', string, Call, () => Response][] = [
  ['oauth.clientCredentialsGrant', 'post', 'oauth/token', (a, o) => a.oauth.clientCredentialsGrant({ audience: 'https://api' }, o), tokens],
  [
    'oauth.authorizationCodeGrant',
    'post',
    'oauth/token',
    (a, o) => a.oauth.authorizationCodeGrant({ code: 'c', redirect_uri: 'https://app/cb' }, o),
    tokens,
  ],
  ['oauth.refreshTokenGrant', 'post', 'oauth/token', (a, o) => a.oauth.refreshTokenGrant({ refresh_token: 'rt' }, o), tokens],
  ['oauth.passwordGrant', 'post', 'oauth/token', (a, o) => a.oauth.passwordGrant({ username: 'ada', password: 'pw' }, o), tokens],
  [
    'oauth.revokeRefreshToken',
    'post',
    'oauth/revoke',
    (a, o) => a.oauth.revokeRefreshToken({ token: 'rt' }, o),
    () => new HttpResponse(null, { status: 200 }),
  ],
  [
    'passwordless.start',
    'post',
    'passwordless/start',
    (a, o) => a.passwordless.start({ connection: 'email', email: 'ada@example.com' }, o),
    () => HttpResponse.json({}),
  ],
  [
    'passwordless.login',
    'post',
    'oauth/token',
    (a, o) => a.passwordless.login({ connection: 'email', email: 'ada@example.com', code: '1' }, o),
    tokens,
  ],
  [
    'database.signUp',
    'post',
    'dbconnections/signup',
    (a, o) => a.database.signUp({ connection: 'Users', email: 'ada@example.com', password: 'pw' }, o),
    () => HttpResponse.json({ _id: 'u1' }),
  ],
  [
    'database.changePassword',
    'post',
    'dbconnections/change_password',
    (a, o) => a.database.changePassword({ connection: 'Users', email: 'ada@example.com' }, o),
    () => HttpResponse.text('sent'),
  ],
  ['userInfo.get', 'get', 'userinfo', (a, o) => a.userInfo.get('user-token', o), () => HttpResponse.json({ sub: 'u1' })],
];

function tokens() {
  return HttpResponse.json({ access_token: 'at', token_type: 'Bearer', expires_in: 60 });
}

function client(options: { onResponse?: (info: ResponseInfo) => void } = {}) {
  requests.length = 0;
  return new AuthenticationClient({
    domain: DOMAIN,
    clientId: 'app',
    clientSecret: 'secret',
    headers: { 'x-client-header': 'from-client' },
    clock: createFakeClock(),
    // One request per call: the key set a refresh grant loads first has its own tests (id-token.test.ts).
    idTokenVerification: 'claims',
    ...options,
  });
}

const tooManyRequests = () =>
  HttpResponse.json({ error: 'too_many_requests', error_description: 'slow down' }, { status: 429, headers: { 'retry-after': '1' } });

describe.each(calls)('%s', (_, method, path, call, answer) => {
  it('sends the client headers and the call headers, and tells onResponse', async () => {
    const seen: ResponseInfo[] = [];
    const auth = client({ onResponse: (info) => seen.push(info) });
    server.use(http[method](`${ORIGIN}/${path}`, answer));
    await call(auth, { headers: { 'x-call-header': 'from-call' } });
    const [sent] = requests;
    expect(sent?.headers.get('x-client-header')).toBe('from-client');
    expect(sent?.headers.get('x-call-header')).toBe('from-call');
    expect(seen).toEqual([{ method: method.toUpperCase(), path: `/${path}`, status: 200, rateLimit: undefined }]);
  });

  it('takes the call retry over the client one', async () => {
    const auth = client();
    server.use(http[method](`${ORIGIN}/${path}`, tooManyRequests));
    await expect(call(auth, { retry: false })).rejects.toBeInstanceOf(AuthApiError);
    expect(requests).toHaveLength(1);
    requests.length = 0;
    await expect(call(auth, { retry: { maxRetries: 1 } })).rejects.toMatchObject({ status: 429 });
    expect(requests).toHaveLength(2);
  });

  it('refuses an invalid call retry or timeout, and honours an aborted signal, before sending', async () => {
    const auth = client();
    server.use(http[method](`${ORIGIN}/${path}`, answer));
    await expect(call(auth, { retry: { maxRetries: -1 } })).rejects.toThrow(RequestValidationError);
    await expect(call(auth, { timeoutMs: 0 })).rejects.toThrow('timeoutMs must be a number of milliseconds');
    const reason = new Error('caller gave up');
    await expect(call(auth, { signal: AbortSignal.abort(reason) })).rejects.toBe(reason);
    expect(requests).toHaveLength(0);
  });
});

describe('forwardedFor', () => {
  const endUserCalls: [
    string,
    string,
    (auth: AuthenticationClient, forwardedFor: string | undefined) => Promise<unknown>,
    () => Response,
  ][] = [
    [
      'oauth.passwordGrant',
      'oauth/token',
      (a, ip) => a.oauth.passwordGrant({ username: 'ada', password: 'pw' }, { forwardedFor: ip }),
      tokens,
    ],
    [
      'passwordless.login',
      'oauth/token',
      (a, ip) => a.passwordless.login({ connection: 'email', email: 'ada@example.com', code: '1' }, { forwardedFor: ip }),
      tokens,
    ],
    [
      'passwordless.start',
      'passwordless/start',
      (a, ip) => a.passwordless.start({ connection: 'email', email: 'ada@example.com' }, { forwardedFor: ip }),
      () => HttpResponse.json({}),
    ],
  ];

  it.each(endUserCalls)('%s sends the end user IP as auth0-forwarded-for', async (_, path, call, answer) => {
    const auth = client();
    server.use(http.post(`${ORIGIN}/${path}`, answer));
    await call(auth, '203.0.113.7');
    expect(requests[0]?.headers.get('auth0-forwarded-for')).toBe('203.0.113.7');
    await call(auth, '2001:db8::1');
    expect(requests[1]?.headers.get('auth0-forwarded-for')).toBe('2001:db8::1');
    await call(auth, undefined);
    expect(requests[2]?.headers.has('auth0-forwarded-for')).toBe(false);
  });

  it.each(endUserCalls)('%s refuses a forwardedFor that is not an IP address', async (_, path, call, answer) => {
    const auth = client();
    server.use(http.post(`${ORIGIN}/${path}`, answer));
    await expect(call(auth, '203.0.113.7, 10.0.0.1')).rejects.toThrow('forwardedFor must be an IPv4 or IPv6 address');
    expect(requests).toHaveLength(0);
  });
});
