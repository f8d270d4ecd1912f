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
  return [http.all(everyPath, ({ request }) => emulator.handle(request))];
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
