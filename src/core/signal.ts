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

/** The SDK's listeners of each signal, called by the one listener it adds to that signal. */
const abortListeners = new WeakMap<AbortSignal, AbortListeners>();

/**
 * Calls `listener` when `signal` aborts; returns the function that removes it. The
 * SDK adds one listener to a signal, whatever the number of calls in flight that
 * share it, and takes it off when the last is removed: many concurrent calls on one
 * long-lived signal (an app's shutdown signal, say) raise no
 * `MaxListenersExceededWarning` and leave nothing behind on it.
 */
export function whenAborted(signal: AbortSignal, listener: () => void): () => void {
  let listeners = abortListeners.get(signal);
  if (listeners === undefined) {
    const created: AbortListeners = new Set() as AbortListeners;
    created.dispatch = () => {
      abortListeners.delete(signal);
      for (const each of created) each();
    };
    signal.addEventListener('abort', created.dispatch, { once: true });
    abortListeners.set(signal, created);
    listeners = created;
  }
  const added = listeners;
  // A function of its own per call: the same listener added twice is still removed once each.
  const entry = () => listener();
  added.add(entry);
  return () => {
    // The last one removed takes the SDK's listener off the signal: nothing is left on it between calls.
    if (added.delete(entry) && added.size === 0 && abortListeners.get(signal) === added) {
      abortListeners.delete(signal);
      signal.removeEventListener('abort', added.dispatch);
    }
  };
}

/** The listeners of one signal, and the one listener that calls them. */
type AbortListeners = Set<() => void> & { dispatch: () => void };

/** Resolves like `promise`, but rejects with the signal's reason as soon as `signal` aborts (the shared work goes on for others). */
export function untilAborted<T>(promise: Promise<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) return Promise.reject(signal.reason);
  return new Promise<T>((resolve, reject) => {
    const stopListening = whenAborted(signal, () => reject(signal.reason));
    promise.then(resolve, reject).finally(stopListening);
  });
}
