import { vi } from 'vitest';

/** A real browser's user agent (Node 21+ has a global `navigator` of its own: `Node.js/22`). */
export const BROWSER_USER_AGENT = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/142.0.0.0 Safari/537.36';

/**
 * Makes this process look like a browser to the SDK: `global` (`document` for a page,
 * `importScripts` for a worker) set to `value`, and a browser's `navigator`. Undo with
 * `vi.unstubAllGlobals()`.
 */
export function stubBrowser(global: string, value: unknown): void {
  vi.stubGlobal(global, value);
  vi.stubGlobal('navigator', { userAgent: BROWSER_USER_AGENT });
}
