import type { Clock } from '../clock.js';
import { HttpResponseError, NetworkError, RateLimitError, TimeoutError } from '../errors.js';
import type { RetryPolicy } from '../options.js';
import { headerInteger, parseRetryAfter } from './rate-limit.js';

/** What one call of {@link withRetry} needs besides the attempt itself. */
export interface RetryContext {
  readonly policy: RetryPolicy;
  /** Safe to send again after a network error or 502/503/504 (GET, PUT, DELETE). */
  readonly idempotent: boolean;
  readonly clock: Clock;
  readonly signal?: AbortSignal | undefined;
  /** A number in [0, 1); `Math.random` unless a test fixes it. */
  readonly random?: () => number;
}

const BACKOFF_BASE_MS = 500;
const RATE_LIMIT_JITTER_MS = 250;

/**
 * The SDK's retry loop: 429 for every method, waiting until `X-RateLimit-Reset` (not before `Retry-After`) plus jitter, else `Retry-After`,
 * else exponential backoff; network errors, timeouts and 502/503/504 for idempotent methods only. A server-asked wait over `maxDelayMs`
 * throws at once. p-retry loads only after a first failure worth retrying, so most calls, and browser bundles, carry none.
 */
export async function withRetry<T>(attempt: () => Promise<T>, context: RetryContext): Promise<T> {
  const { policy, signal } = context;
  let first: unknown;
  try {
    return await attempt();
  } catch (error) {
    if (signal?.aborted) throw signal.reason;
    if (policy.maxRetries === 0) throw explained(error, 'retries are off', context.clock);
    if (!(await waitBeforeRetry(error, 1, context))) throw error;
    first = error;
  }
  // A chunk that cannot load (a browser gone offline) leaves the first failure as the call's error.
  const pRetry = await import('p-retry').then(
    (module) => module.default,
    () => undefined,
  );
  if (pRetry === undefined) throw first;
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
    throw explained(error, `still limited after ${policy.maxRetries} ${policy.maxRetries === 1 ? 'retry' : 'retries'}`, context.clock);
  }
}

/** `false` when `error` is not worth a retry; throws when the server asks for a wait over `maxDelayMs`; else sleeps it, then `true`. */
async function waitBeforeRetry(error: unknown, retryNumber: number, context: RetryContext): Promise<boolean> {
  const { policy, clock, signal } = context;
  const wait = retryWait(error, retryNumber, context);
  if (wait === undefined) return false;
  if (wait.mandatedMs > policy.maxDelayMs) {
    throw explained(error, `not retried: the wait is longer than retry.maxDelayMs (${policy.maxDelayMs} ms)`, clock);
  }
  await clock.sleep(Math.min(wait.ms, policy.maxDelayMs), signal);
  return true;
}

/** A final `RateLimitError`, its message saying when the limit resets and `why` the SDK gave up; any other error as it is. */
function explained(error: unknown, why: string, clock: Clock): unknown {
  if (!(error instanceof RateLimitError)) return error;
  const { reset } = error.rateLimit;
  const inSeconds = Math.max(0, Math.ceil((reset.getTime() - clock.now()) / 1000));
  return new RateLimitError({
    ...error,
    message: `${error.message} (the limit resets at ${reset.toISOString()}, in ${inSeconds} s; ${why})`,
  });
}

/** The wait before retry `retryNumber` (`ms`, with jitter) and the part the server demands (`mandatedMs`); `undefined` if none. */
export function retryWait(
  error: unknown,
  retryNumber: number,
  context: Pick<RetryContext, 'idempotent' | 'clock' | 'random'>,
): { ms: number; mandatedMs: number } | undefined {
  const random = context.random ?? Math.random;
  const step = BACKOFF_BASE_MS * 2 ** (retryNumber - 1);
  // "Equal jitter": each backoff is between half and all of its step.
  const backoff = { ms: Math.round(step / 2 + (random() * step) / 2), mandatedMs: 0 };
  if (error instanceof NetworkError || error instanceof TimeoutError) return context.idempotent ? backoff : undefined;
  if (!(error instanceof HttpResponseError)) return undefined;
  if (error.status !== 429 && !(context.idempotent && [502, 503, 504].includes(error.status))) return undefined;
  const now = context.clock.now();
  const reset = headerInteger(error.headers['x-ratelimit-reset']);
  const retryAfter = parseRetryAfter(error.headers['retry-after'], now);
  if (error.status === 429 && reset !== undefined) {
    // Never earlier than either: a reset already past on this clock leaves the wait to `Retry-After`.
    const untilReset = Math.max(0, reset * 1000 - now, retryAfter ?? 0);
    return { ms: untilReset + Math.floor(random() * RATE_LIMIT_JITTER_MS), mandatedMs: untilReset };
  }
  return retryAfter === undefined ? backoff : { ms: retryAfter, mandatedMs: retryAfter };
}
