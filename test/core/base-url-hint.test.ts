import { HttpResponse, http } from 'msw';
import { describe, expect, it } from 'vitest';
import { ManagementClient, NotFoundError } from '../../src/management/index.js';
import { API, ORIGIN, useMswServer } from '../helpers/server.js';

const server = useMswServer();
const notFound = (message: string) => HttpResponse.json({ statusCode: 404, error: 'Not Found', message }, { status: 404 });

async function error(baseUrl: string): Promise<NotFoundError> {
  const management = new ManagementClient({ baseUrl, token: 'a-token' });
  const caught = await management.guardian.phone.getMessageTypes().catch((thrown: unknown) => thrown);
  expect(caught).toBeInstanceOf(NotFoundError);
  return caught as NotFoundError;
}

describe('the base-URL hint of a 404', () => {
  it('is added when the server says "Service not found" to a base URL without /api/v2', async () => {
    server.use(http.get(`${ORIGIN}/guardian/factors/phone/message-types`, () => notFound('Service not found')));
    expect((await error(ORIGIN)).message).toBe(
      `Service not found. Is the base URL right? The Management API lives at https://{domain}/api/v2; this client sends to ${ORIGIN} (e.g. ${ORIGIN}/api/v2)`,
    );
  });

  it('is added for "Service not found" even when the base URL ends in /api/v2', async () => {
    server.use(http.get(`${API}/guardian/factors/phone/message-types`, () => notFound('Service not found')));
    expect((await error(API)).message).toContain('Is the base URL right?');
  });

  it('is added for "Service not found" with what the server appends to it', async () => {
    server.use(http.get(`${API}/guardian/factors/phone/message-types`, () => notFound(`Service not found: ${ORIGIN}/api/v2/x`)));
    expect((await error(API)).message).toContain(`Service not found: ${ORIGIN}/api/v2/x. Is the base URL right?`);
  });

  it('suggests the origin with /api/v2 for a base URL with another path', async () => {
    server.use(http.get(`${ORIGIN}/api/guardian/factors/phone/message-types`, () => notFound('Service not found')));
    expect((await error(`${ORIGIN}/api`)).message).toContain(`this client sends to ${ORIGIN}/api (e.g. ${ORIGIN}/api/v2)`);
  });

  it('keeps the description of an OAuth-style 404 (a base URL that reaches the Authentication API) as the message', async () => {
    server.use(
      http.get(`${ORIGIN}/guardian/factors/phone/message-types`, () =>
        HttpResponse.json({ error: 'not_found', error_description: 'No such endpoint' }, { status: 404 }),
      ),
    );
    expect((await error(ORIGIN)).message).toMatch(/^No such endpoint\. Is the base URL right\?/);
  });

  it('is left out of an ordinary 404 from /api/v2', async () => {
    server.use(http.get(`${API}/guardian/factors/phone/message-types`, () => notFound('The organization does not exist')));
    expect((await error(API)).message).toBe('The organization does not exist');
  });
});
