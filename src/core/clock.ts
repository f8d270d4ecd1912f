import { TimeoutError } from './errors.js';

/** How the SDK reads time and waits (nothing else does); tests pass their own, or use fake timers with the default one. */
export interface Clock {
  /** Milliseconds since the epoch. */
  now(): number;
  /** Resolves after `ms`; rejects with the signal's reason as soon as `signal` aborts. */
  sleep(ms: number, signal?: AbortSignal): Promise<void>;
}

/** The longest delay a timer holds (2^31 − 1 ms, about 24.8 days); a longer one fires at once. */
export const MAX_TIMER_MS = 2 ** 31 - 1;

/** The real clock: `Date.now()` and `setTimeout`. */
export const systemClock: Clock = {
  now: () => Date.now(),
  sleep: (ms, signal) =>
    new Promise<void>((resolve, reject) => {
      if (signal?.aborted) return reject(signal.reason);
      const timer = setTimeout(() => {
        stop?.();
        resolve();
      }, ms);
      const stop =
        signal &&
        whenAborted(signal, () => {
          clearTimeout(timer);
          reject(signal.reason);
        });
    }),
};

/** The listeners of each signal, called by the one listener the SDK adds to it. */
const abortListeners = new WeakMap<AbortSignal, Set<() => void>>();

/** Calls `listener` when `signal` aborts; returns its remover. One SDK listener per shared signal: no `MaxListenersExceededWarning`. */
export function whenAborted(signal: AbortSignal, listener: () => void): () => void {
  let listeners = abortListeners.get(signal);
  if (listeners === undefined) {
    const created = new Set<() => void>();
    const dispatch = () => {
      abortListeners.delete(signal);
      for (const each of created) each();
    };
    signal.addEventListener('abort', dispatch, { once: true });
    abortListeners.set(signal, created);
    listeners = created;
  }
  listeners.add(listener);
  return () => {
    listeners.delete(listener);
  };
}

/** Resolves like `promise`, but rejects with the signal's reason as soon as `signal` aborts (the work goes on for others). */
export function untilAborted<T>(promise: Promise<T>, signal: AbortSignal | undefined): Promise<T> {
  if (signal === undefined) return promise;
  if (signal.aborted) {
    promise.catch(() => {}); // given up on: its failure is nobody's
    return Promise.reject(signal.reason);
  }
  return new Promise<T>((resolve, reject) => {
    const stop = whenAborted(signal, () => reject(signal.reason));
    promise.then(resolve, reject).finally(stop);
  });
}

/** `promise`, rejected on the signal's abort or with `TimeoutError(message)` after `timeoutMs`, leaving no timer or listener behind. */
export function withDeadline<T>(promise: Promise<T>, signal: AbortSignal | undefined, timeoutMs: number, message: string): Promise<T> {
  const deadline = new AbortController();
  const timer = setTimeout(() => deadline.abort(timeoutAfter(timeoutMs, message)), timeoutMs);
  const stop = signal && whenAborted(signal, () => deadline.abort(signal.reason));
  if (signal?.aborted) deadline.abort(signal.reason);
  return untilAborted(promise, deadline.signal).finally(() => {
    clearTimeout(timer);
    stop?.();
  });
}

/** The SDK's `TimeoutError` of a wait of `timeoutMs`: `message`, with a `DOMException` named `TimeoutError` as its cause. */
export function timeoutAfter(timeoutMs: number, message: string): TimeoutError {
  return new TimeoutError(message, { cause: new DOMException(`timed out after ${timeoutMs} ms`, 'TimeoutError') });
}
