import { IdPlatformError, messageOf } from './errors.js';
import type { ResponseInfo } from './options.js';

/**
 * Tells the caller's `onResponse` hook about a response. A hook that throws fails the
 * call with an SDK error (not retried) whose cause is the hook's error; an `async` hook
 * is not waited for, and its rejection is ignored (never an unhandled rejection: the
 * call has gone on). A module of
 * its own: with the option checks, it would sit in the login page's eager bundle,
 * which sends nothing.
 */
export function tellResponse(onResponse: ((info: ResponseInfo) => void) | undefined, info: ResponseInfo): void {
  try {
    const answer: unknown = onResponse?.(info);
    if (typeof (answer as PromiseLike<unknown> | undefined)?.then === 'function') Promise.resolve(answer).catch(() => {});
  } catch (error) {
    throw new IdPlatformError(`The onResponse hook threw: ${messageOf(error)}`, { cause: error });
  }
}
