import { TimeoutError } from './errors.js';
import { whenAborted } from './signal.js';

/**
 * Resolves like `promise`, but rejects with the signal's reason when `signal` aborts,
 * and with `TimeoutError(timeoutMessage)` after `timeoutMs`. Whichever comes first
 * removes the abort listener and the timer: a `promise` that never settles (a hung
 * `token` function or token cache) leaves nothing behind on a long-lived signal.
 */
export function withDeadline<T>(
  promise: Promise<T>,
  signal: AbortSignal | undefined,
  timeoutMs: number | undefined,
  timeoutMessage: string,
): Promise<T> {
  if (signal?.aborted) return Promise.reject(signal.reason);
  if (signal === undefined && timeoutMs === undefined) return promise;
  return new Promise<T>((resolve, reject) => {
    let timer: ReturnType<typeof setTimeout> | undefined;
    let stopListening: (() => void) | undefined;
    const settle = (finish: () => void) => {
      clearTimeout(timer);
      stopListening?.();
      finish();
    };
    if (timeoutMs !== undefined) timer = setTimeout(() => settle(() => reject(timeoutAfter(timeoutMs, timeoutMessage))), timeoutMs);
    if (signal) stopListening = whenAborted(signal, () => settle(() => reject(signal.reason)));
    promise.then(
      (value) => settle(() => resolve(value)),
      (error: unknown) => settle(() => reject(error)),
    );
  });
}

/** The SDK's `TimeoutError` of a wait of `timeoutMs`: `message`, with a `DOMException` named `TimeoutError` as its cause. */
export function timeoutAfter(timeoutMs: number, message: string): TimeoutError {
  return new TimeoutError(message, { cause: new DOMException(`timed out after ${timeoutMs} ms`, 'TimeoutError') });
}
