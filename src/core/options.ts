import { type Clock, systemClock } from './clock.js';
import { ConfigurationError } from './errors.js';
import { type RetryOptions, type RetryPolicy, resolveRetryPolicy } from './retry.js';

/** The longest timeout timers can hold (2^31 − 1 ms, about 24.8 days). */
export const MAX_TIMEOUT_MS = 2 ** 31 - 1;

/** Whether `value` is a usable timeout: more than 0 and at most {@link MAX_TIMEOUT_MS} milliseconds. */
export function isValidTimeout(value: unknown): value is number {
  return typeof value === 'number' && value > 0 && value <= MAX_TIMEOUT_MS;
}

/** The options both clients share, with their defaults applied. */
export interface CommonSettings {
  readonly retry: RetryPolicy;
  readonly timeoutMs: number;
  readonly clock: Clock;
}

/** Checks and completes `retry`, `timeoutMs` (default 30 000) and `clock`; throws `ConfigurationError` naming the problem. */
export function resolveCommonOptions(options: {
  retry?: RetryOptions | undefined;
  timeoutMs?: number | undefined;
  clock?: Clock | undefined;
}): CommonSettings {
  const timeoutMs = options.timeoutMs ?? 30_000;
  if (!isValidTimeout(timeoutMs))
    throw new ConfigurationError(`\`timeoutMs\` must be a number of milliseconds from 1 to ${MAX_TIMEOUT_MS}`);
  let retry: RetryPolicy;
  try {
    retry = resolveRetryPolicy(options.retry);
  } catch (error) {
    throw new ConfigurationError((error as Error).message);
  }
  return { retry, timeoutMs, clock: options.clock ?? systemClock };
}

/** Whether the code runs in a browser (a `document` exists). */
export function isBrowser(): boolean {
  return typeof (globalThis as { document?: unknown }).document !== 'undefined';
}
