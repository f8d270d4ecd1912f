/** The rate-limit state the server reported in `X-RateLimit-Limit`, `-Remaining` and `-Reset`. */
export interface RateLimit {
  /** Requests allowed in the window. */
  readonly limit: number;
  /** Requests left in the window. */
  readonly remaining: number;
  /** When the bucket refills (the header holds UTC epoch seconds). */
  readonly reset: Date;
}

/**
 * Reads the platform's rate-limit headers: `X-RateLimit-Limit`, `-Remaining` and `-Reset`.
 * Returns `undefined` when any of the three is missing or not a number, rather than a half-filled value.
 */
export function parseRateLimit(headers: Headers): RateLimit | undefined {
  const limit = headerInteger(headers.get('x-ratelimit-limit'));
  const remaining = headerInteger(headers.get('x-ratelimit-remaining'));
  const reset = toResetDate(headers.get('x-ratelimit-reset'));
  if (limit === undefined || remaining === undefined || reset === undefined) return undefined;
  return { limit, remaining, reset };
}

/**
 * A header's whole number (digits only, as the platform sends them): `Number()` would
 * also read `0x10`, `1e1` or `-5`, which no server means as a count or an epoch.
 */
export function headerInteger(value: string | null | undefined): number | undefined {
  if (value === null || value === undefined) return undefined;
  const text = value.trim();
  return /^\d{1,16}$/.test(text) ? Number(text) : undefined;
}

/**
 * `X-RateLimit-Reset` (UTC epoch seconds) as a date; `undefined` when it is not a
 * number, or too far out for a date (beyond ±275 760 years): no reset, no NaN waits.
 */
function toResetDate(value: string | null | undefined): Date | undefined {
  const seconds = headerInteger(value);
  const reset = seconds === undefined ? undefined : new Date(seconds * 1000);
  return reset === undefined || Number.isNaN(reset.getTime()) ? undefined : reset;
}

/**
 * The rate-limit state of a 429 that came without all three `X-RateLimit-*` headers.
 * The bucket counts as empty: `remaining` is 0, and `limit` 0 stands for unknown.
 * It refills at `X-RateLimit-Reset` when that header came alone (a proxy may drop the others).
 * It refills at `Retry-After` (delay-seconds or an HTTP date) when that is later or came alone, as the retry loop waits.
 * Without either, it refills `now`.
 */
export function rateLimitOfTooManyRequests(headers: Readonly<Record<string, string>>, now: number): RateLimit {
  const reset = toResetDate(headers['x-ratelimit-reset']);
  const retryAfter = parseRetryAfter(headers['retry-after'], now);
  // A delay beyond what a date can hold (a server's nonsense) is no reset: no Invalid Date.
  const afterRetry = retryAfter === undefined || Number.isNaN(new Date(now + retryAfter).getTime()) ? undefined : now + retryAfter;
  if (reset !== undefined && (afterRetry === undefined || reset.getTime() >= afterRetry)) return { limit: 0, remaining: 0, reset };
  return { limit: 0, remaining: 0, reset: new Date(afterRetry ?? now) };
}

/** The three forms of an HTTP date (RFC 9110 §5.6.7): IMF-fixdate, RFC 850, asctime (whose time is UTC, unnamed). */
const IMF_FIXDATE = /^[A-Z][a-z]{2}, \d{2} [A-Z][a-z]{2} \d{4} \d{2}:\d{2}:\d{2} GMT$/;
const RFC_850_DATE = /^[A-Z][a-z]{5,8}, \d{2}-[A-Z][a-z]{2}-\d{2} \d{2}:\d{2}:\d{2} GMT$/;
const ASCTIME_DATE = /^[A-Z][a-z]{2} [A-Z][a-z]{2} [ \d]\d \d{2}:\d{2}:\d{2} \d{4}$/;

/**
 * `Retry-After` as delay-seconds or an HTTP date (RFC 9110 §10.2.3), in milliseconds
 * from `now`; `undefined` when absent or unreadable. Only those forms are read: the
 * runtime's lenient date parser would read `1.5`, `-1` or two joined headers
 * (`5, 10`) as a date long past, that is "retry now".
 */
export function parseRetryAfter(value: string | undefined, now: number): number | undefined {
  const text = value?.trim();
  if (text === undefined || text === '') return undefined;
  if (/^\d+$/.test(text)) return Number(text) * 1000;
  const date =
    IMF_FIXDATE.test(text) || RFC_850_DATE.test(text) ? Date.parse(text) : ASCTIME_DATE.test(text) ? Date.parse(`${text} GMT`) : Number.NaN;
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}
