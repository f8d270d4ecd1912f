import { type Clock, systemClock } from '../core/clock.js';
import { delayUntilReset, type RateLimiter, type RateLimiterWaitOptions } from '../core/pacing.js';
import type { RedisClientLike } from './client.js';
import { checkedCommandTimeout, DEFAULT_COMMAND_TIMEOUT_MS, redisOrLocal } from './fallback.js';
import type { RedisAdapterOptions } from './options.js';

/** How long a bucket's state is kept past its reset: enough for a process whose clock lags a little to still see it. */
const KEPT_PAST_RESET_MS = 1_000;

/** Options of {@link createRedisRateLimiter}. */
export interface RedisRateLimiterOptions extends RedisAdapterOptions {
  /** The clock this process reads and sleeps with; for tests. Default: the system clock. */
  readonly clock?: Clock | undefined;
}

/**
 * A `rateLimiter` on Redis: every process paces itself on the last rate limit any of them was told.
 * Each response's `X-RateLimit-*` is stored under `{prefix}idplatform:ratelimit:{baseUrl}`.
 * That is one `SET … PX`, kept until a second past the reset; each call reads it with one `GET`.
 * While the bucket is known to be empty, the call sleeps until the reset the server reported.
 * A wait longer than the call's `retry.maxDelayMs` is not slept: the call is sent, and the server's 429 throws `RateLimitError`.
 * Waits end with the signal's reason when it aborts.
 * When Redis is down, slow or not connected, calls go unpaced: they never fail because of it.
 *
 * ```ts
 * const redis = await createClient({ url }).connect();   // or: new Redis(url) (ioredis)
 * const management = new ManagementClient({ domain, clientId, clientSecret, rateLimiter: createRedisRateLimiter(redis) });
 * ```
 */
export function createRedisRateLimiter(client: RedisClientLike, options: RedisRateLimiterOptions = {}): RateLimiter {
  const { prefix = '', commandTimeoutMs = DEFAULT_COMMAND_TIMEOUT_MS, clock = systemClock } = options ?? {}; // null: none
  const run = redisOrLocal(client, checkedCommandTimeout(commandTimeoutMs), clock);
  return {
    async wait(key, signal, options) {
      const delayMs = await run(
        ['GET', `${prefix}${key}`],
        (reply) => delayOf(reply, clock.now(), options),
        () => 0, // Redis can't answer: the call goes unpaced
      );
      if (delayMs > 0) await clock.sleep(delayMs, signal);
    },
    async update(key, { remaining, reset }) {
      const resetMs = reset.getTime();
      const ttlMs = Math.max(1, Math.ceil(resetMs - clock.now() + KEPT_PAST_RESET_MS));
      await run(
        ['SET', `${prefix}${key}`, `${remaining}:${resetMs}`, 'PX', ttlMs],
        () => undefined,
        () => undefined,
      );
    },
  };
}

/** The wait a stored `remaining:reset` asks for ({@link delayUntilReset}); nothing stored, or anything else, none. */
function delayOf(reply: unknown, nowMs: number, options: RateLimiterWaitOptions | undefined): number {
  const [remaining, resetMs] = typeof reply === 'string' ? reply.split(':').map(Number) : [];
  return remaining === undefined || resetMs === undefined ? 0 : delayUntilReset(remaining, resetMs, nowMs, options);
}
