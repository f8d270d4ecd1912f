import type { Clock } from '../../src/core/clock.js';

/** A {@link Clock} under the test's control: it records every sleep and moves `now` instead of waiting. */
export interface FakeClock extends Clock {
  /** Every wait the code asked for, in milliseconds, in order. */
  readonly sleeps: number[];
  /** Moves time forward (without anybody sleeping). */
  advance(ms: number): void;
  /** Resolves with the length of the next sleep the code asks for. */
  nextSleep(): Promise<number>;
}

/**
 * A fake clock starting at `startMs`. A sleep advances `now` by its length and
 * resolves at once; with `holdSleeps` it never resolves and only rejects, with the
 * signal's reason, when its signal aborts.
 */
export function createFakeClock(startMs = 0, { holdSleeps = false }: { holdSleeps?: boolean } = {}): FakeClock {
  let now = startMs;
  const sleeps: number[] = [];
  const waiting: ((ms: number) => void)[] = [];
  return {
    sleeps,
    now: () => now,
    advance: (ms) => {
      now += ms;
    },
    nextSleep: () => new Promise<number>((resolve) => waiting.push(resolve)),
    sleep: (ms, signal) => {
      sleeps.push(ms);
      for (const notify of waiting.splice(0)) notify(ms);
      if (signal?.aborted) return Promise.reject(signal.reason);
      if (!holdSleeps) {
        now += ms;
        return Promise.resolve();
      }
      return new Promise<void>((_resolve, reject) => {
        signal?.addEventListener('abort', () => reject(signal.reason), { once: true });
      });
    },
  };
}
