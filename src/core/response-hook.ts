import { IdPlatformError, messageOf } from './errors.js';
import type { ResponseInfo } from './options.js';

/**
 * Tells the caller's `onResponse` hook about a response. A hook that throws fails the
 * call with an SDK error (not retried) whose cause is the hook's error. A module of
 * its own: with the option checks, it would sit in the login page's eager bundle,
 * which sends nothing.
 */
export function tellResponse(onResponse: ((info: ResponseInfo) => void) | undefined, info: ResponseInfo): void {
  try {
    onResponse?.(info);
  } catch (error) {
    throw new IdPlatformError(`The onResponse hook threw: ${messageOf(error)}`, { cause: error });
  }
}
