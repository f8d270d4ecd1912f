import { type Clock, withDeadline } from './clock.js';
import type { RateLimit } from './http/rate-limit.js';

/** What {@link RateLimiter.wait} is told about the call it paces. */
export interface RateLimiterWaitOptions {
  /** The call's `retry.maxDelayMs`: a bucket that refills later is not waited for (the call goes, and its 429 throws `RateLimitError`). */
  readonly maxDelayMs: number;
}

/**
 * Paces Management API calls on the tenant's rate-limit bucket: each call awaits `wait`, each response's `X-RateLimit-*` goes to `update`,
 * so calls wait out a known-empty bucket instead of collecting 429s. The default is in memory, per client; `createRedisRateLimiter`
 * (`idplatform/redis`) shares it across processes. Methods may be sync or async; a limiter that fails never fails a call.
 */
export interface RateLimiter {
  /** Returns, or resolves, when a call under `key` may be sent; rejects with the signal's reason when `signal` aborts. */
  wait(key: string, signal?: AbortSignal, options?: RateLimiterWaitOptions): void | Promise<void>;
  /** Records the bucket state a response reported for `key`. */
  update(key: string, rateLimit: RateLimit): void | Promise<void>;
}

/** How long a call waits on a bucket reported with `remaining` until `resetMs`: 0 unless it is empty and refills within `maxDelayMs`. */
export function delayUntilReset(remaining: number, resetMs: number, nowMs: number, { maxDelayMs } = { maxDelayMs: 60_000 }): number {
  const delayMs = resetMs - nowMs;
  return remaining <= 0 && delayMs > 0 && delayMs <= maxDelayMs ? delayMs : 0;
}

/** The default {@link RateLimiter}: the last answer per key, in memory; a wait sleeps on `clock` only while the bucket is empty. */
export function memoryRateLimiter(clock: Clock): RateLimiter {
  const emptyUntil = new Map<string, number>(); // the reset of each bucket last reported empty, until it has passed
  return {
    // Synchronous unless the bucket is empty: no promise on the hot path.
    wait(key, signal, options) {
      const resetMs = emptyUntil.get(key);
      if (resetMs === undefined) return;
      const now = clock.now();
      if (resetMs <= now) return void emptyUntil.delete(key);
      const delayMs = delayUntilReset(0, resetMs, now, options);
      if (delayMs > 0) return clock.sleep(delayMs, signal);
    },
    update(key, { remaining, reset }) {
      if (remaining > 0) emptyUntil.delete(key);
      else emptyUntil.set(key, reset.getTime());
    },
  };
}

/** The key of a Management API's bucket: one per tenant API, whoever the client is. */
export function rateLimitKey(baseUrl: string): string {
  return `idplatform:ratelimit:${baseUrl}`;
}

/**
 * Calls `limiter.wait`: nothing when it answered at once, else a promise of when the call may go. A limiter that fails or stalls past
 * `answerWithinMs` lets the call go unpaced; an abort ends the wait at once, even on a limiter deaf to it.
 */
export function waitForRateLimit(
  limiter: RateLimiter,
  key: string,
  signal: AbortSignal | undefined,
  options: RateLimiterWaitOptions,
  answerWithinMs: number,
): void | Promise<void> {
  let waiting: unknown;
  try {
    waiting = limiter.wait(key, signal, options);
  } catch {
    return signal?.aborted ? Promise.reject(signal.reason) : undefined;
  }
  if (typeof waiting !== 'object' || waiting === null) return;
  const answered = Promise.resolve(waiting).then(ignore, ignore);
  return withDeadline(answered, signal, answerWithinMs, 'the rate limiter did not answer').catch((reason: unknown) => {
    if (signal?.aborted) throw reason;
  });
}

/** Passes a response's rate limit, when it has one, to `limiter.update`, ignoring its failures (the call has its answer). */
export function reportRateLimit(limiter: RateLimiter, key: string, rateLimit: RateLimit | undefined): void {
  try {
    const updating = rateLimit && limiter.update(key, rateLimit);
    if (updating) Promise.resolve(updating).catch(ignore);
  } catch {} // a synchronous failure is ignored the same way
}

function ignore(): void {}
