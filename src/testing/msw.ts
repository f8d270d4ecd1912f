import { type HttpHandler, http } from 'msw';

/**
 * msw (v2) request handlers that send every request to `origin` (any method, any
 * path) through `handle`. Use them with `setupServer(...handlers)` from `msw/node`, or
 * `setupWorker(...handlers)` from `msw/browser`.
 */
export function createMswHandlers(origin: string, handle: (request: Request) => Promise<Response>): HttpHandler[] {
  return [http.all(`${origin}/*`, ({ request }) => handle(request))];
}
