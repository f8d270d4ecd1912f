import { inspect } from 'node:util';
import { runInNewContext } from 'node:vm';
import { exportPKCS8, generateKeyPair } from 'jose';
import { HttpResponse, http } from 'msw';
import { describe, expect, it } from 'vitest';
import { AuthenticationClient } from '../../src/auth/client.js';
import { IdPlatformError } from '../../src/core/errors.js';
import { ManagementClient } from '../../src/management/client.js';
import type { ManagementClientOptions } from '../../src/management/options.js';
import { API, DOMAIN, ORIGIN, useMswServer } from '../helpers/server.js';

/**
 * End to end: whatever the servers echo back, no client secret, client assertion
 * or bearer token may appear in what the SDK throws, logs or serialises.
 */

const server = useMswServer();
const CLIENT_SECRET = 'super-secret-value-123';
const INVITATIONS = `${API}/organizations/org_1/invitations`;

/** Every way an error (or the client) can reach a log. */
function renderings(value: unknown): Record<string, string> {
  const views: Record<string, string> = { json: JSON.stringify(value) ?? '', inspect: inspect(value, { depth: 10 }) };
  if (value instanceof Error) Object.assign(views, { message: value.message, stack: value.stack ?? '' });
  return views;
}

function expectFreeOf(value: unknown, secrets: readonly string[]) {
  for (const [view, text] of Object.entries(renderings(value))) {
    for (const secret of secrets) expect(text, `${view} holds a secret`).not.toContain(secret);
  }
}

/** Runs a call expected to fail and returns what it threw. */
async function failureOf(call: () => Promise<unknown>): Promise<IdPlatformError> {
  const error = await call().then(
    () => undefined,
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(IdPlatformError);
  return error as IdPlatformError;
}

/** A token endpoint that issues a new token on each request, remembering each one. */
function issuingTokens() {
  const issued: string[] = [];
  const handler = http.post(`${ORIGIN}/oauth/token`, () => {
    const token = `opaque-access-token-${issued.length + 1}-abcdef`;
    issued.push(token);
    return HttpResponse.json({ access_token: token, token_type: 'Bearer', expires_in: 86_400 });
  });
  return { issued, handler };
}

/** An API error answer whose message and body echo the request's bearer token. */
function echoingToken(status: number, error: string) {
  return http.get(INVITATIONS, ({ request }) => {
    const authorization = request.headers.get('authorization') ?? '';
    return HttpResponse.json(
      { statusCode: status, error, message: `Rejected ${authorization}`, echo: { token: authorization.slice('Bearer '.length) } },
      { status },
    );
  });
}

function secretClient(options: Partial<ManagementClientOptions> = {}) {
  return new ManagementClient({
    domain: DOMAIN,
    clientId: 'client-1',
    clientSecret: CLIENT_SECRET,
    retry: false,
    ...options,
  } as ManagementClientOptions);
}

describe('client secret and tokens never leak', () => {
  it('keeps the secret out of a token endpoint failure that echoes it (client_secret_post)', async () => {
    server.use(
      http.post(`${ORIGIN}/oauth/token`, async ({ request }) => {
        const form = new URLSearchParams(await request.text());
        return HttpResponse.json(
          {
            error: 'access_denied',
            error_description: `Unauthorized: wrong secret ${form.get('client_secret')}`,
            echo: Object.fromEntries(form),
          },
          { status: 401 },
        );
      }),
    );
    const client = secretClient();
    const error = await failureOf(() => client.organizations.invitations.list('org_1'));
    expect(error.name).toBe('TokenRequestError');
    expect(error.message).toContain('access_denied');
    expectFreeOf(error, [CLIENT_SECRET]);
    expectFreeOf(client, [CLIENT_SECRET]);
  });

  it('keeps the secret and the Basic credentials out of a token endpoint failure that echoes them (client_secret_basic)', async () => {
    const echoed: string[] = [];
    server.use(
      http.post(`${ORIGIN}/oauth/token`, ({ request }) => {
        const authorization = request.headers.get('authorization') ?? '';
        echoed.push(authorization.slice('Basic '.length));
        return HttpResponse.json(
          { error: 'invalid_client', error_description: `Bad ${authorization} / ${CLIENT_SECRET}` },
          { status: 401 },
        );
      }),
    );
    const client = secretClient({ tokenEndpointAuthMethod: 'client_secret_basic' });
    const error = await failureOf(() => client.organizations.invitations.list('org_1'));
    expect(echoed).toHaveLength(1);
    expectFreeOf(error, [CLIENT_SECRET, ...echoed]);
  });

  it.each([
    [401, 'Unauthorized'],
    [403, 'Forbidden'],
    [500, 'Internal Server Error'],
    [400, 'Bad Request'],
  ])('keeps the bearer token out of a %i API error that echoes it', async (status, errorName) => {
    const tokens = issuingTokens();
    server.use(tokens.handler, echoingToken(status, errorName));
    const client = secretClient();
    const error = await failureOf(() => client.organizations.invitations.list('org_1'));
    expect(error).toMatchObject({ status });
    expect(error.message).toContain('[REDACTED]');
    expect(tokens.issued.length).toBeGreaterThan(0);
    expectFreeOf(error, [CLIENT_SECRET, ...tokens.issued]);
    expectFreeOf(client, [CLIENT_SECRET, ...tokens.issued]);
  });

  it('keeps the bearer token out of an API error whose plain-text body echoes it', async () => {
    const tokens = issuingTokens();
    server.use(
      tokens.handler,
      http.get(INVITATIONS, ({ request }) => new HttpResponse(`invalid ${request.headers.get('authorization')}`, { status: 401 })),
    );
    const error = await failureOf(() => secretClient().organizations.invitations.list('org_1'));
    expectFreeOf(error, tokens.issued);
  });

  it('keeps secrets out of network failures of the token endpoint and of the API', async () => {
    server.use(http.post(`${ORIGIN}/oauth/token`, () => HttpResponse.error()));
    const tokenFailure = await failureOf(() => secretClient().organizations.invitations.list('org_1'));
    expect(tokenFailure.name).toBe('TokenRequestError');
    expectFreeOf(tokenFailure, [CLIENT_SECRET]);

    const tokens = issuingTokens();
    server.use(
      tokens.handler,
      http.get(INVITATIONS, () => HttpResponse.error()),
    );
    const apiFailure = await failureOf(() => secretClient().organizations.invitations.list('org_1'));
    expect(apiFailure.name).toBe('NetworkError');
    expectFreeOf(apiFailure, [CLIENT_SECRET, ...tokens.issued]);
  });

  it('keeps the bearer token out of a response that fails validation while echoing it', async () => {
    const tokens = issuingTokens();
    server.use(
      tokens.handler,
      http.get(INVITATIONS, ({ request }) =>
        HttpResponse.json([{ id: 'inv_1', inviter: 42, unexpected: request.headers.get('authorization') }]),
      ),
    );
    const error = await failureOf(() => secretClient().organizations.invitations.list('org_1'));
    expect(error.name).toBe('ResponseValidationError');
    expectFreeOf(error, [CLIENT_SECRET, ...tokens.issued]);
  });

  it('keeps the bearer token out of a response whose unknown keys echo it', async () => {
    const tokens = issuingTokens();
    server.use(
      tokens.handler,
      http.get(INVITATIONS, ({ request }) => HttpResponse.json([{ [request.headers.get('authorization') ?? '']: true, inviter: 42 }])),
    );
    const error = await failureOf(() => secretClient().organizations.invitations.list('org_1'));
    expect(error.name).toBe('ResponseValidationError');
    expectFreeOf(error, tokens.issued);
  });

  it('keeps the bearer token out of response headers and status text that echo it', async () => {
    const tokens = issuingTokens();
    server.use(
      tokens.handler,
      http.get(INVITATIONS, ({ request }) => {
        const authorization = request.headers.get('authorization') ?? '';
        return new HttpResponse(null, {
          status: 401,
          statusText: `Denied ${authorization}`,
          headers: { 'www-authenticate': authorization },
        });
      }),
    );
    const error = await failureOf(() => secretClient().organizations.invitations.list('org_1'));
    expect(error).toMatchObject({ status: 401, headers: { 'www-authenticate': 'Bearer [REDACTED]' } });
    expectFreeOf(error, tokens.issued);
  });

  it('keeps the secret out of token endpoint headers that echo it', async () => {
    server.use(
      http.post(
        `${ORIGIN}/oauth/token`,
        () => new HttpResponse(null, { status: 401, statusText: CLIENT_SECRET, headers: { 'x-debug': CLIENT_SECRET } }),
      ),
    );
    const error = await failureOf(() => secretClient().organizations.invitations.list('org_1'));
    expectFreeOf(error, [CLIENT_SECRET]);
  });

  it('keeps the issued token out of a token response that fails validation', async () => {
    const leaked = 'opaque-access-token-in-broken-response';
    server.use(http.post(`${ORIGIN}/oauth/token`, () => HttpResponse.json({ access_token: leaked, token_type: 42, expires_in: 'soon' })));
    const error = await failureOf(() => secretClient().organizations.invitations.list('org_1'));
    expect(error.name).toBe('TokenRequestError');
    expectFreeOf(error, [CLIENT_SECRET, leaked]);
  });

  it('never shows credentials when the client itself is inspected or serialised', () => {
    const client = secretClient({ headers: { 'x-extra': 'x' } });
    expectFreeOf(client, [CLIENT_SECRET]);
    expect(inspect(client, { depth: 10 })).toContain(API);
    expectFreeOf(new ManagementClient({ domain: DOMAIN, token: 'caller-bearer-token-xyz' }), ['caller-bearer-token-xyz']);
  });
});

describe('client assertions never leak', () => {
  it('keeps the private_key_jwt assertion out of token endpoint failures that echo it', async () => {
    const { privateKey } = await generateKeyPair('RS256', { extractable: true });
    const pem = await exportPKCS8(privateKey);
    const assertions: string[] = [];
    server.use(
      http.post(`${ORIGIN}/oauth/token`, async ({ request }) => {
        const assertion = new URLSearchParams(await request.text()).get('client_assertion') ?? '';
        assertions.push(assertion);
        const status = assertions.length === 1 ? 401 : 400;
        return HttpResponse.json({ error: 'invalid_client', error_description: `Bad assertion ${assertion}`, assertion }, { status });
      }),
    );
    const client = new ManagementClient({ domain: DOMAIN, clientId: 'client-1', clientAssertionSigningKey: pem, retry: false });
    const errors = [
      await failureOf(() => client.organizations.invitations.list('org_1')),
      await failureOf(() => client.organizations.invitations.list('org_1')),
    ];
    expect(assertions).toHaveLength(2);
    expect(assertions[0]).not.toBe(assertions[1]);
    for (const error of errors) {
      expect(error.name).toBe('TokenRequestError');
      expectFreeOf(error, [...assertions, pem]);
    }
    expectFreeOf(client, [...assertions, pem]);
  });
});

/** A custom fetch (an mTLS agent, a proxy, instrumentation) whose failure quotes the request, as some HTTP clients do. */
function quotingFetch(quote: (request: Request) => Promise<string>) {
  return async (request: Request): Promise<Response> => {
    const detail = await quote(request);
    const inner = Object.assign(new Error(`socket closed after ${detail}`), { code: 'ECONNRESET', request: detail });
    throw new TypeError(`request failed: ${detail}`, { cause: inner });
  };
}

describe('a custom fetch whose failure quotes the request', () => {
  it('keeps the bearer token out of the NetworkError and its causes, and keeps the root cause code', async () => {
    const token = 'opaque-bearer-token-abcdef';
    const fetch = quotingFetch(async (request) => `authorization: ${request.headers.get('authorization')}`);
    const management = new ManagementClient({ baseUrl: API, token, retry: false, fetch });
    const error = await failureOf(() => management.organizations.invitations.list('org_1'));
    expect(error.name).toBe('NetworkError');
    expectFreeOf(error, [token]);
    expect(error.message).toContain('ECONNRESET');
    expect(error.message).toContain('[REDACTED]');
    const cause = error.cause as Error;
    expectFreeOf(cause, [token]);
    expect(cause.name).toBe('TypeError');
    expect((cause.cause as { code?: unknown }).code).toBe('ECONNRESET');
  });

  it('keeps the client secret out of a TokenRequestError', async () => {
    const fetch = quotingFetch(async (request) => `body=${await request.text()}`);
    const error = await failureOf(() => secretClient({ fetch }).organizations.invitations.list('org_1'));
    expect(error.name).toBe('TokenRequestError');
    expectFreeOf(error, [CLIENT_SECRET]);
  });

  it("keeps an end user's password out of a password grant's NetworkError", async () => {
    const password = 'hunter2-correct-horse';
    const fetch = quotingFetch(async (request) => `body=${await request.text()}`);
    const auth = new AuthenticationClient({ domain: DOMAIN, clientId: 'client-1', retry: false, fetch });
    const error = await failureOf(() => auth.oauth.passwordGrant({ username: 'user@example.com', password }));
    expect(error.name).toBe('NetworkError');
    expectFreeOf(error, [password]);
  });

  /** Every link of a cause chain (an error or not), as a logger that walks `cause` prints it. */
  const causeChainRendered = (error: unknown): string => {
    const parts: string[] = [];
    for (let link = (error as { cause?: unknown }).cause; link != null && parts.length < 20; link = (link as { cause?: unknown }).cause) {
      parts.push(inspect(link, { depth: 10 }));
    }
    return parts.join('\n');
  };
  const TOKEN = 'opaque-bearer-token-abcdef-0123456789';
  const bearerFailure = async (fetch: (request: Request) => Promise<Response>) =>
    failureOf(() => new ManagementClient({ baseUrl: API, token: TOKEN, retry: false, fetch }).organizations.invitations.list('org_1'));

  it.each([
    ['an error carrying the Request', (request: Request) => Object.assign(new TypeError('fetch failed'), { request })],
    ['an error carrying the Headers', (request: Request) => Object.assign(new TypeError('fetch failed'), { headers: request.headers })],
    [
      'an AggregateError whose errors quote the token',
      (request: Request) => new AggregateError([new Error(`proxy refused ${request.headers.get('authorization')}`)], 'every proxy failed'),
    ],
    [
      'a cause that is a plain object',
      (request: Request) => new TypeError('fetch failed', { cause: { headers: Object.fromEntries(request.headers) } }),
    ],
    [
      'a plain object instead of an error',
      (request: Request) => ({ message: 'upstream failed', headers: Object.fromEntries(request.headers) }),
    ],
    [
      'an error of another realm',
      (request: Request) =>
        new TypeError('fetch failed', {
          cause: runInNewContext('new Error(detail)', { detail: `${request.headers.get('authorization')}` }),
        }),
    ],
  ])('keeps the token out of the cause chain of %s', async (_name, failure) => {
    const error = await bearerFailure(async (request) => {
      throw failure(request);
    });
    expect(error.name).toBe('NetworkError');
    expectFreeOf(error, [TOKEN]);
    expect(causeChainRendered(error)).not.toContain(TOKEN);
  });

  it('keeps out every part of a token quoted where the message is cut (2,000 characters)', async () => {
    const error = await bearerFailure(async (request) => {
      const padding = 'x'.repeat(2000 - 'GET tenant.test /api/v2/organizations/org_1/invitations failed: Bearer '.length - 20);
      throw new TypeError(`${padding}${request.headers.get('authorization')} (end)`);
    });
    expect(error.message).toContain('[REDACTED]');
    expect(error.message).not.toContain(TOKEN.slice(0, 8));
  });

  it('keeps a failure that quotes no secret as it is, cause included', async () => {
    const inner = new TypeError('fetch failed', { cause: Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' }) });
    const fetch = async (): Promise<Response> => {
      throw inner;
    };
    const error = await failureOf(() =>
      new ManagementClient({ baseUrl: API, token: 'opaque-bearer-token-abcdef', retry: false, fetch }).organizations.invitations.list(
        'org_1',
      ),
    );
    expect(error.name).toBe('NetworkError');
    expect(error.cause).toBe(inner);
  });
});

describe('a 2xx Authentication API answer that is text', () => {
  const ACCESS = 'issued-access-token-xyz123';
  const REFRESH = 'issued-refresh-token-xyz123';
  /** A token endpoint (or a proxy in front of it) answering 200 with form-encoded tokens, where RFC 6749 says JSON. */
  const formEncodedTokens = () =>
    http.post(
      `${ORIGIN}/oauth/token`,
      () =>
        new HttpResponse(`access_token=${ACCESS}&refresh_token=${REFRESH}&token_type=bearer&expires_in=3600`, {
          headers: { 'content-type': 'application/x-www-form-urlencoded' },
        }),
    );

  /** A refresh grant of a confidential AuthenticationClient (claims only: no key set to load first). */
  const refreshGrant = () =>
    new AuthenticationClient({
      domain: DOMAIN,
      clientId: 'client-1',
      clientSecret: CLIENT_SECRET,
      retry: false,
      idTokenVerification: 'claims',
    }).oauth.refreshTokenGrant({
      refresh_token: 'old-refresh-token',
    });

  it('is not kept on the ResponseValidationError, which says what came instead', async () => {
    server.use(formEncodedTokens());
    const error = await failureOf(refreshGrant);
    expect(error.name).toBe('ResponseValidationError');
    expectFreeOf(error, [ACCESS, REFRESH, CLIENT_SECRET]);
    expect((error as IdPlatformError & { body: unknown }).body).toMatch(
      /^\[\d+ characters of text \(application\/x-www-form-urlencoded\), withheld/,
    );
  });

  it('keeps tokens nested in a JSON answer of another shape out of the error', async () => {
    server.use(
      http.post(`${ORIGIN}/oauth/token`, () =>
        HttpResponse.json({ data: { access_token: ACCESS, refresh_token: REFRESH, token_type: 'Bearer', expires_in: 3600 } }),
      ),
    );
    const error = await failureOf(refreshGrant);
    expect(error.name).toBe('ResponseValidationError');
    expectFreeOf(error, [ACCESS, REFRESH, CLIENT_SECRET]);
  });

  it('is not kept on the TokenRequestError of a ManagementClient', async () => {
    server.use(formEncodedTokens());
    const error = await failureOf(() => secretClient().organizations.invitations.list('org_1'));
    expect(error.name).toBe('TokenRequestError');
    expectFreeOf(error, [ACCESS, CLIENT_SECRET]);
  });
});
