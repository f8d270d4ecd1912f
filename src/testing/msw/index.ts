/**
 * `idplatform/testing/msw`: the tenant emulator as msw (v2) request handlers. The
 * only module of the package that imports `msw` (an optional peer dependency).
 * @module
 */
import { type HttpHandler, http } from 'msw';

export { IdPlatformError } from '../../core/errors.js';

import type { TenantEmulator } from '../emulator.js';

/**
 * msw request handlers that send every request to the emulator's origin (any
 * method, any path) to `emulator.handle`. Use them with `setupServer(...handlers)`
 * from `msw/node`, or `setupWorker(...handlers)` from `msw/browser`.
 *
 * ```ts
 * const server = setupServer(...createMswHandlers(emulator));
 * ```
 */
export function createMswHandlers(emulator: Pick<TenantEmulator, 'origin' | 'handle'>): HttpHandler[] {
  // A pattern, not a path string: msw would read an IPv6 origin's brackets (`http://[::1]:8080`) as path syntax.
  const everyPath = new RegExp(`^${escapeRegExp(emulator.origin)}/`);
  return [
    http.all(everyPath, async ({ request }) => {
      try {
        return await emulator.handle(request);
      } catch (error) {
        // A request its client gave up on (a timeout, an abort) during a scripted delay: nobody reads the
        // answer, and msw would log the abort as an error of the handler.
        if (request.signal.aborted) return Response.error();
        throw error;
      }
    }),
  ];
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
