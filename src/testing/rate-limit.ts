/** The emulator's rate limiting: fixed-window buckets, and the platform's `X-RateLimit-*` headers. */

/** The size of a rate-limit bucket: `limit` requests per `windowMs` milliseconds. */
export interface RateLimitOptions {
  /** Requests allowed per window; default 1000. */
  readonly limit?: number;
  /** Length of a window in milliseconds; default 60 000. */
  readonly windowMs?: number;
}

/** The default bucket: generous enough that tests and examples never hit it by accident. */
export const DEFAULT_RATE_LIMIT = { limit: 1000, windowMs: 60_000 } as const;

/** A bucket's state as the headers report it. */
export interface RateLimitSnapshot {
  readonly limit: number;
  readonly remaining: number;
  /** When the bucket refills, in milliseconds since the epoch. */
  readonly resetAtMs: number;
}

/**
 * A fixed-window bucket: the window opens with the first request, holds `limit`
 * requests, and refills completely `windowMs` later. Time comes from `now`, so an
 * injected clock drives it.
 */
export class RateLimitBucket {
  readonly #limit: number;
  readonly #windowMs: number;
  readonly #now: () => number;
  #windowStart: number | undefined;
  #used = 0;

  constructor(options: RateLimitOptions, now: () => number) {
    const { limit = DEFAULT_RATE_LIMIT.limit, windowMs = DEFAULT_RATE_LIMIT.windowMs } = options;
    if (!Number.isSafeInteger(limit) || limit < 1) throw new RangeError('rateLimit.limit must be a positive integer');
    if (!Number.isFinite(windowMs) || windowMs <= 0) throw new RangeError('rateLimit.windowMs must be a positive number');
    this.#limit = limit;
    this.#windowMs = windowMs;
    this.#now = now;
  }

  /**
   * Uses one request of the window, and returns the state to report with its answer.
   * The state is taken as the request is let through, so concurrent requests each report their own count.
   * Returns `undefined` when none is left: answer 429.
   */
  take(): RateLimitSnapshot | undefined {
    this.#roll();
    if (this.#used >= this.#limit) return undefined;
    this.#used++;
    return this.#snapshot();
  }

  /** The state to report now, without using a request. */
  peek(): RateLimitSnapshot {
    this.#roll();
    return this.#snapshot();
  }

  #snapshot(): RateLimitSnapshot {
    return { limit: this.#limit, remaining: this.#limit - this.#used, resetAtMs: (this.#windowStart ?? 0) + this.#windowMs };
  }

  /** Refills the bucket and closes the window. */
  reset(): void {
    this.#windowStart = undefined;
    this.#used = 0;
  }

  #roll(): void {
    const now = this.#now();
    if (this.#windowStart === undefined || now >= this.#windowStart + this.#windowMs) {
      this.#windowStart = now;
      this.#used = 0;
    }
  }
}

/**
 * `X-RateLimit-Limit`, `X-RateLimit-Remaining` and `X-RateLimit-Reset` (UTC epoch
 * seconds, rounded up, so a client that waits until then never comes back early).
 */
export function rateLimitHeaders(snapshot: RateLimitSnapshot): Record<string, string> {
  return {
    'x-ratelimit-limit': String(snapshot.limit),
    'x-ratelimit-remaining': String(snapshot.remaining),
    'x-ratelimit-reset': String(Math.ceil(snapshot.resetAtMs / 1000)),
  };
}

/** `Retry-After` in whole seconds (at least 1) until `resetAtMs`. */
export function retryAfterSeconds(resetAtMs: number, now: number): number {
  return Math.max(1, Math.ceil((resetAtMs - now) / 1000));
}

/** The platform's 429 message for both APIs, which points at the rate-limit headers. */
export const TOO_MANY_REQUESTS_MESSAGE =
  'Too many requests. Check the X-RateLimit-Limit, X-RateLimit-Remaining and X-RateLimit-Reset headers.';
