/**
 * The benchmark's loopback server, run in its own process (`fork`) so that its
 * CPU is not counted as the client's. Serves `POST /oauth/token` and
 * `GET /api/v2/organizations/{id}/invitations` from precomputed bodies and sends
 * its port to the parent over IPC. Listens on 127.0.0.1 only; exits with its parent.
 */
import { createServer } from 'node:http';
import { INVITATION_LIST_BODY, INVITATION_PAGE_BODY, TOKEN_BODY } from './fixtures.mjs';

const json = (text) => ({ body: Buffer.from(text), headers: { 'content-type': 'application/json; charset=utf-8' } });
const page = json(INVITATION_PAGE_BODY);
const list = json(INVITATION_LIST_BODY);
const token = json(TOKEN_BODY);
const notFound = json(JSON.stringify({ statusCode: 404, error: 'Not Found', message: 'Not Found' }));
const INVITATIONS_PATH = /^\/api\/v2\/organizations\/[^/]+\/invitations$/;

function send(response, status, { body, headers }) {
  response.writeHead(status, { ...headers, 'content-length': body.length });
  response.end(body);
}

const server = createServer((request, response) => {
  const url = new URL(request.url ?? '/', 'http://127.0.0.1');
  // Drain any request body (the token request) before answering.
  request.resume();
  request.on('end', () => {
    if (request.method === 'POST' && url.pathname === '/oauth/token') return send(response, 200, token);
    if (request.method === 'GET' && INVITATIONS_PATH.test(url.pathname)) {
      if (!request.headers.authorization?.startsWith('Bearer ')) return send(response, 401, notFound);
      return send(response, 200, url.searchParams.get('include_totals') === 'true' ? page : list);
    }
    return send(response, 404, notFound);
  });
});
server.keepAliveTimeout = 60_000;
server.listen(0, '127.0.0.1', () => {
  const address = server.address();
  process.send?.({ port: typeof address === 'object' && address ? address.port : 0 });
});
process.on('disconnect', () => process.exit(0));
