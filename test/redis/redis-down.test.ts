import { ManagementClient } from 'idplatform/management';
import { ConfigurationError, createRedisRateLimiter, createRedisTokenCache } from 'idplatform/redis';
import { createTenantEmulator } from 'idplatform/testing';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { REDIS_RETRY_AFTER_MS } from '../../src/redis/fallback.js';
import { createFakeClock } from '../helpers/clock.js';
import { type ConnectedRedisClient, REDIS_CLIENT_KINDS, redisClientKinds } from '../helpers/redis-clients.js';
import { startRedisServer } from '../helpers/redis-server.js';

const KEY = 'idplatform:ratelimit:https://tenant.test/api/v2';

describe.each(REDIS_CLIENT_KINDS)('Redis down, with a %s client: calls go on with per-process behaviour', (kind) => {
  let redis: ConnectedRedisClient;
  beforeEach(async () => {
    const server = await startRedisServer();
    redis = await redisClientKinds[kind](server.url);
    await redis.command('PING');
    await server.stop();
  });
  afterEach(() => redis.close());

  it('the token cache answers from this process’s memory, and grants every lock', async () => {
    const cache = createRedisTokenCache(redis.client);
    expect(await cache.get('k')).toBeUndefined();
    await cache.set('k', 'token-1', 60_000);
    expect(await cache.get('k')).toBe('token-1');
    expect(await cache.lock?.('k', 5_000)).toBe(true);
  });

  it('the rate limiter lets calls go unpaced, and its updates do not fail', async () => {
    const clock = createFakeClock(Date.UTC(2030, 0, 1));
    const limiter = createRedisRateLimiter(redis.client, { clock });
    await expect(limiter.update(KEY, { limit: 50, remaining: 0, reset: new Date(clock.now() + 2_000) })).resolves.toBeUndefined();
    await expect(limiter.wait(KEY, undefined, { maxDelayMs: 60_000 })).resolves.toBeUndefined();
    expect(clock.sleeps).toEqual([]);
  });

  it('a ManagementClient with both adapters completes its calls, with one token per process', async () => {
    const emulator = createTenantEmulator();
    const { url, close } = await emulator.listen();
    try {
      const processes = Array.from(
        { length: 3 },
        () =>
          new ManagementClient({
            baseUrl: `${url}/api/v2`,
            ...emulator.credentials,
            tokenCache: createRedisTokenCache(redis.client),
            rateLimiter: createRedisRateLimiter(redis.client),
          }),
      );
      const results = await Promise.all(processes.flatMap((client) => [1, 2].map(() => client.guardian.phone.getMessageTypes())));
      expect(results).toHaveLength(6);
      expect(emulator.requests.filter((request) => request.path.startsWith('/oauth/token'))).toHaveLength(3);
    } finally {
      await close();
    }
  });
});

describe('A Redis that does not answer', () => {
  const silent = { sendCommand: () => new Promise<unknown>(() => {}) };

  it('is given up on after commandTimeoutMs, and the adapters answer locally', async () => {
    const cache = createRedisTokenCache(silent, { commandTimeoutMs: 20 });
    await cache.set('k', 'token-1', 60_000);
    expect(await cache.get('k')).toBe('token-1');
    expect(await cache.lock?.('k', 5_000)).toBe(true);
    const limiter = createRedisRateLimiter(silent, { commandTimeoutMs: 20 });
    await limiter.update(KEY, { limit: 50, remaining: 0, reset: new Date(Date.now() + 60_000) });
    await expect(limiter.wait(KEY, undefined, { maxDelayMs: 60_000 })).resolves.toBeUndefined(); // unpaced
  });

  it('is not asked again for REDIS_RETRY_AFTER_MS after a command timed out: a cold call does not wait commandTimeoutMs per command', async () => {
    vi.useFakeTimers();
    try {
      let sent = 0;
      const stalled = {
        sendCommand: () => {
          sent++;
          return new Promise<unknown>(() => {});
        },
      };
      const cache = createRedisTokenCache(stalled, { commandTimeoutMs: 1_000 });
      const first = cache.get('k');
      await vi.advanceTimersByTimeAsync(1_000);
      expect(await first).toBeUndefined();
      expect(sent).toBe(1);
      // The rest of a cold call (lock, look again, store) answers locally at once; only the lock's
      // release is still sent (cleanup, in the background: the call does not wait for it).
      expect(await cache.lock?.('k', 5_000)).toBe(true);
      expect(await cache.get('k')).toBeUndefined();
      await cache.set('k', 'token-1', 60_000);
      expect(await cache.get('k')).toBe('token-1');
      expect(sent).toBe(2);
      // The release timed out too (after commandTimeoutMs): Redis is asked again REDIS_RETRY_AFTER_MS after that.
      await vi.advanceTimersByTimeAsync(1_000 + REDIS_RETRY_AFTER_MS - 1);
      void cache.get('k');
      expect(sent).toBe(2);
      await vi.advanceTimersByTimeAsync(1);
      void cache.get('k');
      expect(sent).toBe(3);
    } finally {
      vi.useRealTimers();
    }
  });

  it('is refused when it is neither a node-redis nor an ioredis client', () => {
    expect(() => createRedisTokenCache({} as never)).toThrow(ConfigurationError);
    // Options of null are none, as for the clients' methods.
    const nodeRedisLike = { sendCommand: async () => null };
    expect(() => createRedisTokenCache(nodeRedisLike, null as never)).not.toThrow();
    expect(() => createRedisRateLimiter(nodeRedisLike, null as never)).not.toThrow();
  });
});
