import type { Clock } from './clock.js';
import type { RetryPolicy } from './retry-policy.js';

export { isIdempotent, type RetryOptions, type RetryPolicy, resolveRetryPolicy } from './retry-policy.js';

import { HttpResponseError, NetworkError, TimeoutError } from './errors.js';
import { parseRetryAfter } from './rate-limit.js';
import { checkSignal, whenAborted } from './signal.js';

/** What one call of {@link withRetry} needs besides the attempt itself. */
export interface RetryContext {
  readonly policy: RetryPolicy;
  /** GET, HEAD, PUT, DELETE, OPTIONS: safe to send again after a network error or 502/503/504. */
  readonly idempotent: boolean;
  readonly clock: Clock;
  readonly signal?: AbortSignal | undefined;
  /**
   * Stops retrying without aborting the attempt in flight: no retry is made after it
   * aborts, and a wait for one ends with the last attempt's error (shared work that
   * no call waits for any more; see `SharedWork`).
   */
  readonly giveUp?: AbortSignal | undefined;
  /**
   * The failure of earlier work this call takes over (shared work given up while it
   * waited to retry, or before its retry; see `SharedWork`): what is left of the wait
   * the server demanded after it (a 429's reset, `Retry-After`) is waited out before
   * the first attempt, as that work's retry would have.
   */
  readonly resumeAfter?: unknown;
  /** A number in [0, 1); `Math.random` unless a test fixes it. */
  readonly random?: () => number;
}

const BACKOFF_BASE_MS = 500;
const RATE_LIMIT_JITTER_MS = 250;

/**
 * The one retry loop of the SDK (on p-retry). It retries:
 * - 429 for every method, waiting until `X-RateLimit-Reset` (never earlier) plus a
 *   small jitter; without that header `Retry-After`; without both, exponential backoff;
 * - network errors, timeouts and 502/503/504 for idempotent methods only.
 *
 * A wait the server asks for that is longer than `maxDelayMs` is not slept: the
 * error (e.g. `RateLimitError`, whose `rateLimit.reset` says when to come back) is
 * thrown at once. Waits end early, with the signal's reason, when `signal` aborts;
 * when `giveUp` aborts, no retry is made and the last attempt's error is thrown.
 *
 * The first attempt is made directly, and p-retry is loaded (a lazy chunk) only when
 * it failed in a way worth retrying: a call that succeeds at once, nearly every
 * call, pays for no retry machinery, and a browser bundle carries none up front. If
 * that chunk cannot load, the first attempt's error is thrown.
 */
export async function withRetry<T>(attempt: () => Promise<T>, context: RetryContext): Promise<T> {
  const { policy, signal } = context;
  checkSignal(signal); // p-retry would throw a raw TypeError on anything else
  if (signal?.aborted) throw signal.reason;
  if (context.resumeAfter !== undefined) await waitDemandedAfter(context.resumeAfter, context);
  let firstFailure: unknown;
  try {
    return await attempt();
  } catch (error) {
    if (signal?.aborted) throw signal.reason;
    if (policy.maxRetries === 0 || !(await waitBeforeRetry(error, 1, context))) throw error;
    firstFailure = error;
  }
  const pRetry = await import('p-retry').then(
    (module) => module.default,
    () => undefined,
  );
  // The retry loop's chunk could not load (a browser gone offline, say), or the work was given up while it
  // loaded: the failure stands as the call's error.
  if (pRetry === undefined || context.giveUp?.aborted) throw firstFailure;
  let retryNumber = 1;
  try {
    return await pRetry(attempt, {
      retries: policy.maxRetries - 1,
      minTimeout: 0,
      signal,
      shouldRetry: ({ error }) => waitBeforeRetry(error, ++retryNumber, context),
    });
  } catch (error) {
    // p-retry wraps an abort reason that is not an Error; callers get the reason they gave.
    if (signal?.aborted) throw signal.reason;
    throw error;
  }
}

/**
 * Decides on retry number `retryNumber` after `error`: `false` when it is not worth
 * one; throws `error` at once when the server asks for a longer wait than
 * `maxDelayMs`; else sleeps the wait (bounded by `maxDelayMs`) and answers `true`.
 */
async function waitBeforeRetry(error: unknown, retryNumber: number, context: RetryContext): Promise<boolean> {
  const { policy, signal, giveUp, clock } = context;
  const wait = retryWait(error, retryNumber, context);
  if (wait === undefined) return false;
  if (wait.mandatedMs > policy.maxDelayMs) throw error;
  const start = clock.now();
  // Given up: the last attempt's error stands, with the time the server asked for kept for the work that takes over.
  const givenUp = () => {
    if (wait.mandatedMs > 0 && typeof error === 'object' && error !== null) demandedUntil.set(error, start + wait.mandatedMs);
    return false;
  };
  if (giveUp?.aborted) return givenUp();
  try {
    await sleepUnlessStopped(Math.min(wait.ms, policy.maxDelayMs), context);
  } catch (reason) {
    if (signal?.aborted || !giveUp?.aborted) throw reason;
    return givenUp();
  }
  return true;
}

/**
 * Sleeps `ms`, ended by the caller's `signal` or by `giveUp` (rejecting with its
 * reason). A controller of its own joins them rather than `AbortSignal.any`, which
 * ignores a signal-like object from another realm (`checkSignal` accepts one) and
 * leaves an entry on a long-lived signal in Node 20.
 */
async function sleepUnlessStopped(ms: number, { clock, signal, giveUp }: Pick<RetryContext, 'clock' | 'signal' | 'giveUp'>): Promise<void> {
  if (giveUp === undefined) return clock.sleep(ms, signal);
  if (signal?.aborted) throw signal.reason;
  if (giveUp.aborted) throw giveUp.reason;
  const either = new AbortController();
  const stops = [signal, giveUp].map((each) => each && whenAborted(each, () => either.abort(each.reason)));
  try {
    await clock.sleep(ms, either.signal);
  } finally {
    for (const stop of stops) stop?.();
  }
}

/**
 * Until when the server demanded a wait after a failure that was not waited out
 * because its work was given up (epoch ms, by the failure): for the work that takes over.
 */
const demandedUntil = new WeakMap<object, number>();

/** Whether `failure` came with a wait the server demanded that was given up: work that takes over waits out the rest. */
export function leftAWait(failure: unknown): boolean {
  return typeof failure === 'object' && failure !== null && demandedUntil.has(failure);
}

/**
 * Waits what is left of the wait the server demanded after `failure`, if it was
 * given up (see {@link RetryContext.resumeAfter}); given up again, it rejects with
 * `failure`, which then still holds its wait.
 */
async function waitDemandedAfter(failure: unknown, context: RetryContext): Promise<void> {
  const until = typeof failure === 'object' && failure !== null ? demandedUntil.get(failure) : undefined;
  const ms = until === undefined ? 0 : until - context.clock.now();
  if (ms <= 0) return;
  try {
    await sleepUnlessStopped(ms, context);
  } catch (reason) {
    throw context.giveUp?.aborted && !context.signal?.aborted ? failure : reason;
  }
}

/**
 * How long to wait before retry number `retryNumber` (`ms`, jitter included), and
 * how much of it the server demands (`mandatedMs`: until `X-RateLimit-Reset` or
 * `Retry-After`, 0 for backoff); `undefined` when `error` is not worth a retry.
 */
export function retryWait(
  error: unknown,
  retryNumber: number,
  context: Pick<RetryContext, 'idempotent' | 'clock' | 'random'>,
): { ms: number; mandatedMs: number } | undefined {
  const random = context.random ?? Math.random;
  const backoff = { ms: exponentialBackoff(retryNumber, random), mandatedMs: 0 };
  if (error instanceof NetworkError || error instanceof TimeoutError) return context.idempotent ? backoff : undefined;
  if (!(error instanceof HttpResponseError)) return undefined;

  const retryable = error.status === 429 || (context.idempotent && [502, 503, 504].includes(error.status));
  if (!retryable) return undefined;
  const now = context.clock.now();
  const reset = Number(error.headers['x-ratelimit-reset']);
  if (error.status === 429 && error.headers['x-ratelimit-reset'] && Number.isFinite(reset)) {
    const untilReset = Math.max(0, reset * 1000 - now);
    return { ms: untilReset + Math.floor(random() * RATE_LIMIT_JITTER_MS), mandatedMs: untilReset };
  }
  const retryAfter = parseRetryAfter(error.headers['retry-after'], now);
  return retryAfter === undefined ? backoff : { ms: retryAfter, mandatedMs: retryAfter };
}

/** 500 ms, 1 s, 2 s, … with "equal jitter": each wait is between half and all of its step. */
function exponentialBackoff(retryNumber: number, random: () => number): number {
  const step = BACKOFF_BASE_MS * 2 ** (retryNumber - 1);
  return Math.round(step / 2 + (random() * step) / 2);
}
