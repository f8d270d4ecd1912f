/**
 * The Redis adapters shared by the clients of many tenants (a service with a
 * `ManagementClient` per tenant, as docs/scaling.md allows): a tenant that went quiet
 * leaves no state (and no expired token) behind in the process.
 */
import { createRedisRateLimiter, createRedisTokenCache, type RateLimiter, type TokenCache } from 'idplatform/redis';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createFakeClock } from '../helpers/clock.js';

/** Records every Map made while `make` runs (the adapters' private state), so that their sizes can be read. */
function withMapsOf<T>(make: () => T): { value: T; entries: () => number } {
  const maps: Map<unknown, unknown>[] = [];
  const Original = globalThis.Map;
  globalThis.Map = class extends Original<unknown, unknown> {
    constructor(entries?: Iterable<readonly [unknown, unknown]> | null) {
      super(entries);
      maps.push(this);
    }
  } as MapConstructor;
  try {
    return { value: make(), entries: () => maps.reduce((sum, map) => sum + map.size, 0) };
  } finally {
    globalThis.Map = Original;
  }
}

/** A connected node-redis-like client that stores nothing: GET misses, SET succeeds, scripts answer 0. */
const redis = {
  isReady: true,
  sendCommand: async (args: string[]) => (args[0] === 'GET' ? null : args[0] === 'EVAL' ? 0 : 'OK'),
};

const TENANTS = 500;
const START = Date.UTC(2030, 0, 1);

afterEach(() => vi.useRealTimers());

describe('Redis adapters shared by the clients of many tenants', () => {
  it('the token cache keeps no token of a tenant past its life: they are swept when a token is stored a minute later', async () => {
    vi.useFakeTimers({ now: START, toFake: ['Date'] });
    const cache = withMapsOf((): TokenCache => createRedisTokenCache(redis));
    for (let tenant = 0; tenant < TENANTS; tenant++) await cache.value.set(`tenant-${tenant}`, `token-${tenant}`, 30_000);
    expect(cache.entries()).toBeGreaterThanOrEqual(TENANTS);
    vi.setSystemTime(START + 61_000); // every token's time is up
    await cache.value.set('tenant-new', 'token-new', 30_000);
    expect(cache.entries()).toBeLessThan(10);
    expect(await cache.value.get('tenant-new')).toBe(undefined); // Redis answers (a miss here): the copy is only for outages
  });

  it('the rate limiter keeps no state of its own per tenant: the buckets live in Redis only', async () => {
    const clock = createFakeClock(START);
    const limiter = withMapsOf((): RateLimiter => createRedisRateLimiter(redis, { clock }));
    for (let tenant = 0; tenant < TENANTS; tenant++) {
      await limiter.value.update(`tenant-${tenant}`, { limit: 50, remaining: 0, reset: new Date(START + 10_000) });
      await limiter.value.wait(`tenant-${tenant}`, undefined, { maxDelayMs: 60_000 });
    }
    expect(limiter.entries()).toBe(0);
  });
});
