import { RequestValidationError } from './errors.js';

/**
 * A caller's `signal` must be an `AbortSignal` (JavaScript callers can pass
 * anything); anything else throws `RequestValidationError` before a request is made.
 */
export function checkSignal(signal: unknown): void {
  if (signal === undefined || signal instanceof AbortSignal) return;
  const like = signal as { aborted?: unknown; addEventListener?: unknown; throwIfAborted?: unknown } | null;
  if (
    typeof like === 'object' &&
    like !== null &&
    typeof like.aborted === 'boolean' &&
    typeof like.addEventListener === 'function' &&
    typeof like.throwIfAborted === 'function'
  )
    return;
  throw new RequestValidationError([{ code: 'invalid_type', path: ['signal'], message: 'signal must be an AbortSignal' }]);
}

/** Resolves like `promise`, but rejects with the signal's reason as soon as `signal` aborts (the shared work goes on for others). */
export function untilAborted<T>(promise: Promise<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) return Promise.reject(signal.reason);
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(signal.reason);
    signal.addEventListener('abort', onAbort, { once: true });
    promise.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort));
  });
}
