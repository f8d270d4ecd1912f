import type { Clock } from './clock.js';
import type { RetryPolicy } from './retry-policy.js';

export { isIdempotent, type RetryOptions, type RetryPolicy, resolveRetryPolicy } from './retry-policy.js';

import { HttpResponseError, NetworkError, TimeoutError } from './errors.js';
import { headerInteger, parseRetryAfter } from './rate-limit.js';
import { checkSignal } from './signal.js';

/**
 * The retry loop's waits for work that calls share (a token request, a key-set
 * fetch): made in shared-work.ts, which only the lazily loaded code that shares
 * work loads, so that the retry loop every call goes through stays small.
 */
export interface SharedRetry {
  /** Whether the work was given up: no retry is made. */
  readonly stopped: boolean;
  /** Before the first attempt: waits out what is left of a wait an earlier, given-up work was demanded. */
  beforeFirstAttempt(context: RetryContext): Promise<void>;
  /** Sleeps `wait.ms` before a retry after `error`; answers `false` (the error stands) when the work was given up. */
  waitToRetry(wait: { readonly ms: number; readonly mandatedMs: number }, error: unknown, context: RetryContext): Promise<boolean>;
}

/** What one call of {@link withRetry} needs besides the attempt itself. */
export interface RetryContext {
  readonly policy: RetryPolicy;
  /** GET, HEAD, PUT, DELETE, OPTIONS: safe to send again after a network error or 502/503/504. */
  readonly idempotent: boolean;
  readonly clock: Clock;
  readonly signal?: AbortSignal | undefined;
  /** How the retries of work shared by calls wait (see `sharedRetry` in shared-work.ts); plain sleeps without. */
  readonly shared?: SharedRetry | undefined;
  /** A number in [0, 1); `Math.random` unless a test fixes it. */
  readonly random?: () => number;
}

const BACKOFF_BASE_MS = 500;
const RATE_LIMIT_JITTER_MS = 250;

/**
 * The one retry loop of the SDK (on p-retry). It retries:
 * - 429 for every method, waiting until `X-RateLimit-Reset` (never earlier, nor
 *   earlier than `Retry-After` when both came) plus a small jitter; without that
 *   header `Retry-After`; without both, exponential backoff;
 * - network errors, timeouts and 502/503/504 for idempotent methods only.
 *
 * A wait the server asks for that is longer than `maxDelayMs` is not slept: the
 * error (e.g. `RateLimitError`, whose `rateLimit.reset` says when to come back) is
 * thrown at once. Waits end early, with the signal's reason, when `signal` aborts.
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
  if (context.shared !== undefined) await context.shared.beforeFirstAttempt(context);
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
  if (pRetry === undefined || context.shared?.stopped) throw firstFailure;
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
  const { policy, clock, signal, shared } = context;
  const wait = retryWait(error, retryNumber, context);
  if (wait === undefined) return false;
  if (wait.mandatedMs > policy.maxDelayMs) throw error;
  const bounded = { ms: Math.min(wait.ms, policy.maxDelayMs), mandatedMs: wait.mandatedMs };
  if (shared !== undefined) return shared.waitToRetry(bounded, error, context);
  await clock.sleep(bounded.ms, signal);
  return true;
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
  const reset = headerInteger(error.headers['x-ratelimit-reset']);
  const retryAfter = parseRetryAfter(error.headers['retry-after'], now);
  if (error.status === 429 && reset !== undefined) {
    // Never earlier than either: a reset already past on this clock (it runs ahead of the server's)
    // leaves the wait to `Retry-After`, when there is one.
    const untilReset = Math.max(0, reset * 1000 - now, retryAfter ?? 0);
    return { ms: untilReset + Math.floor(random() * RATE_LIMIT_JITTER_MS), mandatedMs: untilReset };
  }
  return retryAfter === undefined ? backoff : { ms: retryAfter, mandatedMs: retryAfter };
}

/** 500 ms, 1 s, 2 s, … with "equal jitter": each wait is between half and all of its step. */
function exponentialBackoff(retryNumber: number, random: () => number): number {
  const step = BACKOFF_BASE_MS * 2 ** (retryNumber - 1);
  return Math.round(step / 2 + (random() * step) / 2);
}
