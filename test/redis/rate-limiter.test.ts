import { createRedisRateLimiter } from 'idplatform/redis';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { NEW_WINDOW_HOLD_MS, NEW_WINDOW_POLL_MS, NOT_SENT } from '../../src/core/rate-limiter.js';
import { REDIS_RETRY_AFTER_MS } from '../../src/redis/fallback.js';
import { RELEASE_FROM_BUCKET, TAKE_FROM_BUCKET } from '../../src/redis/scripts.js';
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

describe.each(REDIS_CLIENT_KINDS)('createRedisRateLimiter with a %s client', (kind) => {
  let redis: ConnectedRedisClient;
  beforeEach(async () => {
    redis = await redisClientKinds[kind](server.url);
    await redis.command('FLUSHALL');
  });
  afterEach(() => redis.close());

  /** A client on the real Redis whose next command fails once when `failNext` is set (a blip: a reset connection). */
  function flaky() {
    const state = { failNext: false };
    const client = {
      sendCommand: (args: string[]) => {
        if (!state.failNext) return redis.command(...args);
        state.failNext = false;
        return Promise.reject(new Error('ECONNRESET'));
      },
    };
    return { client, state };
  }

  it('sends the answers that come back while it answers from memory after a blip: Redis counts no call in flight then', async () => {
    const clock = createFakeClock(Date.now());
    const { client, state } = flaky();
    const limiter = createRedisRateLimiter(client, { clock });
    const reset = new Date(Date.now() + 30_000);
    await limiter.update(KEY, { limit: 10, remaining: 10, reset });
    for (let call = 0; call < 3; call++) expect(await limiter.wait(KEY, undefined, WAIT)).toBe(true);
    state.failNext = true;
    expect(await limiter.wait(KEY, undefined, WAIT)).toBe(true); // a fourth call meets the blip: a slot from memory
    // The three calls Redis counted are answered within the 5 s the adapter answers from memory, then the fourth.
    for (let answer = 9; answer >= 6; answer--) await limiter.update(KEY, { limit: 10, remaining: answer, reset });
    expect(await redis.command('HMGET', KEY, 'pending', 'remaining')).toEqual(['0', '6']);
  });

  it('gives Redis back no slot it never handed out (one taken from memory after a blip)', async () => {
    const clock = createFakeClock(Date.now());
    const { client, state } = flaky();
    const a = createRedisRateLimiter(client, { clock });
    const b = createRedisRateLimiter(redis.client, { clock });
    await a.update(KEY, { limit: 10, remaining: 1, reset: new Date(Date.now() + 30_000) });
    expect(await b.wait(KEY, undefined, WAIT)).toBe(true); // B takes the fleet's last slot; its call is in flight
    state.failNext = true;
    expect(await a.wait(KEY, undefined, WAIT)).toBe(true); // A answers from memory (its own copy has 1 left)
    clock.advance(REDIS_RETRY_AFTER_MS);
    if (a.release === undefined) throw new Error('the Redis limiter gives slots back');
    await a.release(KEY, NOT_SENT); // A's call never left: its slot goes back to A's memory only
    expect(await redis.command('HMGET', KEY, 'remaining', 'pending')).toEqual(['0', '1']);
  });

  it('lets calls go while nothing is known, and counts them against the first window reported', async () => {
    const clock = createFakeClock();
    const limiter = createRedisRateLimiter(redis.client, { clock });
    for (let call = 0; call < 3; call++) await limiter.wait(KEY, undefined, WAIT);
    expect(clock.sleeps).toEqual([]);
    await limiter.update(KEY, { limit: 50, remaining: 49, reset: new Date(Date.now() + 30_000) });
    expect(await redis.command('HGET', KEY, 'remaining')).toBe('47');
  });

  it('stores a response’s bucket state under prefix + key in one hash', async () => {
    const limiter = createRedisRateLimiter(redis.client, { prefix: 'svc:' });
    const reset = new Date(Date.now() + 30_000);
    await limiter.update(KEY, { limit: 50, remaining: 7, reset });
    expect(await redis.command('HMGET', `svc:${KEY}`, 'limit', 'remaining', 'reset', 'rolled', 'taken', 'pending')).toEqual([
      '50',
      '7',
      String(reset.getTime()),
      '0',
      '0',
      '0',
    ]);
    const pttl = Number(await redis.command('PTTL', `svc:${KEY}`));
    expect(pttl).toBeGreaterThan(60_000);
  });

  it('shares `remaining` between limiters: the slots left go, then calls wait until the server’s reset', async () => {
    // Redis reads its own clock (TIME); the limiters sleep on a fake one, so nothing really waits.
    const clock = createFakeClock();
    const [one, two] = [createRedisRateLimiter(redis.client, { clock }), createRedisRateLimiter(redis.client, { clock })];
    const reset = new Date(Date.now() + 30_000);
    await one.update(KEY, { limit: 50, remaining: 2, reset });
    await one.wait(KEY, undefined, WAIT);
    await two.wait(KEY, undefined, WAIT);
    expect(clock.sleeps).toEqual([]);
    // One sleep until the reset; a second of the same length would pass maxDelayMs, so the call goes.
    await two.wait(KEY, undefined, { maxDelayMs: 40_000 });
    expect(clock.sleeps).toHaveLength(1);
    expect(clock.sleeps[0]).toBeGreaterThan(20_000);
    expect(clock.sleeps[0]).toBeLessThanOrEqual(30_000);
  });

  it('keeps the lower `remaining` of one window, ignores stale responses, and takes a later reset as a new window', async () => {
    const limiter = createRedisRateLimiter(redis.client);
    const reset = Date.now() + 30_000;
    const state = async () => (await redis.command('HMGET', KEY, 'remaining', 'reset')) as string[];
    await limiter.update(KEY, { limit: 50, remaining: 10, reset: new Date(reset) });
    await limiter.update(KEY, { limit: 50, remaining: 20, reset: new Date(reset) });
    expect(await state()).toEqual(['10', String(reset)]);
    await limiter.update(KEY, { limit: 50, remaining: 3, reset: new Date(reset - 1_000) });
    expect(await state()).toEqual(['10', String(reset)]);
    await limiter.update(KEY, { limit: 50, remaining: 49, reset: new Date(reset + 1_000) });
    expect(await state()).toEqual(['49', String(reset + 1_000)]);
    for (let call = 0; call < 4; call++) await limiter.wait(KEY, undefined, WAIT);
    await limiter.update(KEY, { limit: 50, remaining: 49, reset: new Date(reset + 2_000) });
    expect(await state()).toEqual(['46', String(reset + 2_000)]);
  });

  it('lets one bucket of calls go after the reset, then makes the rest look again until the new window is reported', async () => {
    const clock = createFakeClock();
    const limiter = createRedisRateLimiter(redis.client, { clock });
    await limiter.update(KEY, { limit: 3, remaining: 0, reset: new Date(Date.now() - 1_000) }); // a reset Redis's clock has passed
    for (let call = 0; call < 3; call++) await limiter.wait(KEY, undefined, WAIT);
    expect(clock.sleeps).toEqual([]);
    await limiter.wait(KEY, undefined, { maxDelayMs: 500 }); // looks twice, then goes: the server's 429 decides
    expect(clock.sleeps).toEqual([NEW_WINDOW_POLL_MS, NEW_WINDOW_POLL_MS]);
    expect(await redis.command('HGET', KEY, 'taken')).toBe('3');
    // No answer NEW_WINDOW_HOLD_MS after the reset was seen (those calls failed): calls go again.
    const rolledAt = Number(await redis.command('HGET', KEY, 'rolled_at'));
    await redis.command('HSET', KEY, 'rolled_at', String(rolledAt - NEW_WINDOW_HOLD_MS));
    await limiter.wait(KEY, undefined, WAIT);
    expect(clock.sleeps).toHaveLength(2);
  });

  it('counts only the calls still in flight against a new window: those a lagging server answered for the old one did not land in it', async () => {
    const clock = createFakeClock();
    const limiter = createRedisRateLimiter(redis.client, { clock });
    const oldReset = new Date(Date.now() - 1_000); // a reset Redis's clock has passed
    await limiter.update(KEY, { limit: 3, remaining: 0, reset: oldReset });
    for (let call = 0; call < 3; call++) await limiter.wait(KEY, undefined, WAIT);
    // The server's clock lags: it answers the three with 429s of the old window.
    for (let call = 0; call < 3; call++) await limiter.update(KEY, { limit: 3, remaining: 0, reset: oldReset });
    await limiter.update(KEY, { limit: 3, remaining: 2, reset: new Date(Date.now() + 60_000) }); // the new window's first answer
    expect(await redis.command('HGET', KEY, 'remaining')).toBe('2');
    await limiter.wait(KEY, undefined, WAIT);
    expect(clock.sleeps).toEqual([]);
  });

  it('counts the old window’s answers to calls in flight when it passed as theirs, not as stale answers of later calls', async () => {
    const clock = createFakeClock();
    const limiter = createRedisRateLimiter(redis.client, { clock });
    const reset = new Date(Date.now() + 60_000);
    await limiter.update(KEY, { limit: 10, remaining: 10, reset });
    for (let call = 0; call < 10; call++) await limiter.wait(KEY, undefined, WAIT); // in the old window
    await redis.command('HSET', KEY, 'reset', String(Date.now() - 1_000)); // the window passes
    const passed = new Date(Number(await redis.command('HGET', KEY, 'reset')));
    for (let call = 0; call < 10; call++) await limiter.wait(KEY, undefined, WAIT); // after its reset
    for (let call = 0; call < 10; call++) await limiter.update(KEY, { limit: 10, remaining: 0, reset: passed }); // the first ten answered
    await limiter.update(KEY, { limit: 10, remaining: 9, reset: new Date(Date.now() + 60_000) });
    expect(await redis.command('HGET', KEY, 'remaining')).toBe('0');
  });

  it('gives a slot back on release (a call without a rate-limit answer), never below zero', async () => {
    const limiter = createRedisRateLimiter(redis.client);
    await limiter.update(KEY, { limit: 50, remaining: 10, reset: new Date(Date.now() + 30_000) });
    await limiter.wait(KEY, undefined, WAIT);
    await limiter.wait(KEY, undefined, WAIT);
    expect(await redis.command('HGET', KEY, 'pending')).toBe('2');
    await limiter.release?.(KEY);
    expect(await redis.command('HGET', KEY, 'pending')).toBe('1');
    await limiter.release?.(KEY);
    await limiter.release?.(KEY);
    expect(await redis.command('HGET', KEY, 'pending')).toBe('0');
  });

  it('gives the slot of a call that never left back to the window, and keeps that of a call that may have reached the server', async () => {
    const limiter = createRedisRateLimiter(redis.client);
    await limiter.update(KEY, { limit: 10, remaining: 5, reset: new Date(Date.now() + 30_000) });
    await limiter.wait(KEY, undefined, WAIT);
    await limiter.wait(KEY, undefined, WAIT);
    expect(await redis.command('HMGET', KEY, 'remaining', 'pending')).toEqual(['3', '2']);
    await limiter.release?.(KEY, { sent: false }); // e.g. its token request failed
    expect(await redis.command('HMGET', KEY, 'remaining', 'pending')).toEqual(['4', '1']);
    await limiter.release?.(KEY, { sent: true }); // a network error: the server may have counted it
    expect(await redis.command('HMGET', KEY, 'remaining', 'pending')).toEqual(['4', '0']);
    await redis.command('HSET', KEY, 'remaining', '10', 'pending', '1');
    await limiter.release?.(KEY, { sent: false }); // never more than the limit
    expect(await redis.command('HGET', KEY, 'remaining')).toBe('10');
  });

  it.each([
    ['that never left, on a cold bucket', false],
    ['that failed after the reset (an outage: if the server counted them, its next answer says so)', true],
  ])('does not count calls %s against the first window after it', async (_, sent) => {
    const clock = createFakeClock();
    const limiter = createRedisRateLimiter(redis.client, { clock });
    for (let call = 0; call < 5; call++) {
      await limiter.wait(KEY, undefined, WAIT);
      await limiter.release?.(KEY, { sent });
    }
    expect(await redis.command('HGET', KEY, 'taken')).toBe('0');
    await limiter.wait(KEY, undefined, WAIT);
    await limiter.update(KEY, { limit: 3, remaining: 2, reset: new Date(Date.now() + 30_000) });
    expect(await redis.command('HGET', KEY, 'remaining')).toBe('2');
    await limiter.wait(KEY, undefined, WAIT);
    expect(clock.sleeps).toEqual([]);
  });

  it('takes a call released after the reset for one of those in flight when it passed: the new window keeps its count', async () => {
    const take = async () =>
      Number(await redis.command('EVAL', TAKE_FROM_BUCKET, '1', KEY, String(NEW_WINDOW_POLL_MS), String(NEW_WINDOW_HOLD_MS)));
    // 3 calls in flight, taken from a window whose reset has just passed (Redis's time).
    await redis.command(
      'HSET',
      KEY,
      'limit',
      '10',
      'remaining',
      '0',
      'reset',
      String(Date.now() - 1),
      'rolled',
      '0',
      'taken',
      '0',
      'stale',
      '0',
      'in_flight_at_roll',
      '0',
      'pending',
      '3',
      'rolled_at',
      '0',
    );
    for (let call = 0; call < 10; call++) expect(await take()).toBe(0); // the new window's 10
    expect(await take()).toBe(NEW_WINDOW_POLL_MS);
    for (let call = 0; call < 3; call++) await redis.command('EVAL', RELEASE_FROM_BUCKET, '1', KEY, '1'); // the 3 old ones time out
    expect(await take()).toBe(NEW_WINDOW_POLL_MS); // still 10 of the new window unanswered
  });

  it('does not sleep a wait longer than maxDelayMs: the call goes, for the server’s 429 to decide', async () => {
    const clock = createFakeClock();
    const limiter = createRedisRateLimiter(redis.client, { clock });
    await limiter.update(KEY, { limit: 50, remaining: 0, reset: new Date(Date.now() + 30_000) });
    await limiter.wait(KEY, undefined, { maxDelayMs: 1_000 });
    expect(clock.sleeps).toEqual([]);
  });

  it('stops waiting with the signal’s reason when the caller aborts', async () => {
    const clock = createFakeClock(0, { holdSleeps: true });
    const limiter = createRedisRateLimiter(redis.client, { clock });
    await limiter.update(KEY, { limit: 50, remaining: 0, reset: new Date(Date.now() + 30_000) });
    const controller = new AbortController();
    const asleep = clock.nextSleep();
    const waiting = limiter.wait(KEY, controller.signal, WAIT);
    await asleep; // the limiter is sleeping until the reset
    const reason = new Error('caller gave up');
    controller.abort(reason);
    await expect(waiting).rejects.toBe(reason);
  });
});
