import { HttpResponse, http } from 'msw';
import { afterEach, describe, expect, it, vi } from 'vitest';
import * as z from 'zod/mini';
import { resolveRetryPolicy } from '../../src/core/options.js';
import { memoryRateLimiter, type RateLimiter, rateLimitKey, reportRateLimit, waitForRateLimit } from '../../src/core/pacing.js';
import { callerTokenProvider } from '../../src/core/tokens/provider.js';
import { Transport, type TransportSettings } from '../../src/core/transport.js';
import { createFakeClock } from '../helpers/clock.js';
import { API, recordRequests, useMswServer } from '../helpers/server.js';

const START = Date.UTC(2030, 0, 1);
const KEY = 'idplatform:ratelimit:https://tenant.test/api/v2';
const WAIT = { maxDelayMs: 60_000 };
/** How long `waitForRateLimit` waits for the limiter's answer in these tests. */
const ANSWER_WITHIN_MS = 90_000;
const rateLimit = (remaining: number, resetMs: number, limit = 50) => ({ limit, remaining, reset: new Date(resetMs) });

afterEach(() => vi.useRealTimers());

/** Counts the entries of every Map made while `make` runs (the limiter's private state). */
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

describe('memoryRateLimiter', () => {
  it('answers at once, without a promise, while nothing is known or the bucket has calls left', () => {
    const limiter = memoryRateLimiter(createFakeClock(START));
    expect(limiter.wait(KEY, undefined, WAIT)).toBeUndefined();
    limiter.update(KEY, rateLimit(1, START + 5_000));
    expect(limiter.wait(KEY, undefined, WAIT)).toBeUndefined();
  });

  it('counts no calls in flight: with one call left, every concurrent call goes (the server’s 429 decides)', () => {
    const clock = createFakeClock(START);
    const limiter = memoryRateLimiter(clock);
    limiter.update(KEY, rateLimit(1, START + 5_000));
    const waits = Array.from({ length: 10 }, () => limiter.wait(KEY, undefined, WAIT));
    expect(waits).toEqual(Array(10).fill(undefined));
    expect(clock.sleeps).toEqual([]);
  });

  it('sleeps until the reported reset on the injected clock while the bucket is empty, then lets the call go', async () => {
    const clock = createFakeClock(START);
    const limiter = memoryRateLimiter(clock);
    limiter.update(KEY, rateLimit(0, START + 2_500));
    await limiter.wait(KEY, undefined, WAIT);
    expect(clock.sleeps).toEqual([2_500]);
    expect(clock.now()).toBe(START + 2_500);
    expect(limiter.wait(KEY, undefined, WAIT)).toBeUndefined(); // the reset has passed
  });

  it('makes every concurrent call wait for the same reset', () => {
    const clock = createFakeClock(START, { holdSleeps: true });
    const limiter = memoryRateLimiter(clock);
    limiter.update(KEY, rateLimit(0, START + 3_000));
    for (let call = 0; call < 3; call++) expect(limiter.wait(KEY, undefined, WAIT)).toBeInstanceOf(Promise);
    expect(clock.sleeps).toEqual([3_000, 3_000, 3_000]);
  });

  it('follows the last answer: one with calls left lets the next calls go, one without makes them wait again', () => {
    const clock = createFakeClock(START, { holdSleeps: true });
    const limiter = memoryRateLimiter(clock);
    limiter.update(KEY, rateLimit(0, START + 3_000));
    limiter.update(KEY, rateLimit(4, START + 3_000));
    expect(limiter.wait(KEY, undefined, WAIT)).toBeUndefined();
    limiter.update(KEY, rateLimit(0, START + 3_000));
    expect(limiter.wait(KEY, undefined, WAIT)).toBeInstanceOf(Promise);
  });

  it('keeps one bucket per key', () => {
    const clock = createFakeClock(START);
    const limiter = memoryRateLimiter(clock);
    limiter.update(KEY, rateLimit(0, START + 2_500));
    expect(limiter.wait('idplatform:ratelimit:https://other.test/api/v2', undefined, WAIT)).toBeUndefined();
    expect(clock.sleeps).toEqual([]);
  });

  it('does not wait for a bucket that refills later than maxDelayMs (default 60 s), and waits for one that refills just then', async () => {
    const clock = createFakeClock(START);
    const limiter = memoryRateLimiter(clock);
    limiter.update(KEY, rateLimit(0, START + 60_001));
    expect(limiter.wait(KEY, undefined, WAIT)).toBeUndefined();
    expect(limiter.wait(KEY)).toBeUndefined();
    expect(limiter.wait(KEY, undefined, { maxDelayMs: 0 })).toBeUndefined();
    limiter.update(KEY, rateLimit(0, START + 60_000));
    await limiter.wait(KEY);
    expect(clock.sleeps).toEqual([60_000]);
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

  it('keeps nothing for a bucket with calls left, and forgets an empty one once its reset has passed', () => {
    const clock = createFakeClock(START);
    const limiter = withMapsOf(() => memoryRateLimiter(clock));
    limiter.value.update(KEY, rateLimit(5, START + 1_000));
    expect(limiter.entries()).toBe(0);
    limiter.value.update(KEY, rateLimit(0, START + 1_000));
    expect(limiter.entries()).toBe(1);
    clock.advance(1_000);
    expect(limiter.value.wait(KEY, undefined, WAIT)).toBeUndefined();
    expect(limiter.entries()).toBe(0);
  });
});

describe('waitForRateLimit and reportRateLimit', () => {
  const throwing: RateLimiter = {
    wait: () => {
      throw new Error('store down');
    },
    update: () => {
      throw new Error('store down');
    },
  };
  const rejecting: RateLimiter = {
    wait: () => Promise.reject(new Error('store down')),
    update: () => Promise.reject(new Error('store down')),
  };

  it('answer at once, without a promise, when the limiter did', () => {
    const legacy = { wait: () => true, update: () => {} } as unknown as RateLimiter; // an older limiter that answers `true`
    expect(waitForRateLimit(memoryRateLimiter(createFakeClock(START)), KEY, undefined, WAIT, ANSWER_WITHIN_MS)).toBeUndefined();
    expect(waitForRateLimit(legacy, KEY, undefined, WAIT, ANSWER_WITHIN_MS)).toBeUndefined();
  });

  it('let the call go unpaced when the limiter throws or rejects', async () => {
    expect(waitForRateLimit(throwing, KEY, undefined, WAIT, ANSWER_WITHIN_MS)).toBeUndefined();
    await expect(waitForRateLimit(rejecting, KEY, undefined, WAIT, ANSWER_WITHIN_MS)).resolves.toBeUndefined();
  });

  it.each([
    ['throws', throwing],
    ['rejects', rejecting],
  ])('pass an abort on when the limiter %s', async (_, limiter) => {
    const controller = new AbortController();
    const reason = new Error('stop');
    controller.abort(reason);
    await expect(waitForRateLimit(limiter, KEY, controller.signal, WAIT, ANSWER_WITHIN_MS)).rejects.toBe(reason);
  });

  it('end the wait when the signal aborts, even on a limiter that never answers nor listens (a stalled store)', async () => {
    const stalled: RateLimiter = { wait: () => new Promise<void>(() => {}), update: () => {} };
    const controller = new AbortController();
    const waiting = waitForRateLimit(stalled, KEY, controller.signal, WAIT, ANSWER_WITHIN_MS);
    const reason = new Error('caller gave up');
    controller.abort(reason);
    await expect(waiting).rejects.toBe(reason);
  });

  it('let the call go unpaced when the limiter has not answered within answerWithinMs (a stalled store)', async () => {
    vi.useFakeTimers();
    const stalled: RateLimiter = { wait: () => new Promise<void>(() => {}), update: () => {} };
    let went = false;
    void Promise.resolve(waitForRateLimit(stalled, KEY, undefined, WAIT, 1_000)).then(() => {
      went = true;
    });
    await vi.advanceTimersByTimeAsync(999);
    expect(went).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    expect(went).toBe(true);
  });

  it('report only an answer that has a rate limit, and ignore the limiter’s failures', async () => {
    const updates: unknown[] = [];
    reportRateLimit({ wait: () => {}, update: (...args) => void updates.push(args) }, KEY, undefined);
    expect(updates).toEqual([]);
    expect(() => reportRateLimit(throwing, KEY, rateLimit(1, START))).not.toThrow();
    reportRateLimit(rejecting, KEY, rateLimit(1, START)); // an unhandled rejection would fail the run
    await new Promise((resolve) => setImmediate(resolve));
  });
});

describe('Transport pacing', () => {
  const server = useMswServer();
  const requests = recordRequests(server);
  const Body = z.object({ ok: z.boolean() });
  const HEADERS = { 'x-ratelimit-limit': '50', 'x-ratelimit-remaining': '7', 'x-ratelimit-reset': '1900000000' };

  function transport(settings: Partial<TransportSettings> = {}) {
    const made = new Transport({
      baseUrl: API,
      tokens: callerTokenProvider('token-1'),
      retry: resolveRetryPolicy(false),
      timeoutMs: 1_000,
      validateResponses: true,
      clock: createFakeClock(START),
      ...settings,
    });
    return (signal?: AbortSignal) => made.request({ method: 'GET', path: 'things', schema: Body, options: { signal } });
  }

  it('waits for the reset a response reported before sending the next call', async () => {
    const clock = createFakeClock(START);
    const reset = String(START / 1000 + 10);
    server.use(
      http.get(`${API}/things`, () =>
        HttpResponse.json({ ok: true }, { headers: { ...HEADERS, 'x-ratelimit-remaining': '0', 'x-ratelimit-reset': reset } }),
      ),
    );
    const get = transport({ clock, retry: resolveRetryPolicy({}) });
    await get();
    expect(clock.sleeps).toEqual([]);
    await get();
    expect(clock.sleeps).toEqual([10_000]);
    expect(requests).toHaveLength(2);
  });

  it('waits before every call, and updates the bucket only from answers with `X-RateLimit-*`', async () => {
    const reported: string[] = [];
    const rateLimiter: RateLimiter = { wait: () => void reported.push('wait'), update: () => void reported.push('update') };
    let answer: 'network error' | 'no headers' | 'headers' = 'network error';
    server.use(
      http.get(`${API}/things`, () =>
        answer === 'network error'
          ? HttpResponse.error()
          : HttpResponse.json({ ok: true }, { headers: answer === 'headers' ? HEADERS : {} }),
      ),
    );
    const get = transport({ rateLimiter });
    await expect(get()).rejects.toThrow('failed');
    answer = 'no headers';
    await get();
    answer = 'headers';
    await get();
    expect(reported).toEqual(['wait', 'wait', 'wait', 'update']);
  });

  it.each([
    ['rejects', { wait: () => Promise.reject(new Error('down')), update: () => Promise.reject(new Error('down')) }],
    [
      'throws',
      {
        wait: () => {
          throw new Error('down');
        },
        update: () => {
          throw new Error('down');
        },
      },
    ],
    ['never answers (a stalled store)', { wait: () => new Promise<void>(() => {}), update: () => {} }],
  ])('sends a call unpaced when the limiter %s', async (_, rateLimiter: RateLimiter) => {
    server.use(http.get(`${API}/things`, () => HttpResponse.json({ ok: true }, { headers: HEADERS })));
    const get = transport({ rateLimiter, retry: resolveRetryPolicy({ maxRetries: 0, maxDelayMs: 20 }), timeoutMs: 30 });
    await expect(get()).resolves.toEqual({ ok: true });
  });

  it('throws the caller’s abort while the call waits for the bucket, and sends nothing', async () => {
    server.use(http.get(`${API}/things`, () => HttpResponse.json({ ok: true })));
    const clock = createFakeClock(START, { holdSleeps: true });
    const rateLimiter = memoryRateLimiter(clock);
    rateLimiter.update(rateLimitKey(API), rateLimit(0, START + 10_000));
    const get = transport({ clock, rateLimiter, retry: resolveRetryPolicy({}) });
    const controller = new AbortController();
    const sentBefore = requests.length;
    const asleep = clock.nextSleep();
    const call = get(controller.signal);
    expect(await asleep).toBe(10_000);
    const reason = new Error('caller gave up');
    controller.abort(reason);
    await expect(call).rejects.toBe(reason);
    expect(requests.length).toBe(sentBefore);
  });

  it('uses the rateLimiter it is given, with the base URL as key and the client’s maxDelayMs', async () => {
    const calls: unknown[][] = [];
    server.use(http.get(`${API}/things`, () => HttpResponse.json({ ok: true }, { headers: HEADERS })));
    const get = transport({
      retry: resolveRetryPolicy({ maxDelayMs: 5_000 }),
      rateLimiter: { wait: (...args) => void calls.push(['wait', ...args]), update: (...args) => void calls.push(['update', ...args]) },
    });
    await get();
    expect(calls).toEqual([
      ['wait', `idplatform:ratelimit:${API}`, undefined, { maxDelayMs: 5_000 }],
      ['update', `idplatform:ratelimit:${API}`, rateLimit(7, 1_900_000_000_000)],
    ]);
  });
});
