import { describe, expect, it } from 'vitest';
import {
  type ApiError,
  AuthApiError,
  BadRequestError,
  ConfigurationError,
  createApiError,
  NetworkError,
  NotFoundError,
  RateLimitError,
  TimeoutError,
  UnauthorizedError,
} from '../../../src/core/errors.js';
import { parseRateLimit } from '../../../src/core/http/rate-limit.js';
import { retryWait, withRetry } from '../../../src/core/http/retry.js';
import { type RetryPolicy, resolveRetryPolicy } from '../../../src/core/options.js';
import { createFakeClock, type FakeClock } from '../../helpers/clock.js';

const NOW = 1_700_000_000_500; // ms: half a second into an epoch second
const POLICY: RetryPolicy = { maxRetries: 3, maxDelayMs: 60_000 };

/** An `ApiError` of `status` as the transport would build it from these response headers. */
function apiError(status: number, headers: Record<string, string> = {}): ApiError {
  const received = new Headers(headers);
  return createApiError({
    status,
    error: `HTTP ${status}`,
    message: `HTTP ${status}`,
    errorCode: undefined,
    body: undefined,
    headers: Object.fromEntries(received.entries()),
    rateLimit: parseRateLimit(received),
    method: 'GET',
    path: '/organizations/org_1/invitations',
  });
}

/** `X-RateLimit-*` headers whose reset lies `secondsAhead` after {@link NOW} (rounded down to epoch seconds). */
function rateLimitHeaders(secondsAhead: number): Record<string, string> {
  return { 'x-ratelimit-limit': '10', 'x-ratelimit-remaining': '0', 'x-ratelimit-reset': String(Math.floor(NOW / 1000) + secondsAhead) };
}

/** An attempt that throws `errors` one by one, then resolves `'ok'`; `calls` counts attempts. */
function failingThen(...errors: unknown[]) {
  const state = { calls: 0 };
  const attempt = async () => {
    const error = errors[state.calls++];
    if (error !== undefined) throw error;
    return 'ok';
  };
  return { state, attempt };
}

function run(
  attempt: () => Promise<string>,
  clock: FakeClock,
  options: { idempotent?: boolean; policy?: RetryPolicy; random?: () => number; signal?: AbortSignal } = {},
) {
  return withRetry(attempt, {
    policy: options.policy ?? POLICY,
    clock,
    idempotent: options.idempotent ?? true,
    ...(options.random ? { random: options.random } : {}),
    ...(options.signal ? { signal: options.signal } : {}),
  });
}

describe('withRetry on 429', () => {
  it('waits until X-RateLimit-Reset (never earlier) plus less than 250 ms of jitter, then retries', async () => {
    for (const random of [() => 0, () => 0.999_999, Math.random]) {
      const clock = createFakeClock(NOW);
      const { state, attempt } = failingThen(apiError(429, rateLimitHeaders(10)));
      await expect(run(attempt, clock, { random })).resolves.toBe('ok');
      const untilReset = (Math.floor(NOW / 1000) + 10) * 1000 - NOW; // 9 500 ms
      expect(clock.sleeps).toHaveLength(1);
      expect(clock.sleeps[0]).toBeGreaterThanOrEqual(untilReset);
      expect(clock.sleeps[0]).toBeLessThan(untilReset + 250);
      expect(state.calls).toBe(2);
    }
  });

  it('retries 429 for non-idempotent requests too', async () => {
    const clock = createFakeClock(NOW);
    const { state, attempt } = failingThen(apiError(429, rateLimitHeaders(1)));
    await expect(run(attempt, clock, { idempotent: false })).resolves.toBe('ok');
    expect(state.calls).toBe(2);
  });

  it('waits only the jitter when the reset already passed', async () => {
    const clock = createFakeClock(NOW);
    const { attempt } = failingThen(apiError(429, rateLimitHeaders(-5)));
    await run(attempt, clock);
    expect(clock.sleeps[0]).toBeGreaterThanOrEqual(0);
    expect(clock.sleeps[0]).toBeLessThan(250);
  });

  it('prefers X-RateLimit-Reset over Retry-After', async () => {
    const clock = createFakeClock(NOW);
    const { attempt } = failingThen(apiError(429, { ...rateLimitHeaders(20), 'retry-after': '1' }));
    await run(attempt, clock, { random: () => 0 });
    expect(clock.sleeps).toEqual([19_500]);
  });

  it('waits for Retry-After when it is later than X-RateLimit-Reset (a reset already past on a clock that runs ahead)', async () => {
    const clock = createFakeClock(NOW);
    const { attempt } = failingThen(apiError(429, { ...rateLimitHeaders(-2), 'retry-after': '30' }));
    await run(attempt, clock, { random: () => 0 });
    expect(clock.sleeps).toEqual([30_000]);
  });

  it('falls back to Retry-After in seconds', async () => {
    const clock = createFakeClock(NOW);
    const { attempt } = failingThen(apiError(429, { 'retry-after': '7' }));
    await run(attempt, clock);
    expect(clock.sleeps).toEqual([7000]);
  });

  it('falls back to Retry-After as an HTTP date', async () => {
    const clock = createFakeClock(Date.parse('2024-01-01T00:00:00Z'));
    const { attempt } = failingThen(apiError(429, { 'retry-after': 'Mon, 01 Jan 2024 00:00:12 GMT' }));
    await run(attempt, clock);
    expect(clock.sleeps).toEqual([12_000]);
  });

  it('falls back to exponential backoff with jitter when the server names no time', async () => {
    const low = createFakeClock(NOW);
    await run(failingThen(apiError(429), apiError(429), apiError(429)).attempt, low, { random: () => 0 });
    expect(low.sleeps).toEqual([250, 500, 1000]);

    const high = createFakeClock(NOW);
    await run(failingThen(apiError(429), apiError(429), apiError(429)).attempt, high, { random: () => 0.999_999 });
    expect(high.sleeps).toEqual([500, 1000, 2000]);
  });

  it('throws the RateLimitError at once, without sleeping, saying when the limit resets and why, when the reset is further away than maxDelayMs', async () => {
    const clock = createFakeClock(NOW);
    const error = apiError(429, rateLimitHeaders(120));
    const { state, attempt } = failingThen(error);
    const rejection = await run(attempt, clock).catch((caught: unknown) => caught);
    expect(rejection).toBeInstanceOf(RateLimitError);
    expect((rejection as RateLimitError).message).toMatch(
      /^HTTP 429 \(the limit resets at \d{4}-\d\d-\d\dT[\d:.]+Z, in \d+ s; not retried: the wait is longer than retry\.maxDelayMs \(60000 ms\)\)$/,
    );
    expect((rejection as RateLimitError).rateLimit?.reset.getTime()).toBe((Math.floor(NOW / 1000) + 120) * 1000);
    expect(clock.sleeps).toEqual([]);
    expect(state.calls).toBe(1);
  });

  it('waits for a reset just inside maxDelayMs, trimming the jitter to maxDelayMs (never below the reset)', async () => {
    const clock = createFakeClock(NOW);
    const { attempt } = failingThen(apiError(429, rateLimitHeaders(2)));
    await expect(run(attempt, clock, { policy: { maxRetries: 3, maxDelayMs: 1_600 }, random: () => 0.99 })).resolves.toBe('ok');
    expect(clock.sleeps).toEqual([1_600]);
  });

  it('throws at once when Retry-After asks for longer than maxDelayMs', async () => {
    const clock = createFakeClock(NOW);
    const error = apiError(429, { 'retry-after': '5' });
    const { state, attempt } = failingThen(error);
    await expect(run(attempt, clock, { policy: { maxRetries: 3, maxDelayMs: 1000 } })).rejects.toMatchObject({
      status: 429,
      message: expect.stringContaining('not retried: the wait is longer than retry.maxDelayMs (1000 ms)'),
    });
    expect(clock.sleeps).toEqual([]);
    expect(state.calls).toBe(1);
  });

  it('caps a backoff (which the server did not ask for) at maxDelayMs instead of throwing', async () => {
    const clock = createFakeClock(NOW);
    const { attempt } = failingThen(apiError(503), apiError(503), apiError(503));
    await expect(run(attempt, clock, { policy: { maxRetries: 3, maxDelayMs: 600 }, random: () => 0.999_999 })).resolves.toBe('ok');
    expect(clock.sleeps).toEqual([500, 600, 600]);
  });

  it('honours 429 from the Authentication API as well', async () => {
    const clock = createFakeClock(NOW);
    const received = new Headers({ ...rateLimitHeaders(3) });
    const error = new AuthApiError({
      status: 429,
      error: 'too_many_requests',
      errorDescription: undefined,
      body: undefined,
      headers: Object.fromEntries(received.entries()),
      rateLimit: parseRateLimit(received),
    });
    await run(failingThen(error).attempt, clock, { idempotent: false, random: () => 0 });
    expect(clock.sleeps).toEqual([2500]);
  });
});

describe('withRetry limits', () => {
  it('makes at most maxRetries + 1 attempts and then throws the last error, saying the retries ran out', async () => {
    const clock = createFakeClock(NOW);
    const errors = [apiError(429), apiError(429), apiError(429), apiError(429)];
    const { state, attempt } = failingThen(...errors);
    await expect(run(attempt, clock, { policy: { maxRetries: 2, maxDelayMs: 60_000 } })).rejects.toMatchObject({
      status: 429,
      message: expect.stringMatching(/^HTTP 429 \(the limit resets at .+, in \d+ s; still limited after 2 retries\)$/),
    });
    expect(state.calls).toBe(3);
    expect(clock.sleeps).toHaveLength(2);
    const { attempt: notLimited } = failingThen(apiError(503), apiError(503), apiError(503));
    await expect(run(notLimited, clock, { policy: { maxRetries: 2, maxDelayMs: 60_000 } })).rejects.toMatchObject({ message: 'HTTP 503' });
  });

  it('makes exactly one attempt with maxRetries 0', async () => {
    const clock = createFakeClock(NOW);
    const { state, attempt } = failingThen(apiError(429, rateLimitHeaders(1)));
    await expect(run(attempt, clock, { policy: resolveRetryPolicy(false) })).rejects.toBeInstanceOf(RateLimitError);
    expect(state.calls).toBe(1);
    expect(clock.sleeps).toEqual([]);
  });
});

describe('withRetry on server and network faults', () => {
  it.each([502, 503, 504])('retries %i for idempotent requests', async (status) => {
    const clock = createFakeClock(NOW);
    const { state, attempt } = failingThen(apiError(status));
    await expect(run(attempt, clock, { idempotent: true })).resolves.toBe('ok');
    expect(state.calls).toBe(2);
  });

  it.each([502, 503, 504])('does not retry %i for non-idempotent requests', async (status) => {
    const clock = createFakeClock(NOW);
    const error = apiError(status);
    const { state, attempt } = failingThen(error);
    await expect(run(attempt, clock, { idempotent: false })).rejects.toBe(error);
    expect(state.calls).toBe(1);
    expect(clock.sleeps).toEqual([]);
  });

  it('does not retry 500', async () => {
    const clock = createFakeClock(NOW);
    const { state, attempt } = failingThen(apiError(500));
    await expect(run(attempt, clock)).rejects.toMatchObject({ status: 500 });
    expect(state.calls).toBe(1);
  });

  it.each([
    ['NetworkError', new NetworkError('GET /x failed: fetch failed')],
    ['TimeoutError', new TimeoutError('GET /x timed out after 10 ms')],
  ])('retries a %s only when the request is idempotent', async (_name, error) => {
    const idempotent = failingThen(error);
    await expect(run(idempotent.attempt, createFakeClock(NOW), { idempotent: true })).resolves.toBe('ok');
    expect(idempotent.state.calls).toBe(2);

    const once = failingThen(error);
    await expect(run(once.attempt, createFakeClock(NOW), { idempotent: false })).rejects.toBe(error);
    expect(once.state.calls).toBe(1);
  });

  it.each([
    [400, BadRequestError],
    [401, UnauthorizedError],
    [404, NotFoundError],
  ])('does not retry %i', async (status, errorClass) => {
    const clock = createFakeClock(NOW);
    const { state, attempt } = failingThen(apiError(status));
    await expect(run(attempt, clock)).rejects.toBeInstanceOf(errorClass);
    expect(state.calls).toBe(1);
    expect(clock.sleeps).toEqual([]);
  });

  it('does not retry errors that are not the SDK’s', async () => {
    const error = new Error('bug in a callback');
    const { state, attempt } = failingThen(error);
    await expect(run(attempt, createFakeClock(NOW))).rejects.toBe(error);
    expect(state.calls).toBe(1);
  });
});

describe('withRetry and AbortSignal', () => {
  it('rejects with the signal’s reason as soon as it aborts during a wait, and makes no further attempt', async () => {
    const clock = createFakeClock(NOW, { holdSleeps: true });
    const controller = new AbortController();
    const { state, attempt } = failingThen(apiError(429, rateLimitHeaders(30)));
    const result = run(attempt, clock, { signal: controller.signal });
    await clock.nextSleep();
    const reason = new Error('caller gave up');
    controller.abort(reason);
    await expect(result).rejects.toBe(reason);
    expect(state.calls).toBe(1);
  });
});

describe('retryWait', () => {
  const clock = createFakeClock(NOW);

  it('answers undefined for errors not worth a retry', () => {
    expect(retryWait(apiError(400), 1, { idempotent: true, clock })).toBeUndefined();
    expect(retryWait(apiError(503), 1, { idempotent: false, clock })).toBeUndefined();
    expect(retryWait(new NetworkError('x'), 1, { idempotent: false, clock })).toBeUndefined();
    expect(retryWait('not an error', 1, { idempotent: true, clock })).toBeUndefined();
  });

  it('says how much of a wait the server demands, and none for backoff', () => {
    expect(retryWait(apiError(429, { 'retry-after': '2' }), 1, { idempotent: true, clock })).toEqual({ ms: 2000, mandatedMs: 2000 });
    expect(retryWait(apiError(503), 2, { idempotent: true, clock, random: () => 0 })).toEqual({ ms: 500, mandatedMs: 0 });
  });

  it('demands only the time until the reset; the jitter on top is not demanded', () => {
    const wait = retryWait(apiError(429, rateLimitHeaders(3)), 1, { idempotent: true, clock, random: () => 0.99 });
    expect(wait?.mandatedMs).toBe(2_500);
    expect(wait?.ms).toBe(2_500 + 247);
  });

  it('honours a lone X-RateLimit-Reset without the other two headers', () => {
    const reset = String(Math.floor(NOW / 1000) + 10);
    expect(retryWait(apiError(429, { 'x-ratelimit-reset': reset }), 1, { idempotent: true, clock, random: () => 0 })).toEqual({
      ms: 9_500,
      mandatedMs: 9_500,
    });
  });

  it.each(['soon', '1.5', '-1', '0.5', '+5', '5, 10', '2024-01-01', 'Mon, 1 Jan 2024'])(
    'ignores a Retry-After it cannot read (%s) and backs off instead',
    (retryAfter) => {
      expect(retryWait(apiError(429, { 'retry-after': retryAfter }), 1, { idempotent: true, clock, random: () => 0 })).toEqual({
        ms: 250,
        mandatedMs: 0,
      });
    },
  );

  it.each([
    ['IMF-fixdate', 'Tue, 14 Nov 2023 22:13:30 GMT'],
    ['RFC 850', 'Tuesday, 14-Nov-23 22:13:30 GMT'],
    ['asctime, read as UTC', 'Tue Nov 14 22:13:30 2023'],
  ])('reads a Retry-After HTTP date in the %s form', (_form, retryAfter) => {
    // NOW is 2023-11-14T22:13:20.500Z
    expect(retryWait(apiError(429, { 'retry-after': retryAfter }), 1, { idempotent: true, clock })).toEqual({
      ms: 9_500,
      mandatedMs: 9_500,
    });
  });
});

describe('resolveRetryPolicy', () => {
  it('defaults to 3 retries and a 60 s longest wait', () => {
    expect(resolveRetryPolicy(undefined)).toEqual({ maxRetries: 3, maxDelayMs: 60_000 });
    expect(resolveRetryPolicy({ maxRetries: 5 })).toEqual({ maxRetries: 5, maxDelayMs: 60_000 });
  });

  it('turns `retry: false` into maxRetries 0', () => {
    expect(resolveRetryPolicy(false).maxRetries).toBe(0);
  });

  it('refuses a negative or fractional maxRetries and a negative maxDelayMs', () => {
    expect(() => resolveRetryPolicy({ maxRetries: -1 })).toThrow(ConfigurationError);
    expect(() => resolveRetryPolicy({ maxRetries: 1.5 })).toThrow(ConfigurationError);
    expect(() => resolveRetryPolicy({ maxDelayMs: -1 })).toThrow(ConfigurationError);
  });

  it('refuses what is neither an object nor false (`retry: 0` from plain JavaScript is not the defaults)', () => {
    for (const given of [0, 1, true, 'no', null, [], () => {}]) {
      expect(() => resolveRetryPolicy(given as never)).toThrow(/retry must be \{ maxRetries\?, maxDelayMs\? \} or false/);
    }
  });
});
