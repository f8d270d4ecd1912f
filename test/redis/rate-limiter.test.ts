import { createRedisRateLimiter } from 'idplatform/redis';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { REDIS_RETRY_AFTER_MS } from '../../src/redis/fallback.js';
import { createFakeClock } from '../helpers/clock.js';
import { type ConnectedRedisClient, REDIS_CLIENT_KINDS, redisClientKinds } from '../helpers/redis-clients.js';
import { type RedisServer, startRedisServer } from '../helpers/redis-server.js';

let server: RedisServer;
beforeAll(async () => {
  server = await startRedisServer();
});
afterAll(() => server.stop());

const KEY = 'idplatform:ratelimit:https://tenant.test/api/v2';
const WAIT = { maxDelayMs: 60_000 };
/** The limiters read and sleep on a fake clock from here: nothing really waits, and the stored resets are in the future. */
const START = Date.now() + 3_600_000;
const rateLimit = (remaining: number, resetMs: number) => ({ limit: 50, remaining, reset: new Date(resetMs) });

describe.each(REDIS_CLIENT_KINDS)('createRedisRateLimiter with a %s client', (kind) => {
  let redis: ConnectedRedisClient;
  beforeEach(async () => {
    redis = await redisClientKinds[kind](server.url);
    await redis.command('FLUSHALL');
  });
  afterEach(() => redis.close());

  it('stores a response’s rate limit under prefix + key with one SET, kept until a little after the reset', async () => {
    const sent: string[][] = [];
    const client = {
      sendCommand: (args: string[]) => {
        sent.push(args);
        return redis.command(...args);
      },
    };
    const limiter = createRedisRateLimiter(client, { prefix: 'svc:', clock: createFakeClock(START) });
    await limiter.update(KEY, rateLimit(7, START + 30_000));
    expect(sent).toEqual([['SET', `svc:${KEY}`, `7:${START + 30_000}`, 'PX', '31000']]);
    expect(await redis.command('GET', `svc:${KEY}`)).toBe(`7:${START + 30_000}`);
    const pttl = Number(await redis.command('PTTL', `svc:${KEY}`));
    expect(pttl).toBeGreaterThan(30_000);
    expect(pttl).toBeLessThanOrEqual(31_000);
  });

  it('shares the bucket between processes: once one is told it is empty, the others’ calls sleep until the reset', async () => {
    const clock = createFakeClock(START);
    const [one, two] = [createRedisRateLimiter(redis.client, { clock }), createRedisRateLimiter(redis.client, { clock })];
    await one.update(KEY, rateLimit(0, START + 30_000));
    await two.wait(KEY, undefined, WAIT);
    expect(clock.sleeps).toEqual([30_000]);
  });

  it('lets calls go at once while the bucket has calls left, counting none in flight', async () => {
    const clock = createFakeClock(START);
    const limiter = createRedisRateLimiter(redis.client, { clock });
    await limiter.wait(KEY, undefined, WAIT); // nothing known yet
    await limiter.update(KEY, rateLimit(1, START + 30_000));
    for (let call = 0; call < 5; call++) await limiter.wait(KEY, undefined, WAIT);
    expect(clock.sleeps).toEqual([]);
  });

  it('follows the last answer: one with calls left ends the wait for the next calls', async () => {
    const clock = createFakeClock(START);
    const limiter = createRedisRateLimiter(redis.client, { clock });
    await limiter.update(KEY, rateLimit(0, START + 30_000));
    await limiter.update(KEY, rateLimit(3, START + 30_000));
    await limiter.wait(KEY, undefined, WAIT);
    expect(clock.sleeps).toEqual([]);
  });

  it('does not wait once the reset has passed, nor for one later than maxDelayMs (the call goes; the server’s 429 decides)', async () => {
    const clock = createFakeClock(START);
    const limiter = createRedisRateLimiter(redis.client, { clock });
    await limiter.update(KEY, rateLimit(0, START + 30_000));
    await limiter.wait(KEY, undefined, { maxDelayMs: 29_999 });
    expect(clock.sleeps).toEqual([]);
    clock.advance(30_000);
    await limiter.wait(KEY, undefined, WAIT);
    expect(clock.sleeps).toEqual([]);
  });

  it('stops waiting with the signal’s reason when the caller aborts', async () => {
    const clock = createFakeClock(START, { holdSleeps: true });
    const limiter = createRedisRateLimiter(redis.client, { clock });
    await limiter.update(KEY, rateLimit(0, START + 30_000));
    const controller = new AbortController();
    const asleep = clock.nextSleep();
    const waiting = limiter.wait(KEY, controller.signal, WAIT);
    expect(await asleep).toBe(30_000);
    const reason = new Error('caller gave up');
    controller.abort(reason);
    await expect(waiting).rejects.toBe(reason);
  });

  it('lets calls go unpaced when a command fails, and asks Redis again REDIS_RETRY_AFTER_MS later', async () => {
    const clock = createFakeClock(START);
    let failing = false;
    const client = { sendCommand: (args: string[]) => (failing ? Promise.reject(new Error('ECONNRESET')) : redis.command(...args)) };
    const limiter = createRedisRateLimiter(client, { clock });
    await limiter.update(KEY, rateLimit(0, START + 30_000));
    failing = true;
    await limiter.wait(KEY, undefined, WAIT); // the GET fails: the call goes
    failing = false;
    await limiter.wait(KEY, undefined, WAIT); // answered locally, without asking Redis
    expect(clock.sleeps).toEqual([]);
    clock.advance(REDIS_RETRY_AFTER_MS);
    await limiter.wait(KEY, undefined, WAIT); // Redis again: the bucket is still empty
    expect(clock.sleeps).toEqual([30_000 - REDIS_RETRY_AFTER_MS]);
  });
});
