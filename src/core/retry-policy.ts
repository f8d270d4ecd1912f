/** The retry rules a client is configured with, apart from the retry loop itself (so that checking options loads no p-retry). */
import { MAX_TIMER_MS } from './clock.js';
import { ownProperties } from './own-properties.js';

/** How failed requests are retried. `false` turns retries off. */
export type RetryOptions =
  | {
      /** Retries after the first attempt. Default 3. */
      readonly maxRetries?: number | undefined;
      /** The longest wait the SDK will sleep; a server asking for longer gets its error thrown at once. Default 60 000. */
      readonly maxDelayMs?: number | undefined;
    }
  | false;

/** {@link RetryOptions} with defaults applied. */
export interface RetryPolicy {
  readonly maxRetries: number;
  readonly maxDelayMs: number;
}

const IDEMPOTENT_METHODS: ReadonlySet<string> = new Set(['GET', 'HEAD', 'PUT', 'DELETE', 'OPTIONS']);

/** Whether a request with this method may be sent again after a network error or a 502/503/504 (RFC 9110 §9.2.2). */
export function isIdempotent(method: string): boolean {
  return IDEMPOTENT_METHODS.has(method.toUpperCase());
}

/** Applies the defaults `{ maxRetries: 3, maxDelayMs: 60_000 }`; `false` means no retries; anything but an object or `false` throws `RangeError`. */
export function resolveRetryPolicy(given: RetryOptions | undefined): RetryPolicy {
  if (given === false) return { maxRetries: 0, maxDelayMs: 0 };
  // `retry: 0` (or `true`) from plain JavaScript must not quietly mean the defaults, three retries.
  if (given !== undefined && (typeof given !== 'object' || given === null || Array.isArray(given))) {
    throw new RangeError('retry must be { maxRetries?, maxDelayMs? } or false');
  }
  const options = ownProperties(given); // never a limit from a polluted Object.prototype
  const maxRetries = options?.maxRetries ?? 3;
  const maxDelayMs = options?.maxDelayMs ?? 60_000;
  if (!Number.isInteger(maxRetries) || maxRetries < 0) throw new RangeError('retry.maxRetries must be an integer >= 0');
  // Above 2^31 − 1 ms (or Infinity) a timer fires after 1 ms: a 429 with a reset weeks away would be retried at once.
  if (!(maxDelayMs >= 0 && maxDelayMs <= MAX_TIMER_MS)) {
    throw new RangeError(`retry.maxDelayMs must be a number of milliseconds from 0 to ${MAX_TIMER_MS}`);
  }
  return { maxRetries, maxDelayMs };
}
