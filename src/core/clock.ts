import { whenAborted } from './signal.js';

/**
 * The seam through which the SDK reads time and waits. Tests pass their own
 * (or use fake timers with the default one); nothing else reads time directly.
 */
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
      if (signal?.aborted) {
        reject(signal.reason);
        return;
      }
      const timer = setTimeout(() => {
        stopListening?.();
        resolve();
      }, ms);
      const stopListening =
        signal &&
        whenAborted(signal, () => {
          clearTimeout(timer);
          reject(signal.reason);
        });
    }),
};
