import { type Clock, systemClock } from '../core/clock.js';
import {
  type BucketState,
  DEFAULT_WAIT_OPTIONS,
  MAX_WAIT_ROUNDS,
  MAYBE_SENT,
  NEW_WINDOW_HOLD_MS,
  NEW_WINDOW_POLL_MS,
  type RateLimiter,
  releaseFromBucket,
  takeFromBucketOf,
  updateBucket,
} from '../core/rate-limiter.js';
import type { RedisClientLike } from './client.js';
import { checkedCommandTimeout, DEFAULT_COMMAND_TIMEOUT_MS, redisOrLocal } from './fallback.js';
import type { RedisAdapterOptions } from './options.js';
import { RELEASE_FROM_BUCKET, TAKE_FROM_BUCKET, UPDATE_BUCKET } from './scripts.js';

/** How often, at most, the limiter drops its local copies of buckets, and how long past their reset they are kept. */
const LOCAL_BUCKET_SWEEP_MS = 60_000;

/** Options of {@link createRedisRateLimiter}. */
export interface RedisRateLimiterOptions extends RedisAdapterOptions {
  /** The clock this process sleeps with; for tests. Default: the system clock. */
  readonly clock?: Clock | undefined;
}

/**
 * A `rateLimiter` on Redis: one bucket state per tenant API, shared by every
 * process. Each response's `X-RateLimit-*` updates it (one Lua script, atomic);
 * each call takes a slot (another script) or, while the bucket is known to be
 * empty, sleeps until the reset the server reported, then tries again. Waits
 * are abortable and bounded by the client's `retry.maxDelayMs`: a longer one is
 * not slept, the call is sent, and the server's 429 throws `RateLimitError`.
 *
 * The state lives under `{prefix}idplatform:ratelimit:{baseUrl}` (a hash that
 * expires a minute after the reset). When Redis is down, slow or not connected,
 * the limiter paces this process alone, from memory: calls never fail because
 * of it.
 *
 * ```ts
 * const redis = await createClient({ url }).connect();   // or: new Redis(url) (ioredis)
 * const management = new ManagementClient({ domain, clientId, clientSecret, rateLimiter: createRedisRateLimiter(redis) });
 * ```
 */
export function createRedisRateLimiter(client: RedisClientLike, options: RedisRateLimiterOptions = {}): RateLimiter {
  const { prefix = '', commandTimeoutMs = DEFAULT_COMMAND_TIMEOUT_MS, clock = systemClock } = options ?? {}; // null: none
  const run = redisOrLocal(client, checkedCommandTimeout(commandTimeoutMs), clock);
  const local = new Map<string, BucketState>();
  let sweptAt = Number.NEGATIVE_INFINITY;
  /**
   * Drops, at most once a minute, the buckets Redis itself has dropped by now (a minute
   * past their reset, see UPDATE_BUCKET) with no call in flight: a limiter shared by the
   * clients of many tenants keeps no state of tenants gone quiet.
   */
  const sweepLocal = (now: number) => {
    if (now - sweptAt < LOCAL_BUCKET_SWEEP_MS) return;
    sweptAt = now;
    for (const [key, bucket] of local) if (bucket.pending === 0 && now - bucket.resetMs > LOCAL_BUCKET_SWEEP_MS) local.delete(key);
  };
  /**
   * Per key, the slots this process took from memory (Redis could not answer) and that
   * are not answered yet: their answers must not give Redis back a slot it never
   * handed out, nor lower its count of calls in flight.
   */
  const takenLocally = new Map<string, number>();
  /** Whether the next answer under `key` is of a slot taken from memory (and counts it off). */
  const answersLocalSlot = (key: string): boolean => {
    const count = takenLocally.get(key) ?? 0;
    if (count === 0) return false;
    if (count === 1) takenLocally.delete(key);
    else takenLocally.set(key, count - 1);
    return true;
  };
  return {
    async wait(key, signal, { maxDelayMs } = DEFAULT_WAIT_OPTIONS) {
      // Bounded like the in-memory limiter: after maxDelayMs in all (or MAX_WAIT_ROUNDS waits) the call is sent.
      let waited = 0;
      for (let round = 0; round < MAX_WAIT_ROUNDS; round++) {
        if (signal?.aborted) throw signal.reason;
        let fromMemory = false;
        const delayMs = await run(
          ['EVAL', TAKE_FROM_BUCKET, 1, `${prefix}${key}`, NEW_WINDOW_POLL_MS, NEW_WINDOW_HOLD_MS],
          (reply) => Number(reply),
          () => {
            fromMemory = true;
            return takeFromBucketOf(local, key, clock.now());
          },
        );
        if (!(delayMs > 0)) {
          if (fromMemory) takenLocally.set(key, (takenLocally.get(key) ?? 0) + 1);
          return true; // a slot is taken
        }
        if (waited + delayMs > maxDelayMs) return false;
        await clock.sleep(delayMs, signal);
        waited += delayMs;
      }
      return false;
    },
    // Answers are sent even while the adapter answers from memory after a failure (`cleanup`): dropped,
    // Redis would count their calls in flight until the key expires. Nobody awaits them (the call has its answer).
    async update(key, rateLimit) {
      sweepLocal(clock.now());
      local.set(key, updateBucket(local.get(key), rateLimit));
      const { limit, remaining, reset } = rateLimit;
      const counted = answersLocalSlot(key) ? 0 : 1;
      await run(
        ['EVAL', UPDATE_BUCKET, 1, `${prefix}${key}`, limit, remaining, reset.getTime(), counted],
        () => undefined,
        () => undefined,
        true,
      );
    },
    async release(key, options = MAYBE_SENT) {
      releaseFromBucket(local.get(key), options);
      if (answersLocalSlot(key)) return; // a slot Redis never handed out: nothing to give back there
      await run(
        ['EVAL', RELEASE_FROM_BUCKET, 1, `${prefix}${key}`, options.sent ? 1 : 0],
        () => undefined,
        () => undefined,
        true,
      );
    },
  };
}
