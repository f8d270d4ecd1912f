import { AuthenticationClient } from 'idplatform/auth';
import {
  ConfigurationError,
  IdPlatformError,
  ManagementClient,
  NetworkError,
  RequestValidationError,
  TimeoutError,
  TokenRequestError,
} from 'idplatform/management';
import { createTenantEmulator } from 'idplatform/testing';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type FaultServer, json, startFaultServer } from '../helpers/fault-server.js';
import { leakedSecrets } from '../helpers/secret-scan.js';
import { CLIENT_SECRET, echoError, MODULE, newTenantState, ORG, type TenantState, tenant } from './tenant.js';

/** One test per bug of issues 9 and 8, each on a real socket, each failing before its fix. */

let server: FaultServer;
let state: TenantState;
beforeAll(async () => {
  state = newTenantState();
  server = await startFaultServer((context) => tenant(state)(context));
});
beforeEach(() => {
  server.reset();
  state.issued.length = 0;
});
afterAll(() => server.close());

const apiRequests = () => server.requests.filter((request) => request.url.startsWith('/api/v2'));
const failure = (promise: Promise<unknown>) =>
  promise.then(
    () => undefined,
    (error: unknown) => error,
  );

describe('issue 9: secrets in header values (CR, LF, NUL)', () => {
  const poisoned = ['tok\r\nx-injected: 1', 'tok\nabc', 'tok\0abc', 'tok€abc'].map((value) => `${value}-secret-token-value`);

  it.each(poisoned)('a token with a forbidden character is refused before sending, without quoting it (%j)', async (token) => {
    const client = new ManagementClient({ baseUrl: `${server.url}/api/v2`, token: async () => token });
    const error = await failure(client.guardian.phone.getMessageTypes());
    // The `token` function's failure (what the docs promise for it), not a header the caller never passed.
    expect(error).toBeInstanceOf(TokenRequestError);
    expect((error as Error).message).toContain('`token` function returned a token an Authorization header cannot carry');
    expect(leakedSecrets(error, [token, 'secret-token-value'])).toEqual([]);
    expect(server.requests).toHaveLength(0); // not sent, and not retried as a NetworkError
  });

  it('a per-call header value with CR/LF is refused, naming only the header', async () => {
    const client = new ManagementClient({ baseUrl: `${server.url}/api/v2`, token: 'static-token' });
    const error = await failure(client.guardian.phone.getMessageTypes({ headers: { 'x-trace': 'a\r\nb-secret-trace' } }));
    expect(error).toBeInstanceOf(RequestValidationError);
    expect((error as Error).message).toContain('x-trace');
    expect(leakedSecrets(error, ['b-secret-trace'])).toEqual([]);
    expect(server.requests).toHaveLength(0);
  });

  it('a client `headers` option with CR/LF is a ConfigurationError', () => {
    expect(
      () => new ManagementClient({ baseUrl: `${server.url}/api/v2`, token: 'static-token', headers: { 'x-api-key': 'k\r\nsecret-key' } }),
    ).toThrow(ConfigurationError);
  });

  it("a user's access token with LF is refused by userInfo.get without quoting it", async () => {
    const auth = new AuthenticationClient({ baseUrl: server.url, clientId: 'app' });
    const error = await failure(auth.userInfo.get('user-access-token\nsecret-part'));
    expect(error).toBeInstanceOf(IdPlatformError);
    expect(leakedSecrets(error, ['user-access-token\nsecret-part', 'secret-part'])).toEqual([]);
    expect(server.requests).toHaveLength(0);
  });

  it('an mTLS cname-api-key with CR/LF is refused in the constructor, without quoting it', () => {
    const cnameApiKey = 'cname-api-key-secret\r\nx: y';
    let error: unknown;
    try {
      new AuthenticationClient({
        baseUrl: server.url,
        clientId: 'app',
        tokenEndpointAuthMethod: 'tls_client_auth',
        mtls: { edgeHeaders: { cnameApiKey, clientCertificate: '-----BEGIN CERTIFICATE-----', clientCertificateCaVerified: 'SUCCESS' } },
      });
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(ConfigurationError);
    expect(leakedSecrets(error, [cnameApiKey, 'cname-api-key-secret'])).toEqual([]);
    expect(server.requests).toHaveLength(0);
  });
});

describe('issue 9: a form-encoded secret echoed by the server', () => {
  it('is redacted from the token error (p+q/r=s t → p%2Bq%2Fr%3Ds+t)', async () => {
    server.next('/oauth/token', (context) => echoError(401, context.request)(context));
    const client = new ManagementClient({ baseUrl: `${server.url}/api/v2`, clientId: 'c', clientSecret: CLIENT_SECRET });
    const error = await failure(client.guardian.phone.getMessageTypes());
    expect(error).toBeInstanceOf(TokenRequestError);
    expect(JSON.stringify(error)).toContain('[REDACTED]'); // the echo arrived, and was scrubbed
    expect(leakedSecrets(error, [CLIENT_SECRET])).toEqual([]);
  });
});

describe('issue 9: a per-call Authorization header in another letter case', () => {
  it('is not merged with the SDK own: one Bearer, no 401, one token request', async () => {
    const client = new ManagementClient({ baseUrl: `${server.url}/api/v2`, clientId: 'c', clientSecret: 'secret-1234' });
    expect(await client.guardian.phone.getMessageTypes({ headers: { Authorization: 'Bearer other' } })).toEqual({
      message_types: ['sms'],
    });
    const [request] = apiRequests();
    expect(request?.headers.authorization).toBe(`Bearer ${state.issued[0]}`);
    expect(state.issued).toHaveLength(1);
  });
});

describe('issue 9: timer overflow', () => {
  it.each([Number.POSITIVE_INFINITY, 2 ** 31, 1e12])('retry.maxDelayMs %d is refused (ConfigurationError)', (maxDelayMs) => {
    expect(() => new ManagementClient({ baseUrl: `${server.url}/api/v2`, token: 't', retry: { maxDelayMs } })).toThrow(ConfigurationError);
  });

  it('the largest timer value is accepted', () => {
    expect(() => new ManagementClient({ baseUrl: `${server.url}/api/v2`, token: 't', retry: { maxDelayMs: 2 ** 31 - 1 } })).not.toThrow();
  });

  it("the emulator's scripted delay above 2^31−1 ms is refused", () => {
    const emulator = createTenantEmulator();
    expect(() => emulator.faults.next(1, { delayMs: 2 ** 31 })).toThrow(RangeError);
    expect(() => emulator.faults.next(1, { delayMs: Number.POSITIVE_INFINITY })).toThrow(RangeError);
    expect(() => emulator.faults.next(1, { delayMs: 2 ** 31 - 1 })).not.toThrow();
  });
});

describe("issue 9: a caller's token function that hangs", () => {
  const hanging = () => new Promise<string>(() => {});

  it('is given up on when the signal aborts, with its reason', async () => {
    const client = new ManagementClient({ baseUrl: `${server.url}/api/v2`, token: hanging });
    const controller = new AbortController();
    const pending = failure(client.guardian.phone.getMessageTypes({ signal: controller.signal }));
    const reason = new Error('caller gave up');
    controller.abort(reason);
    expect(await pending).toBe(reason);
  });

  it('is covered by timeoutMs (TimeoutError)', async () => {
    const client = new ManagementClient({ baseUrl: `${server.url}/api/v2`, token: hanging, timeoutMs: 50, retry: false });
    expect(await failure(client.guardian.phone.getMessageTypes())).toBeInstanceOf(TimeoutError);
  });

  it('that throws gives TokenRequestError with its error as cause', async () => {
    const thrown = new RangeError('vault unavailable');
    const client = new ManagementClient({
      baseUrl: `${server.url}/api/v2`,
      token: () => {
        throw thrown;
      },
    });
    const error = await failure(client.guardian.phone.getMessageTypes());
    expect(error).toBeInstanceOf(TokenRequestError);
    expect((error as Error).cause).toBe(thrown);
  });
});

describe('issue 9: raw errors surface as SDK errors', () => {
  it('a lone surrogate in a path id is a RequestValidationError, not a URIError', async () => {
    const client = new ManagementClient({ baseUrl: `${server.url}/api/v2`, token: 't' });
    expect(await failure(client.actions.modules.listActions('mod_\ud800'))).toBeInstanceOf(RequestValidationError);
    expect(await failure(client.organizations.invitations.list('org_\udc00'))).toBeInstanceOf(RequestValidationError);
    expect(server.requests).toHaveLength(0);
  });

  it('an onResponse hook that throws gives an IdPlatformError with the hook error as cause', async () => {
    const thrown = new TypeError('logger broke');
    const client = new ManagementClient({
      baseUrl: `${server.url}/api/v2`,
      token: 't',
      onResponse: () => {
        throw thrown;
      },
    });
    state.issued.push('t');
    const error = await failure(client.guardian.phone.getMessageTypes());
    expect(error).toBeInstanceOf(IdPlatformError);
    expect((error as Error).cause).toBe(thrown);
  });

  it('a custom fetch throwing a RangeError or a string gives NetworkError', async () => {
    for (const thrown of [new RangeError('bad'), 'a string']) {
      const client = new ManagementClient({
        baseUrl: `${server.url}/api/v2`,
        token: 't',
        retry: false,
        fetch: async () => {
          throw thrown;
        },
      });
      expect(await failure(client.guardian.phone.getMessageTypes())).toBeInstanceOf(NetworkError);
    }
  });

  it('request-option headers that are a string (found by the properties: 100 000 characters spread into 100 000 headers and hung) are refused', async () => {
    const client = new ManagementClient({ baseUrl: `${server.url}/api/v2`, token: 't' });
    for (const headers of ['a'.repeat(100_000), ['x']]) {
      expect(await failure(client.guardian.phone.getMessageTypes({ headers } as never))).toBeInstanceOf(RequestValidationError);
    }
    expect(server.requests).toHaveLength(0);
  });

  it('a signal that is not an AbortSignal is a RequestValidationError', async () => {
    const client = new ManagementClient({ baseUrl: `${server.url}/api/v2`, token: 't' });
    expect(await failure(client.guardian.phone.getMessageTypes({ signal: 'soon' as never }))).toBeInstanceOf(RequestValidationError);
  });
});

describe('issue 9: bounded sizes', () => {
  it('an error message from a 1 MB server message is cut to 2000 characters', async () => {
    server.next(`/api/v2/organizations/${ORG}`, json(400, { statusCode: 400, error: 'Bad Request', message: 'x'.repeat(1_000_000) }));
    const client = new ManagementClient({ baseUrl: `${server.url}/api/v2`, token: 't' });
    state.issued.push('t');
    const error = await failure(client.organizations.invitations.list(ORG));
    expect((error as Error).message.length).toBeLessThan(2100);
    expect((error as Error).message).toContain('more characters');
  });

  it('a module id of 100 000 characters gives an error message of bounded size', async () => {
    server.next('/api/v2/actions', json(404, { statusCode: 404, error: 'Not Found', message: 'no such module' }));
    const client = new ManagementClient({
      baseUrl: `${server.url}/api/v2`,
      token: 't',
      fetch: async () => new Response('', { status: 500 }),
    });
    const error = await failure(client.actions.modules.listActions(`${MODULE}${'m'.repeat(100_000)}`, {}, { timeoutMs: 1000 }));
    expect(error).toBeInstanceOf(IdPlatformError);
    expect((error as Error).message.length).toBeLessThan(2100);
  });
});

describe('issue 8: a response body given up on', () => {
  // Headers and half a body, then a stall. Before the fix the body read was only raced, not
  // cancelled, so the runtime kept the connection, reading, until its own body timeout (300 s).
  // (A caller's abort already closed it: ky ties the caller's signal to the fetch.)
  it.each([
    ['with a Content-Length', { 'content-length': '10000' }],
    ['chunked', {}],
  ])('at the timeout gives TimeoutError and closes the connection (%s)', async (_, lengthHeader) => {
    let closed = false;
    server.next('/api/v2/guardian', ({ res, socket }) => {
      socket.on('close', () => {
        closed = true;
      });
      res.writeHead(200, { 'content-type': 'application/json', ...lengthHeader });
      res.write('{"message_types":[');
    });
    const client = new ManagementClient({ baseUrl: `${server.url}/api/v2`, token: 'static-token', timeoutMs: 200, retry: false });
    expect(await failure(client.guardian.phone.getMessageTypes())).toBeInstanceOf(TimeoutError);
    // Closed within about a millisecond; the bound only keeps a failure from waiting for the test's timeout.
    await expect.poll(() => closed, { timeout: 10_000 }).toBe(true);
    expect(apiRequests()).toHaveLength(1);
  });
});
