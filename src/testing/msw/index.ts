/**
 * `idplatform/testing/msw`: the tenant emulator as msw (v2) request handlers. The
 * only module of the package that imports `msw` (an optional peer dependency).
 * @module
 */
import { type HttpHandler, http } from 'msw';
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
  return [http.all(`${emulator.origin}/*`, ({ request }) => emulator.handle(request))];
}
