import { HttpResponse, http } from 'msw';
import { describe, expect, it } from 'vitest';
import { ConfigurationError, ManagementClient, RateLimitError, RequestValidationError } from '../../src/management/index.js';
import { createFakeClock } from '../helpers/clock.js';
import { API, DOMAIN, recordRequests, tokenEndpoint, useMswServer } from '../helpers/server.js';

const server = useMswServer();
const requests = recordRequests(server);
const apiRequests = () => requests.filter((request) => new URL(request.url).pathname.startsWith('/api/v2/'));

function client() {
  requests.length = 0;
  server.use(
    tokenEndpoint(),
    http.get(`${API}/guardian/factors/phone/message-types`, () =>
      HttpResponse.json(
        { statusCode: 429, error: 'Too Many Requests', message: 'slow down' },
        { status: 429, headers: { 'retry-after': '1' } },
      ),
    ),
  );
  return new ManagementClient({
    domain: DOMAIN,
    clientId: 'm2m',
    clientSecret: 'secret',
    retry: { maxRetries: 3 },
    clock: createFakeClock(),
  });
}

describe('RequestOptions.retry on the Management client', () => {
  it('replaces the client retry for one call', async () => {
    const management = client();
    await expect(management.guardian.phone.getMessageTypes({ retry: false })).rejects.toBeInstanceOf(RateLimitError);
    expect(apiRequests()).toHaveLength(1);
    requests.length = 0;
    await expect(management.guardian.phone.getMessageTypes({ retry: { maxRetries: 1 } })).rejects.toBeInstanceOf(RateLimitError);
    expect(apiRequests()).toHaveLength(2);
    requests.length = 0;
    await expect(management.guardian.phone.getMessageTypes()).rejects.toBeInstanceOf(RateLimitError);
    expect(apiRequests()).toHaveLength(4);
  });

  it('refuses a call retry that is neither an object nor false, and a client one', async () => {
    const management = client();
    for (const retry of [0, true]) {
      const error = await management.guardian.phone.getMessageTypes({ retry } as never).catch((caught: unknown) => caught);
      expect(error).toBeInstanceOf(RequestValidationError);
    }
    expect(requests).toHaveLength(0);
    expect(() => new ManagementClient({ domain: DOMAIN, token: 't', retry: 0 } as never)).toThrow(ConfigurationError);
  });

  it('refuses an invalid call retry before sending', async () => {
    const management = client();
    const error = await management.guardian.phone.getMessageTypes({ retry: { maxRetries: 1.5 } }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(RequestValidationError);
    expect((error as RequestValidationError).issues).toEqual([
      { code: 'invalid_retry', path: ['retry'], message: 'retry.maxRetries must be an integer >= 0' },
    ]);
    expect(requests).toHaveLength(0);
  });
});

describe('RequestOptions.headers and the client `headers`', () => {
  it('cannot relabel the body the SDK sends: its Content-Type follows the body (JSON or form)', async () => {
    requests.length = 0;
    server.use(
      http.put(`${API}/guardian/factors/phone/message-types`, async ({ request }) =>
        HttpResponse.json({ message_types: request.headers.get('content-type')?.startsWith('application/json') ? ['sms'] : ['voice'] }),
      ),
    );
    const management = new ManagementClient({ domain: DOMAIN, token: 'tok', headers: { 'Content-Type': 'application/json' } });
    await management.guardian.phone.setMessageTypes({ message_types: ['sms'] }, { encoding: 'form' });
    await management.guardian.phone.setMessageTypes({ message_types: ['sms'] }, { headers: { 'content-type': 'text/plain' } });
    const sent = apiRequests().map((request) => request.headers.get('content-type'));
    expect(sent).toEqual(['application/x-www-form-urlencoded;charset=UTF-8', 'application/json']);
  });

  it('takes a plain object of another realm (a vm context, as a test runner may make one)', async () => {
    const { runInNewContext } = await import('node:vm');
    const headers = runInNewContext(`({ 'x-trace': '1' })`) as Record<string, string>;
    expect(() => new ManagementClient({ domain: DOMAIN, token: 'tok', headers })).not.toThrow();
  });

  it.each([
    ['a Headers', new Headers({ 'x-trace': '1' })],
    ['a Map', new Map([['x-trace', '1']])],
  ])('refuses %s, whose headers would be dropped unsaid (plain JavaScript)', async (_, headers) => {
    expect(() => new ManagementClient({ domain: DOMAIN, token: 'tok', headers: headers as never })).toThrow(ConfigurationError);
    const management = new ManagementClient({ domain: DOMAIN, token: 'tok' });
    await expect(management.guardian.phone.getMessageTypes({ headers: headers as never })).rejects.toThrow(RequestValidationError);
  });
});
