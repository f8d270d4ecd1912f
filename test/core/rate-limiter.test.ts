import { HttpResponse, http } from 'msw';
import { describe, expect, it, vi } from 'vitest';
import * as z from 'zod/mini';
import {
  type BucketState,
  memoryRateLimiter,
  NEW_WINDOW_HOLD_MS,
  NEW_WINDOW_POLL_MS,
  type RateLimiter,
  rateLimitKey,
  releaseFromBucket,
  reportRateLimit,
  takeFromBucket,
  unknownBucket,
  updateBucket,
  waitForRateLimit,
} from '../../src/core/rate-limiter.js';
import { resolveRetryPolicy } from '../../src/core/retry.js';
import { callerTokenProvider } from '../../src/core/token-provider.js';
import { Transport } from '../../src/core/transport.js';
import { createFakeClock } from '../helpers/clock.js';
import { API, recordRequests, useMswServer } from '../helpers/server.js';

const START = Date.UTC(2030, 0, 1);
const KEY = 'idplatform:ratelimit:https://tenant.test/api/v2';
const WAIT = { maxDelayMs: 60_000 };
/** How long `waitForRateLimit` waits for the limiter's answer in these tests. */
const ANSWER_WITHIN_MS = 90_000;
const rateLimit = (remaining: number, resetMs: number, limit = 50) => ({ limit, remaining, reset: new Date(resetMs) });

/** A limiter that grants the slot when the test says so, recording what it is given back. */
function grantingLaterLimiter() {
  let grant: () => void = () => {};
  const released: unknown[][] = [];
  const limiter: RateLimiter = {
    wait: () =>
      new Promise<void>((resolve) => {
        grant = resolve;
      }),
    update: () => {},
    release: (...args) => {
      released.push(args);
    },
  };
  return { limiter, released, grant: () => grant() };
}

describe('takeFromBucket and updateBucket', () => {
  it('let calls go while nothing is known, counting them', () => {
    const state = unknownBucket();
    expect([takeFromBucket(state, START), takeFromBucket(state, START)]).toEqual([0, 0]);
    expect(state.taken).toBe(2);
  });

  it('count the calls in flight on a cold start against the first window reported', () => {
    const state = unknownBucket();
    for (let call = 0; call < 5; call++) takeFromBucket(state, START);
    expect(updateBucket(state, rateLimit(49, START + 5_000))).toMatchObject({ remaining: 45, rolled: false });
  });

  it('take the slots left, then answer the time until the server’s reset', () => {
    const state = updateBucket(undefined, rateLimit(2, START + 5_000));
    expect([takeFromBucket(state, START), takeFromBucket(state, START)]).toEqual([0, 0]);
    expect(takeFromBucket(state, START + 1_000)).toBe(4_000);
  });

  it('let a bucket of calls go once the reset has passed, count them against the next window reported, and hold the rest until it is', () => {
    const state = updateBucket(undefined, rateLimit(0, START + 1_000, 10));
    for (let call = 0; call < 10; call++) expect(takeFromBucket(state, START + 1_000)).toBe(0);
    // The eleventh and twelfth would collect 429s: they look again once the first answers may have come.
    expect([takeFromBucket(state, START + 1_000), takeFromBucket(state, START + 1_100)]).toEqual([NEW_WINDOW_POLL_MS, NEW_WINDOW_POLL_MS]);
    expect(state).toMatchObject({ rolled: true, taken: 10 });
    const next = updateBucket(state, rateLimit(9, START + 2_000, 10));
    expect(next).toMatchObject({ remaining: 0, resetMs: START + 2_000 });
    expect(takeFromBucket(next, START + 1_200)).toBe(800); // then they wait for the new window's reset
  });

  it('hold calls beyond the first bucket for NEW_WINDOW_HOLD_MS at most: with no answer by then (they failed), calls go', () => {
    const state = updateBucket(undefined, rateLimit(0, START + 1_000, 2));
    expect([takeFromBucket(state, START + 1_000), takeFromBucket(state, START + 1_000)]).toEqual([0, 0]);
    expect(takeFromBucket(state, START + 1_000 + NEW_WINDOW_HOLD_MS - 1)).toBe(NEW_WINDOW_POLL_MS);
    expect(takeFromBucket(state, START + 1_000 + NEW_WINDOW_HOLD_MS)).toBe(0);
  });

  it('keep the lower remaining of one window, ignore stale responses, and open a new window on a later reset', () => {
    let state: BucketState = updateBucket(undefined, rateLimit(10, START + 5_000));
    state = updateBucket(state, rateLimit(20, START + 5_000));
    expect(state.remaining).toBe(10);
    state = updateBucket(state, rateLimit(3, START + 4_000));
    expect(state.remaining).toBe(10);
    state = updateBucket(state, rateLimit(49, START + 6_000));
    expect(state).toEqual({
      limit: 50,
      remaining: 49,
      resetMs: START + 6_000,
      rolled: false,
      rolledAtMs: 0,
      taken: 0,
      staleAnswers: 0,
      inFlightAtRoll: 0,
      pending: 0,
    });
  });

  it('count the calls still in flight against a new window reported before the old one’s reset', () => {
    const state = updateBucket(undefined, rateLimit(100, START + 5_000, 100));
    for (let call = 0; call < 10; call++) takeFromBucket(state, START + 4_000);
    expect(state.pending).toBe(10);
    expect(updateBucket(state, rateLimit(99, START + 10_000, 100))).toMatchObject({ remaining: 90, pending: 9 });
  });

  it('count only the calls still in flight against a new window: those a lagging server answered for the old one did not land in it', () => {
    let state = updateBucket(undefined, rateLimit(0, START + 1_000, 10));
    for (let call = 0; call < 10; call++) expect(takeFromBucket(state, START + 1_000)).toBe(0); // at the reset by this clock
    // The server's clock lags: it answers the ten with 429s of the old window.
    for (let call = 0; call < 10; call++) state = updateBucket(state, rateLimit(0, START + 1_000, 10));
    expect(takeFromBucket(state, START + 1_000 + NEW_WINDOW_HOLD_MS)).toBe(0);
    state = updateBucket(state, rateLimit(9, START + 61_000, 10)); // the new window's first answer
    expect(state).toMatchObject({ remaining: 9, pending: 0 });
    expect(takeFromBucket(state, START + 2_100)).toBe(0);
  });

  it('count the old window’s answers to calls still in flight when it passed as theirs, not as stale answers of later calls', () => {
    let state = updateBucket(undefined, rateLimit(10, START + 1_000, 10));
    for (let call = 0; call < 10; call++) expect(takeFromBucket(state, START + 500)).toBe(0); // in the old window
    for (let call = 0; call < 10; call++) expect(takeFromBucket(state, START + 1_000)).toBe(0); // after its reset
    for (let call = 0; call < 10; call++) state = updateBucket(state, rateLimit(0, START + 1_000, 10)); // the first ten answered
    state = updateBucket(state, rateLimit(9, START + 61_000, 10)); // the new window's first answer
    expect(state.remaining).toBe(0); // the ten sent after the reset are in flight: they may land in it
  });

  it('count a response of the old window once it has rolled over as a stale answer, and change nothing else', () => {
    const state = updateBucket(undefined, rateLimit(0, START + 1_000));
    takeFromBucket(state, START + 1_000);
    expect(updateBucket(state, rateLimit(0, START + 1_000))).toEqual({ ...state, staleAnswers: 1, pending: 0 });
  });
});

describe('memoryRateLimiter', () => {
  it('stops concurrent calls once the bucket is empty; they go at the reset', async () => {
    const clock = createFakeClock(START, { holdSleeps: true });
    const limiter = memoryRateLimiter(clock);
    limiter.update(KEY, rateLimit(2, START + 3_000));
    const settled: number[] = [];
    const waits = [0, 1, 2, 3].map((index) => Promise.resolve(limiter.wait(KEY, undefined, WAIT)).then(() => settled.push(index)));
    await Promise.resolve();
    await Promise.resolve();
    expect(settled).toEqual([0, 1]);
    expect(clock.sleeps).toEqual([3_000, 3_000]);
    void waits;
  });

  it('lets one bucket of queued calls go at the reset, and holds the rest until the new window is reported', async () => {
    const clock = createFakeClock(START, { holdSleeps: true });
    const limiter = memoryRateLimiter(clock);
    limiter.update(KEY, rateLimit(0, START - 1, 3)); // a bucket of 3, whose reset has just passed
    const went = Array.from({ length: 5 }, () => limiter.wait(KEY, undefined, WAIT) === true);
    expect(went).toEqual([true, true, true, false, false]);
    expect(clock.sleeps).toEqual([NEW_WINDOW_POLL_MS, NEW_WINDOW_POLL_MS]);
  });

  it('does not count calls released without a rate-limit answer against the next window', async () => {
    const clock = createFakeClock(START, { holdSleeps: true });
    const limiter = memoryRateLimiter(clock);
    limiter.update(KEY, rateLimit(10, START + 1_000, 10));
    for (let call = 0; call < 5; call++) {
      expect(limiter.wait(KEY, undefined, WAIT)).toBe(true);
      limiter.release?.(KEY); // a network error: no answer
    }
    limiter.update(KEY, rateLimit(9, START + 2_000, 10)); // the next window, reported before the first one's reset passed here
    const went = Array.from({ length: 10 }, () => limiter.wait(KEY, undefined, WAIT) === true);
    expect(went.filter(Boolean)).toHaveLength(9);
  });

  it('gives the slot of a call that never left back to the window: unsent calls do not make the next ones wait for the reset', () => {
    const clock = createFakeClock(START, { holdSleeps: true });
    const limiter = memoryRateLimiter(clock);
    limiter.update(KEY, rateLimit(2, START + 10_000, 10));
    for (let call = 0; call < 5; call++) {
      expect(limiter.wait(KEY, undefined, WAIT)).toBe(true);
      limiter.release?.(KEY, { sent: false }); // e.g. its token request failed
    }
    expect(limiter.wait(KEY, undefined, WAIT)).toBe(true);
    expect(limiter.wait(KEY, undefined, WAIT)).toBe(true);
    expect(limiter.wait(KEY, undefined, WAIT)).toBeInstanceOf(Promise); // the two slots left are taken now
  });

  it('keeps the slot of a call that may have reached the server counted in its window, and never gives back more than the limit', () => {
    const maybeSent = unknownBucket();
    Object.assign(maybeSent, updateBucket(undefined, rateLimit(1, START + 10_000, 10)));
    expect(takeFromBucket(maybeSent, START)).toBe(0);
    releaseFromBucket(maybeSent, { sent: true }); // a network error or a timeout: the server may have counted it
    expect(maybeSent).toMatchObject({ remaining: 0, pending: 0 });
    const full: BucketState = { ...updateBucket(undefined, rateLimit(10, START + 10_000, 10)), pending: 1 };
    releaseFromBucket(full, { sent: false });
    expect(full).toMatchObject({ remaining: 10, pending: 0 });
  });

  it('does not count calls that ended without an answer after the reset (an outage) against the first window after it', () => {
    const bucket = unknownBucket(); // nothing reported yet: the reset counts as passed
    for (let call = 0; call < 60; call++) {
      expect(takeFromBucket(bucket, START)).toBe(0);
      releaseFromBucket(bucket, { sent: true }); // a network error or a timeout
    }
    expect(takeFromBucket(bucket, START)).toBe(0);
    // The server's first answer: 49 of 50 left. The 60 failed calls are not taken off again.
    expect(updateBucket(bucket, rateLimit(49, START + 45_000, 50))).toMatchObject({ remaining: 49, pending: 0 });
  });

  it('takes a call released after the reset for one of those in flight when it passed: the new window keeps its count', () => {
    const state = updateBucket(unknownBucket(), rateLimit(10, START + 10_000, 10));
    for (let call = 0; call < 3; call++) expect(takeFromBucket(state, START)).toBe(0); // in flight, old window
    for (let call = 0; call < 10; call++) expect(takeFromBucket(state, START + 10_000)).toBe(0); // the new window's 10
    expect(takeFromBucket(state, START + 10_000)).toBe(NEW_WINDOW_POLL_MS);
    for (let call = 0; call < 3; call++) releaseFromBucket(state, { sent: true }); // the 3 old ones time out
    expect(takeFromBucket(state, START + 10_100)).toBe(NEW_WINDOW_POLL_MS); // still 10 of the new window unanswered
  });

  it('sleeps until the reset on the injected clock, then lets the call go', async () => {
    const clock = createFakeClock(START);
    const limiter = memoryRateLimiter(clock);
    limiter.update(KEY, rateLimit(0, START + 2_500));
    await limiter.wait(KEY, undefined, WAIT);
    expect(clock.sleeps).toEqual([2_500]);
    expect(clock.now()).toBe(START + 2_500);
  });

  it('keeps one bucket per key', async () => {
    const clock = createFakeClock(START);
    const limiter = memoryRateLimiter(clock);
    limiter.update(KEY, rateLimit(0, START + 2_500));
    await limiter.wait('idplatform:ratelimit:https://other.test/api/v2', undefined, WAIT);
    expect(clock.sleeps).toEqual([]);
  });

  it('does not sleep a wait longer than maxDelayMs (the call goes; the server’s 429 decides)', async () => {
    const clock = createFakeClock(START);
    const limiter = memoryRateLimiter(clock);
    limiter.update(KEY, rateLimit(0, START + 90_000));
    await limiter.wait(KEY, undefined, WAIT);
    expect(clock.sleeps).toEqual([]);
  });

  it('rejects with the signal’s reason when the caller aborts the wait', async () => {
    const clock = createFakeClock(START, { holdSleeps: true });
    const limiter = memoryRateLimiter(clock);
    limiter.update(KEY, rateLimit(0, START + 2_500));
    const controller = new AbortController();
    const waiting = limiter.wait(KEY, controller.signal, WAIT);
    const reason = new Error('stop');
    controller.abort(reason);
    await expect(waiting).rejects.toBe(reason);
  });
});

describe('waitForRateLimit and reportRateLimit', () => {
  const broken: RateLimiter = {
    wait: () => Promise.reject(new Error('store down')),
    update: () => {
      throw new Error('store down');
    },
  };

  it('never fail a call because the limiter failed', async () => {
    await expect(waitForRateLimit(broken, KEY, undefined, WAIT, ANSWER_WITHIN_MS)).resolves.toBe(false); // unpaced, without a slot
    expect(() => reportRateLimit(broken, KEY, rateLimit(1, START), true)).not.toThrow();
    reportRateLimit({ ...broken, update: () => Promise.reject(new Error('store down')) }, KEY, rateLimit(1, START), true);
  });

  it('pass an abort on', async () => {
    const controller = new AbortController();
    const reason = new Error('stop');
    controller.abort(reason);
    await expect(waitForRateLimit(broken, KEY, controller.signal, WAIT, ANSWER_WITHIN_MS)).rejects.toBe(reason);
  });

  it('give back a slot the limiter grants after the caller aborted (a slow store): the call is never sent', async () => {
    const slow = grantingLaterLimiter();
    const controller = new AbortController();
    const waiting = waitForRateLimit(slow.limiter, KEY, controller.signal, WAIT, ANSWER_WITHIN_MS);
    controller.abort(new Error('caller gave up'));
    await expect(waiting).rejects.toThrow('caller gave up');
    expect(slow.released).toEqual([]);
    slow.grant();
    await new Promise((resolve) => setImmediate(resolve));
    expect(slow.released).toEqual([[KEY, { sent: false }]]);
  });

  it('let the call go unpaced when the limiter has not answered in time (a stalled store), and give back a slot granted later', async () => {
    vi.useFakeTimers();
    try {
      const stalled = grantingLaterLimiter();
      let went = false;
      let holdsSlot: boolean | undefined;
      void Promise.resolve(waitForRateLimit(stalled.limiter, KEY, undefined, WAIT, 1_000)).then((answer) => {
        went = true;
        holdsSlot = answer;
      });
      await vi.advanceTimersByTimeAsync(999);
      expect(went).toBe(false);
      await vi.advanceTimersByTimeAsync(1);
      expect(went).toBe(true);
      expect(holdsSlot).toBe(false);
      stalled.grant();
      await vi.advanceTimersByTimeAsync(0);
      // The call went: its answer is reported, and the late slot is not counted twice.
      expect(stalled.released).toEqual([[KEY, { sent: true }]]);
    } finally {
      vi.useRealTimers();
    }
  });

  it.each([
    ['the signal had aborted before the wait', true],
    ['the abort comes in the same turn as the slot', false],
  ])('give back a slot the limiter grants at once when %s', async (_, abortedBefore) => {
    const released: unknown[] = [];
    const limiter: RateLimiter = { wait: async () => true, update: () => {}, release: (_key, options) => void released.push(options) };
    const controller = new AbortController();
    if (abortedBefore) controller.abort(new Error('gave up'));
    const waiting = waitForRateLimit(limiter, KEY, controller.signal, WAIT, ANSWER_WITHIN_MS);
    if (!abortedBefore) queueMicrotask(() => controller.abort(new Error('gave up')));
    await expect(waiting).rejects.toThrow('gave up');
    await new Promise((resolve) => setImmediate(resolve));
    expect(released).toEqual([{ sent: false }]);
  });

  it('end the wait when the signal aborts, even on a limiter that never answers nor listens (a stalled store)', async () => {
    const stalled: RateLimiter = { wait: () => new Promise<void>(() => {}), update: () => {} };
    const controller = new AbortController();
    const waiting = waitForRateLimit(stalled, KEY, controller.signal, WAIT, ANSWER_WITHIN_MS);
    const reason = new Error('caller gave up');
    controller.abort(reason);
    await expect(waiting).rejects.toBe(reason);
  });
});

describe('Transport with the default limiter', () => {
  const server = useMswServer();
  const requests = recordRequests(server);
  const Body = z.object({ ok: z.boolean() });

  /** Serves `GET /things` with a bucket of `limit` calls, `remaining` of them left until 10 s after START. */
  function serveBucket(limit: number, remaining: number) {
    const reset = String(START / 1000 + 10);
    server.use(
      http.get(`${API}/things`, () =>
        HttpResponse.json(
          { ok: true },
          { headers: { 'x-ratelimit-limit': String(limit), 'x-ratelimit-remaining': String(remaining), 'x-ratelimit-reset': reset } },
        ),
      ),
    );
  }

  it('waits for the reset a response reported before sending the next call', async () => {
    const clock = createFakeClock(START);
    serveBucket(50, 0);
    const transport = new Transport({
      baseUrl: API,
      tokens: callerTokenProvider('token-1'),
      retry: resolveRetryPolicy({}),
      timeoutMs: 1_000,
      validateResponses: true,
      clock,
    });
    const get = () => transport.request({ method: 'GET', path: 'things', schema: Body });
    await get();
    expect(clock.sleeps).toEqual([]);
    await get();
    expect(clock.sleeps).toEqual([10_000]);
    expect(requests).toHaveLength(2);
  });

  it('gives the limiter back the slot of a call that got no rate-limit answer (network error, a response without headers)', async () => {
    const reported: string[] = [];
    const limiter: RateLimiter = {
      wait: () => {
        reported.push('wait');
      },
      update: () => {
        reported.push('update');
      },
      release: () => {
        reported.push('release');
      },
    };
    let answer: 'network error' | 'no headers' | 'headers' = 'network error';
    server.use(
      http.get(`${API}/things`, () => {
        if (answer === 'network error') return HttpResponse.error();
        const headers: Record<string, string> =
          answer === 'headers' ? { 'x-ratelimit-limit': '50', 'x-ratelimit-remaining': '7', 'x-ratelimit-reset': '1900000000' } : {};
        return HttpResponse.json({ ok: true }, { headers });
      }),
    );
    const transport = new Transport({
      baseUrl: API,
      tokens: callerTokenProvider('token-1'),
      retry: resolveRetryPolicy(false),
      timeoutMs: 1_000,
      validateResponses: true,
      clock: createFakeClock(START),
      rateLimiter: limiter,
    });
    const get = () => transport.request({ method: 'GET', path: 'things', schema: Body });
    await expect(get()).rejects.toThrow('failed');
    answer = 'no headers';
    await get();
    answer = 'headers';
    await get();
    expect(reported).toEqual(['wait', 'release', 'wait', 'release', 'wait', 'update']);
    const failingToken = new Transport({
      baseUrl: API,
      tokens: callerTokenProvider(() => Promise.reject(new Error('vault down'))),
      retry: resolveRetryPolicy(false),
      timeoutMs: 1_000,
      validateResponses: true,
      clock: createFakeClock(START),
      rateLimiter: limiter,
    });
    reported.length = 0;
    await expect(failingToken.request({ method: 'GET', path: 'things', schema: Body })).rejects.toThrow();
    expect(reported).toEqual(['wait', 'release']);
  });

  it('sends a call unpaced when a custom limiter never answers (a stalled store), rather than leaving it pending', async () => {
    server.use(http.get(`${API}/things`, () => HttpResponse.json({ ok: true })));
    const stalled: RateLimiter = { wait: () => new Promise<void>(() => {}), update: () => {} };
    const transport = new Transport({
      baseUrl: API,
      tokens: callerTokenProvider('token-1'),
      retry: resolveRetryPolicy({ maxRetries: 0, maxDelayMs: 20 }),
      timeoutMs: 30,
      validateResponses: true,
      clock: createFakeClock(START),
      rateLimiter: stalled,
    });
    await expect(transport.request({ method: 'GET', path: 'things', schema: Body })).resolves.toEqual({ ok: true });
  });

  /**
   * A transport on `clock` with the default limiter whose token comes from a vault the
   * test turns on and off (`vault.up`); it waits for the bucket up to the default
   * `maxDelayMs`. `get(options)` calls `GET /things`.
   */
  function transportWithVault(clock: ReturnType<typeof createFakeClock>, up: boolean) {
    const vault = { up };
    const transport = new Transport({
      baseUrl: API,
      tokens: callerTokenProvider(() => (vault.up ? Promise.resolve('token-1') : Promise.reject(new Error('vault down')))),
      retry: resolveRetryPolicy({ maxRetries: 0 }),
      timeoutMs: 1_000,
      validateResponses: true,
      clock,
    });
    const get = (options?: { retry: false }) => transport.request({ method: 'GET', path: 'things', schema: Body, options });
    return { vault, get };
  }

  it('gives the window back the slots of calls whose token failed: the next call does not wait for the reset', async () => {
    const clock = createFakeClock(START);
    serveBucket(10, 2);
    const { vault, get } = transportWithVault(clock, true);
    const sentBefore = requests.length;
    await get(); // the bucket: 2 calls left until the reset
    vault.up = false;
    await expect(get()).rejects.toThrow('vault down');
    await expect(get()).rejects.toThrow('vault down');
    vault.up = true;
    await get();
    expect(clock.sleeps).toEqual([]);
    expect(requests.length - sentBefore).toBe(2);
  });

  /** A server-side bucket of `limit` calls until START + 10 s; answers 429 when empty. Optionally holds answers at a gate. */
  function serveCountingBucket(limit: number, clock: { now(): number }) {
    const bucket = { remaining: limit, got429: 0, received: 0, gate: undefined as Promise<void> | undefined };
    let resetMs = START + 10_000;
    server.use(
      http.get(`${API}/things`, async () => {
        bucket.received++;
        if (clock.now() >= resetMs) {
          resetMs += 10_000; // the window the server's clock (the same fake clock) is in
          bucket.remaining = limit;
        }
        const reset = String(resetMs / 1000);
        const empty = bucket.remaining === 0;
        if (!empty) bucket.remaining--;
        if (bucket.gate) await bucket.gate;
        const headers = {
          'x-ratelimit-limit': String(limit),
          'x-ratelimit-remaining': String(bucket.remaining),
          'x-ratelimit-reset': reset,
        };
        if (empty) {
          bucket.got429++;
          return HttpResponse.json({ statusCode: 429, error: 'Too Many Requests', message: 'Too many' }, { status: 429, headers });
        }
        return HttpResponse.json({ ok: true }, { headers });
      }),
    );
    return bucket;
  }

  it('a cold client whose first token requests failed does not wait for the reset while the server has calls left', async () => {
    const clock = createFakeClock(START);
    const bucket = serveCountingBucket(3, clock);
    const { vault, get } = transportWithVault(clock, false);
    for (let i = 0; i < 3; i++) await expect(get()).rejects.toThrow('vault down');
    vault.up = true;
    await get(); // the server: 2 left of 3
    expect(bucket.remaining).toBe(2);
    await get(); // must go at once: the server has 2 left
    expect(clock.sleeps).toEqual([]);
  });

  it('a call let go without a slot gives nothing back to the window when its token fails', async () => {
    const clock = createFakeClock(START);
    const bucket = serveCountingBucket(2, clock);
    const { vault, get } = transportWithVault(clock, true);
    await get(); // server: 1 left; limiter: remaining 1
    // A slow call takes the last slot and is in flight (limiter: remaining 0, pending 1).
    let open: () => void = () => {};
    bucket.gate = new Promise<void>((resolve) => {
      open = resolve;
    });
    const slow = get();
    while (bucket.received < 2) await new Promise((resolve) => setTimeout(resolve, 5));
    // A call that may not wait (retry: false) is let go unpaced, without a slot; its token fails.
    vault.up = false;
    await expect(get({ retry: false })).rejects.toThrow('vault down');
    vault.up = true;
    // The next call, with the default wait of up to 60 s, should wait for the reset: the bucket is empty.
    bucket.gate = undefined;
    const next = get().catch((error: unknown) => error);
    await new Promise((resolve) => setTimeout(resolve, 50));
    open();
    await slow;
    await next;
    expect(bucket.got429).toBe(0);
  });

  it('gives back each slot a limiter grants once, and nothing for a wait that granted none (a stalled limiter, then a failed token)', async () => {
    server.use(http.get(`${API}/things`, () => HttpResponse.json({ ok: true })));
    const stalled = grantingLaterLimiter();
    const transport = new Transport({
      baseUrl: API,
      tokens: callerTokenProvider(() => Promise.reject(new Error('vault down'))),
      retry: resolveRetryPolicy({ maxRetries: 0, maxDelayMs: 20 }),
      timeoutMs: 30,
      validateResponses: true,
      clock: createFakeClock(START),
      rateLimiter: stalled.limiter,
    });
    await expect(transport.request({ method: 'GET', path: 'things', schema: Body })).rejects.toThrow('vault down');
    expect(stalled.released).toEqual([]);
    stalled.grant();
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(stalled.released).toEqual([[rateLimitKey(API), { sent: true }]]);
  });

  it('uses the rateLimiter it is given, with the base URL as key and the client’s maxDelayMs', async () => {
    const calls: unknown[][] = [];
    server.use(
      http.get(`${API}/things`, () =>
        HttpResponse.json(
          { ok: true },
          { headers: { 'x-ratelimit-limit': '50', 'x-ratelimit-remaining': '7', 'x-ratelimit-reset': '1900000000' } },
        ),
      ),
    );
    const transport = new Transport({
      baseUrl: API,
      tokens: callerTokenProvider('token-1'),
      retry: resolveRetryPolicy({ maxDelayMs: 5_000 }),
      timeoutMs: 1_000,
      validateResponses: true,
      clock: createFakeClock(START),
      rateLimiter: { wait: (...args) => void calls.push(['wait', ...args]), update: (...args) => void calls.push(['update', ...args]) },
    });
    await transport.request({ method: 'GET', path: 'things', schema: Body });
    expect(calls).toEqual([
      ['wait', `idplatform:ratelimit:${API}`, undefined, { maxDelayMs: 5_000 }],
      ['update', `idplatform:ratelimit:${API}`, rateLimit(7, 1_900_000_000_000)],
    ]);
  });
});
