import { HttpResponse, http } from 'msw';
import { describe, expect, it, vi } from 'vitest';
import * as z from 'zod/mini';
import {
  ApiError,
  BadRequestError,
  NetworkError,
  NotFoundError,
  RateLimitError,
  ServerError,
  TimeoutError,
  UnauthorizedError,
} from '../../src/core/errors.js';
import type { FetchLike, ResponseInfo } from '../../src/core/options.js';
import { resolveRetryPolicy } from '../../src/core/options.js';
import { callerTokenProvider, type TokenProvider } from '../../src/core/tokens/provider.js';
import { Transport } from '../../src/core/transport.js';
import { createFakeClock } from '../helpers/clock.js';
import { API, recordRequests, useMswServer } from '../helpers/server.js';

const server = useMswServer();
const requests = recordRequests(server);
const Body = z.object({ ok: z.boolean() });

interface Overrides {
  tokens?: TokenProvider;
  onResponse?: (info: ResponseInfo) => void;
  maxRetries?: number;
  maxDelayMs?: number;
  holdSleeps?: boolean;
  fetch?: FetchLike;
}

function transport(overrides: Overrides = {}) {
  requests.length = 0;
  const clock = createFakeClock(Date.UTC(2026, 0, 1), { holdSleeps: overrides.holdSleeps ?? false });
  const instance = new Transport({
    baseUrl: API,
    tokens: overrides.tokens ?? callerTokenProvider('token-1'),
    retry: resolveRetryPolicy({ maxRetries: overrides.maxRetries ?? 3, maxDelayMs: overrides.maxDelayMs ?? 60_000 }),
    timeoutMs: 1_000,
    validateResponses: true,
    clock,
    onResponse: overrides.onResponse,
    fetch: overrides.fetch,
  });
  return { instance, clock };
}

const get = (instance: Transport, options?: { signal?: AbortSignal; timeoutMs?: number }) =>
  instance.request({ method: 'GET', path: 'things', schema: Body, options });

const errorBody = (statusCode: number, error: string, message: string, errorCode?: string) =>
  HttpResponse.json({ statusCode, error, message, errorCode }, { status: statusCode });

describe('Transport', () => {
  it('maps each status to its error class with the body fields, method and path', async () => {
    const cases = [
      [400, BadRequestError],
      [401, UnauthorizedError],
      [404, NotFoundError],
      [418, ApiError],
    ] as const;
    for (const [status, ErrorClass] of cases) {
      server.use(http.get(`${API}/things`, () => errorBody(status, 'Some Error', `failed with ${status}`, 'some_code')));
      const error = await get(transport().instance).catch((caught: unknown) => caught);
      expect(error).toBeInstanceOf(ErrorClass);
      expect(error).toMatchObject({
        status,
        error: 'Some Error',
        message: `failed with ${status}`,
        errorCode: 'some_code',
        method: 'GET',
        path: '/things',
      });
    }
  });

  it('tolerates a non-JSON error body', async () => {
    server.use(http.get(`${API}/things`, () => new HttpResponse('<html>Bad gateway</html>', { status: 502, statusText: 'Bad Gateway' })));
    const error = await get(transport({ maxRetries: 0 }).instance).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ServerError);
    expect(error).toMatchObject({ status: 502, error: 'Bad Gateway', body: '<html>Bad gateway</html>' });
  });

  it('parses X-RateLimit-* on every response and reports it to onResponse', async () => {
    const reset = Math.floor(Date.UTC(2026, 0, 1) / 1000) + 30;
    server.use(
      http.get(`${API}/things`, () =>
        HttpResponse.json(
          { ok: true },
          { headers: { 'x-ratelimit-limit': '50', 'x-ratelimit-remaining': '49', 'x-ratelimit-reset': String(reset) } },
        ),
      ),
    );
    const onResponse = vi.fn();
    await get(transport({ onResponse }).instance);
    expect(onResponse).toHaveBeenCalledWith({
      method: 'GET',
      path: '/things',
      status: 200,
      rateLimit: { limit: 50, remaining: 49, reset: new Date(reset * 1000) },
    });
  });

  describe('429', () => {
    function rateLimitedOnce(resetInSeconds: number) {
      let calls = 0;
      server.use(
        http.get(`${API}/things`, () => {
          calls += 1;
          if (calls > 1) return HttpResponse.json({ ok: true });
          const reset = Math.floor(Date.UTC(2026, 0, 1) / 1000) + resetInSeconds;
          return HttpResponse.json(
            { statusCode: 429, error: 'Too Many Requests', message: 'Global limit has been reached' },
            { status: 429, headers: { 'x-ratelimit-limit': '10', 'x-ratelimit-remaining': '0', 'x-ratelimit-reset': String(reset) } },
          );
        }),
      );
    }

    it('waits until X-RateLimit-Reset, never earlier, then succeeds', async () => {
      rateLimitedOnce(7);
      const { instance, clock } = transport();
      await expect(get(instance)).resolves.toEqual({ ok: true });
      expect(requests).toHaveLength(2);
      expect(clock.sleeps).toHaveLength(1);
      expect(clock.sleeps[0]).toBeGreaterThanOrEqual(7_000);
      expect(clock.sleeps[0]).toBeLessThan(7_250);
    });

    it('throws RateLimitError at once, carrying the reset, when the wait exceeds maxDelayMs', async () => {
      rateLimitedOnce(120);
      const { instance, clock } = transport({ maxDelayMs: 60_000 });
      const error = await get(instance).catch((caught: unknown) => caught);
      expect(error).toBeInstanceOf(RateLimitError);
      expect((error as RateLimitError).rateLimit?.reset).toEqual(new Date(Date.UTC(2026, 0, 1) + 120_000));
      expect(clock.sleeps).toEqual([]);
      expect(requests).toHaveLength(1);
    });

    it('gives up after maxRetries retries with the last RateLimitError', async () => {
      server.use(http.get(`${API}/things`, () => errorBody(429, 'Too Many Requests', 'slow down')));
      const error = await get(transport({ maxRetries: 2 }).instance).catch((caught: unknown) => caught);
      expect(error).toBeInstanceOf(RateLimitError);
      expect(requests).toHaveLength(3);
    });

    it('is retried for non-idempotent methods too', async () => {
      let calls = 0;
      server.use(
        http.post(`${API}/things`, () =>
          ++calls === 1 ? errorBody(429, 'Too Many Requests', 'slow down') : HttpResponse.json({ ok: true }),
        ),
      );
      const { instance } = transport();
      await expect(instance.request({ method: 'POST', path: 'things', body: { json: {} }, schema: Body })).resolves.toEqual({ ok: true });
    });

    it('stops waiting when the signal aborts, with the signal reason, and sends nothing more', async () => {
      rateLimitedOnce(5);
      const controller = new AbortController();
      const { instance, clock } = transport({ holdSleeps: true });
      const outcome = get(instance, { signal: controller.signal }).catch((caught: unknown) => caught);
      await clock.nextSleep();
      controller.abort(new Error('caller gave up'));
      expect(await outcome).toEqual(new Error('caller gave up'));
      expect(requests).toHaveLength(1);
    });
  });

  describe('5xx and network errors', () => {
    const methods = ['GET', 'PUT', 'DELETE', 'POST', 'PATCH'] as const;
    it.each(methods)('%s: retries 503 only when the method is idempotent', async (method) => {
      let calls = 0;
      server.use(
        http.all(`${API}/things`, () => (++calls === 1 ? errorBody(503, 'Service Unavailable', 'down') : HttpResponse.json({ ok: true }))),
      );
      const outcome = await transport()
        .instance.request({ method, path: 'things', schema: Body })
        .catch((caught: unknown) => caught);
      if (method === 'POST' || method === 'PATCH') {
        expect(outcome).toBeInstanceOf(ServerError);
        expect(requests).toHaveLength(1);
      } else {
        expect(outcome).toEqual({ ok: true });
        expect(requests).toHaveLength(2);
      }
    });

    it('does not retry 500 or 400', async () => {
      for (const status of [500, 400]) {
        server.use(http.get(`${API}/things`, () => errorBody(status, 'Error', 'no')));
        await expect(get(transport().instance)).rejects.toBeInstanceOf(ApiError);
        expect(requests).toHaveLength(1);
      }
    });

    it('retries a network error on GET and throws NetworkError when it persists', async () => {
      server.use(http.get(`${API}/things`, () => HttpResponse.error()));
      const error = await get(transport({ maxRetries: 2 }).instance).catch((caught: unknown) => caught);
      expect(error).toBeInstanceOf(NetworkError);
      expect(requests).toHaveLength(3);
    });

    it('throws TimeoutError when an attempt outlives timeoutMs', async () => {
      vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
      try {
        server.use(http.get(`${API}/things`, () => new Promise<never>(() => {})));
        const outcome = get(transport({ maxRetries: 0 }).instance, { timeoutMs: 5_000 }).catch((caught: unknown) => caught);
        await vi.advanceTimersByTimeAsync(5_001);
        expect(await outcome).toBeInstanceOf(TimeoutError);
      } finally {
        vi.useRealTimers();
      }
    });
  });

  describe('401', () => {
    function tokens(): TokenProvider & { issued: string[] } {
      let count = 0;
      const issued: string[] = [];
      const rejected = new Set<string>();
      return {
        issued,
        getToken: async () => {
          const token = `token-${++count}`;
          issued.push(token);
          return token;
        },
        reject: (token) => !rejected.has(token) && Boolean(rejected.add(token)),
      };
    }

    it('replays once with a fresh token when the provider issued the rejected one', async () => {
      server.use(
        http.get(`${API}/things`, ({ request }) =>
          request.headers.get('authorization') === 'Bearer token-1'
            ? errorBody(401, 'Unauthorized', 'Expired token')
            : HttpResponse.json({ ok: true }),
        ),
      );
      const provider = tokens();
      await expect(get(transport({ tokens: provider }).instance)).resolves.toEqual({ ok: true });
      expect(requests.map((request) => request.headers.get('authorization'))).toEqual(['Bearer token-1', 'Bearer token-2']);
    });

    it('replays only once', async () => {
      server.use(http.get(`${API}/things`, () => errorBody(401, 'Unauthorized', 'Invalid token')));
      await expect(get(transport({ tokens: tokens() }).instance)).rejects.toBeInstanceOf(UnauthorizedError);
      expect(requests).toHaveLength(2);
    });

    it('does not replay a caller-given token', async () => {
      server.use(http.get(`${API}/things`, () => errorBody(401, 'Unauthorized', 'Invalid token')));
      await expect(get(transport().instance)).rejects.toBeInstanceOf(UnauthorizedError);
      expect(requests).toHaveLength(1);
    });
  });

  describe('bearer header', () => {
    const ok = () => server.use(http.get(`${API}/things`, () => HttpResponse.json({ ok: true })));
    it("sends the token with and without caller headers, and a caller's Authorization never wins", async () => {
      ok();
      const { instance } = transport();
      await get(instance);
      await instance.request({
        method: 'GET',
        path: 'things',
        schema: Body,
        options: { headers: { Authorization: 'Bearer mine', 'x-trace': 't1' } },
      });
      await get(instance);
      expect(requests.map((request) => [request.headers.get('authorization'), request.headers.get('x-trace')])).toEqual([
        ['Bearer token-1', null],
        ['Bearer token-1', 't1'],
        ['Bearer token-1', null],
      ]);
    });
  });
});
