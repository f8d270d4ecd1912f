import { HttpResponse, http } from 'msw';
import { afterEach, describe, expect, it, vi } from 'vitest';
import * as z from 'zod/mini';
import { systemClock } from '../../../src/core/clock.js';
import { IdPlatformError, NetworkError, RequestValidationError, TimeoutError } from '../../../src/core/errors.js';
import { callAuthApi } from '../../../src/core/http/auth-api.js';
import { type Answer, Sender, type SenderCall, type SenderSettings } from '../../../src/core/http/sender.js';
import type { FetchLike } from '../../../src/core/options.js';
import { resolveRetryPolicy } from '../../../src/core/options.js';
import { VERSION } from '../../../src/version.js';
import { freePort } from '../../helpers/redis-server.js';
import { API, recordRequests, useMswServer } from '../../helpers/server.js';

const server = useMswServer();
const requests = recordRequests(server);

afterEach(() => {
  requests.length = 0;
  vi.useRealTimers();
});

function sender(settings: Partial<SenderSettings> = {}): Sender {
  return new Sender({ prefixUrl: API, timeoutMs: 1000, retry: resolveRetryPolicy(false), clock: systemClock, ...settings });
}

/** Sends a call whose `read` hands the answer over as it is. */
function exchange(on: Sender, call: Partial<SenderCall<Answer>> = {}): Promise<Answer> {
  return on.send<Answer>({ method: 'GET', path: 'things', prepare: () => ({ secrets: [] }), read: (answer) => answer, ...call });
}

/** A fetch that never answers; like the real one, it rejects with the abort reason once its signal (`init`'s, else the request's) aborts. */
const hangingFetch: FetchLike = (request, init) =>
  new Promise<Response>((_resolve, reject) => {
    const signal = init?.signal ?? request.signal;
    if (signal.aborted) reject(signal.reason);
    signal.addEventListener('abort', () => reject(signal.reason), { once: true });
  });

/** A response whose body sends half a JSON document, then stalls. */
const stalledBody: FetchLike = async () =>
  new Response(new ReadableStream({ start: (controller) => controller.enqueue(new TextEncoder().encode('{"half":')) }), { status: 200 });

describe('Sender', () => {
  it('sends Accept: application/json and a User-Agent naming the SDK and Node', async () => {
    server.use(http.get(`${API}/things`, () => HttpResponse.json({ ok: true })));
    const { response, body } = await exchange(sender());
    expect(response.status).toBe(200);
    expect(body).toEqual({ ok: true });
    expect(requests[0]?.headers.get('accept')).toBe('application/json');
    expect(requests[0]?.headers.get('user-agent')).toBe(`idplatform/${VERSION} node/${process.versions.node}`);
  });

  it("sends the query, the client's and the call's headers and a JSON body", async () => {
    server.use(http.post(`${API}/things`, () => HttpResponse.json({})));
    await exchange(sender({ headers: { 'x-client-header': 'c' } }), {
      method: 'POST',
      query: new URLSearchParams({ page: '2', q: 'a b' }),
      options: { headers: { 'X-Call-Header': 'd' } },
      prepare: () => ({ body: { json: { message_types: ['sms'] } }, secrets: [] }),
    });
    const [request] = requests;
    expect(request?.url).toBe(`${API}/things?page=2&q=a+b`);
    expect(request?.headers.get('x-client-header')).toBe('c');
    expect(request?.headers.get('x-call-header')).toBe('d');
    expect(request?.headers.get('content-type')).toMatch(/^application\/json/);
    expect(await request?.json()).toEqual({ message_types: ['sms'] });
  });

  it('sends a form body as application/x-www-form-urlencoded, whatever Content-Type the headers name', async () => {
    server.use(http.put(`${API}/things`, () => HttpResponse.json({})));
    await exchange(sender({ headers: { 'content-type': 'application/json' } }), {
      method: 'PUT',
      prepare: () => ({ body: { form: new URLSearchParams([['message_types', 'sms']]) }, secrets: [] }),
    });
    expect(requests[0]?.headers.get('content-type')).toMatch(/^application\/x-www-form-urlencoded/);
    expect(await requests[0]?.text()).toBe('message_types=sms');
  });

  it('reads a non-2xx answer too, JSON whatever its content type, text as it is, and nothing as undefined', async () => {
    const answers = [
      HttpResponse.json({ error: 'Not Found' }, { status: 404 }),
      new HttpResponse('[1]', { headers: { 'content-type': 'text/plain' } }),
      new HttpResponse('<html>Bad gateway</html>', { status: 502 }),
      new HttpResponse(null, { status: 204 }),
    ];
    server.use(http.get(`${API}/things`, () => answers.shift()));
    const on = sender();
    const bodies = [];
    for (let i = 0; i < 4; i++) bodies.push((await exchange(on)).body);
    expect(bodies).toEqual([{ error: 'Not Found' }, [1], '<html>Bad gateway</html>', undefined]);
  });

  it('refuses bad call options before anything is sent: RequestValidationError naming the option', async () => {
    const on = sender({ fetch: hangingFetch });
    const cases: [Record<string, unknown>, string][] = [
      [{ timeoutMs: 0 }, 'timeoutMs'],
      [{ signal: 'stop' }, 'signal'],
      [{ retry: { maxRetries: -1 } }, 'retry'],
      [{ headers: 'x-a: b' }, 'headers'],
    ];
    for (const [options, name] of cases) {
      const error = await exchange(on, { options }).catch((caught: unknown) => caught);
      expect(error).toBeInstanceOf(RequestValidationError);
      expect((error as RequestValidationError).issues[0]?.path[0]).toBe(name);
    }
  });

  it('makes no attempt when the signal is already aborted, and rejects with its reason', async () => {
    const reason = new Error('too late');
    const prepare = vi.fn(() => ({ secrets: [] }));
    await expect(exchange(sender({ fetch: hangingFetch }), { prepare, options: { signal: AbortSignal.abort(reason) } })).rejects.toBe(
      reason,
    );
    expect(prepare).not.toHaveBeenCalled();
  });

  it('rejects with NetworkError naming the method, host and path, with the runtime’s error as cause, when fetch fails', async () => {
    server.use(http.get(`${API}/things`, () => HttpResponse.error()));
    const error = await exchange(sender()).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(NetworkError);
    expect((error as NetworkError).message).toBe('GET tenant.test /api/v2/things failed: Failed to fetch');
    expect((error as NetworkError).cause).toMatchObject({ message: 'Failed to fetch' });
  });

  it('names the root cause code of a refused connection, and keeps the runtime’s own error as cause', async () => {
    server.close();
    try {
      const port = await freePort();
      const error = await exchange(sender({ prefixUrl: `http://127.0.0.1:${port}/api/v2` })).catch((caught: unknown) => caught);
      expect((error as NetworkError).message).toMatch(new RegExp(`^GET 127\\.0\\.0\\.1:${port} /api/v2/things failed: ECONNREFUSED \\(`));
      expect((error as NetworkError).cause).toBeInstanceOf(TypeError);
    } finally {
      server.listen({ onUnhandledRequest: 'error' });
    }
  });

  it.each([
    [
      'a body already read',
      async () => {
        const used = new Response('{"a":1}');
        await used.text();
        return used;
      },
    ],
    ['something that is not a Response', async () => ({ status: 200, ok: true }) as unknown as Response],
    [
      'an SDK error of its own, thrown',
      async (): Promise<Response> => {
        throw new TimeoutError('its own timeout');
      },
    ],
  ])('rejects with NetworkError when a custom fetch answers with %s (no answer of the server)', async (_, fetch) => {
    await expect(exchange(sender({ fetch }))).rejects.toBeInstanceOf(NetworkError);
  });

  describe('one timer per attempt', () => {
    it('rejects with the SDK’s TimeoutError when an attempt takes longer than timeoutMs', async () => {
      vi.useFakeTimers();
      const result = exchange(sender({ fetch: hangingFetch, timeoutMs: 50 }));
      const assertion = expect(result).rejects.toSatisfy(
        (error) =>
          error instanceof TimeoutError &&
          error.message === 'GET /things timed out after 50 ms' &&
          (error.cause as Error).name === 'TimeoutError',
      );
      await vi.advanceTimersByTimeAsync(50);
      await assertion;
    });

    it('aborts the signal a custom fetch is given in init when the attempt times out, with the timeout as reason', async () => {
      vi.useFakeTimers();
      const signals: (AbortSignal | null | undefined)[] = [];
      const fetch: FetchLike = (request, init) => {
        signals.push(init?.signal);
        return hangingFetch(request, init);
      };
      const assertion = expect(exchange(sender({ fetch, timeoutMs: 50 }))).rejects.toBeInstanceOf(TimeoutError);
      await vi.advanceTimersByTimeAsync(50);
      await assertion;
      expect(signals).toHaveLength(1);
      expect(signals[0]).toSatisfy((signal: AbortSignal | undefined) => signal?.aborted === true && signal.reason.name === 'TimeoutError');
    });

    it('covers reading the body, even when the body ignores the signal', async () => {
      vi.useFakeTimers();
      const result = exchange(sender({ fetch: stalledBody, timeoutMs: 300 }));
      const assertion = expect(result).rejects.toBeInstanceOf(TimeoutError);
      await vi.advanceTimersByTimeAsync(300);
      await assertion;
    });

    it('covers the preparation of the attempt (a signing that hangs): nothing is sent', async () => {
      vi.useFakeTimers();
      const fetch = vi.fn(hangingFetch);
      const result = exchange(sender({ fetch }), { method: 'POST', prepare: () => new Promise(() => {}) });
      const assertion = expect(result).rejects.toBeInstanceOf(TimeoutError);
      await vi.advanceTimersByTimeAsync(999);
      expect(fetch).not.toHaveBeenCalled();
      await vi.advanceTimersByTimeAsync(1);
      await assertion;
      expect(fetch).not.toHaveBeenCalled();
    });

    it("uses the call's own timeoutMs over the client's", async () => {
      vi.useFakeTimers();
      const result = exchange(sender({ fetch: hangingFetch, timeoutMs: 60_000 }), { options: { timeoutMs: 20 } });
      const assertion = expect(result).rejects.toThrow('GET /things timed out after 20 ms');
      await vi.advanceTimersByTimeAsync(20);
      await assertion;
    });

    it('cancels the body of a response a signal-ignoring fetch hands over after the timeout', async () => {
      vi.useFakeTimers();
      let cancelled = false;
      const body = new ReadableStream<Uint8Array>({
        cancel: () => {
          cancelled = true;
        },
      });
      const deaf: FetchLike = () => new Promise((resolve) => setTimeout(() => resolve(new Response(body)), 200));
      const assertion = expect(exchange(sender({ fetch: deaf, timeoutMs: 100 }))).rejects.toBeInstanceOf(TimeoutError);
      await vi.advanceTimersByTimeAsync(200);
      await assertion;
      expect(cancelled).toBe(true);
    });
  });

  describe("the caller's signal", () => {
    it('ends the attempt at once with its reason, not a TimeoutError, even with a fetch that ignores signals', async () => {
      const deaf: FetchLike = () => new Promise(() => {});
      const controller = new AbortController();
      const reason = new Error('caller gave up');
      const result = exchange(sender({ fetch: deaf, timeoutMs: 60_000 }), { options: { signal: controller.signal } });
      setTimeout(() => controller.abort(reason), 5);
      await expect(result).rejects.toBe(reason);
    });

    it('ends a read of the body with its reason', async () => {
      const controller = new AbortController();
      const reason = new Error('caller gave up');
      const result = exchange(sender({ fetch: stalledBody, timeoutMs: 60_000 }), { options: { signal: controller.signal } });
      setTimeout(() => controller.abort(reason), 5);
      await expect(result).rejects.toBe(reason);
    });

    it('carries one listener of the SDK however many calls share it, and none of theirs once they are done', async () => {
      server.use(http.get(`${API}/things`, () => HttpResponse.json({})));
      const controller = new AbortController();
      const added = vi.spyOn(controller.signal, 'addEventListener');
      const on = sender();
      await Promise.all(Array.from({ length: 30 }, () => exchange(on, { options: { signal: controller.signal } })));
      expect(added).toHaveBeenCalledTimes(1);
    });
  });

  describe('onResponse', () => {
    it('is told of every response, with its method, path, status and rate limit', async () => {
      const reset = Math.floor(Date.now() / 1000) + 30;
      const headers = { 'x-ratelimit-limit': '10', 'x-ratelimit-remaining': '9', 'x-ratelimit-reset': String(reset) };
      server.use(http.get(`${API}/things`, () => HttpResponse.json({}, { headers })));
      const onResponse = vi.fn();
      await exchange(sender({ onResponse }));
      expect(onResponse).toHaveBeenCalledWith({
        method: 'GET',
        path: '/things',
        status: 200,
        rateLimit: { limit: 10, remaining: 9, reset: new Date(reset * 1000) },
      });
    });

    it('that throws fails the call with an SDK error whose cause is what it threw', async () => {
      server.use(http.get(`${API}/things`, () => HttpResponse.json({})));
      const thrown = new Error('hook broke');
      const onResponse = () => {
        throw thrown;
      };
      const error = await exchange(sender({ onResponse })).catch((caught: unknown) => caught);
      expect(error).toBeInstanceOf(IdPlatformError);
      expect((error as Error).cause).toBe(thrown);
    });

    it('that is async is not waited for, and its rejection is never unhandled', async () => {
      server.use(http.get(`${API}/things`, () => HttpResponse.json({ ok: true })));
      const unhandled = vi.fn();
      process.on('unhandledRejection', unhandled);
      try {
        const onResponse = async () => Promise.reject(new Error('async hook broke'));
        await expect(exchange(sender({ onResponse }))).resolves.toMatchObject({ body: { ok: true } });
        await new Promise((resolve) => setImmediate(resolve));
        expect(unhandled).not.toHaveBeenCalled();
      } finally {
        process.off('unhandledRejection', unhandled);
      }
    });
  });
});

describe('callAuthApi', () => {
  it('answers the body checked against its schema, and a non-2xx as AuthApiError', async () => {
    const answers = [
      HttpResponse.json({ sub: 'u1' }),
      HttpResponse.json({ error: 'invalid_token', error_description: 'expired' }, { status: 401 }),
    ];
    server.use(http.get(`${API}/userinfo`, () => answers.shift()));
    const on = { sender: sender() };
    const call = { method: 'GET', path: 'userinfo', schema: z.object({ sub: z.string() }), prepare: () => ({ secrets: [] }) } as const;
    await expect(callAuthApi(on, call)).resolves.toEqual({ sub: 'u1' });
    await expect(callAuthApi(on, call)).rejects.toMatchObject({
      name: 'AuthApiError',
      status: 401,
      error: 'invalid_token',
      errorDescription: 'expired',
    });
  });
});
