import { HttpResponse, http, type RequestHandler } from 'msw';
import { setupServer } from 'msw/node';
import { afterAll, afterEach, beforeAll } from 'vitest';

/** The tenant host every HTTP-level test talks to (intercepted by msw; nothing leaves the machine). */
export const DOMAIN = 'tenant.test';
export const ORIGIN = `https://${DOMAIN}`;
export const API = `${ORIGIN}/api/v2`;

/** An msw server for one test file: unhandled requests fail the test; handlers reset after each test. */
export function useMswServer(...initial: RequestHandler[]) {
  const server = setupServer(...initial);
  beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
  afterEach(() => server.resetHandlers());
  afterAll(() => server.close());
  return server;
}

/** Records every request msw sees, for asserting on counts and wire formats. */
export function recordRequests(server: ReturnType<typeof setupServer>): Request[] {
  const seen: Request[] = [];
  server.events.on('request:start', ({ request }) => {
    seen.push(request.clone());
  });
  return seen;
}

/** A token endpoint handler answering `token` for every client-credentials request. */
export function tokenEndpoint(token = 'token-1', expiresIn = 86_400) {
  return http.post(`${ORIGIN}/oauth/token`, () => HttpResponse.json({ access_token: token, token_type: 'Bearer', expires_in: expiresIn }));
}
