import { HttpResponse, http } from 'msw';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { NetworkError, ResponseValidationError, TimeoutError } from '../../src/core/errors.js';
import { createHttpClient, exchange, type FetchLike, headersToRecord, isRedirect } from '../../src/core/http.js';
import { BodyRead, MAX_RESPONSE_BODY_BYTES } from '../../src/core/response-body.js';
import { VERSION } from '../../src/version.js';
import { API, recordRequests, useMswServer } from '../helpers/server.js';

const server = useMswServer();
const requests = recordRequests(server);

afterEach(() => {
  requests.length = 0;
  vi.useRealTimers();
});

/** A fetch that never answers; like the real one, it rejects with the abort reason once the request's signal aborts. */
const hangingFetch: FetchLike = (request) =>
  new Promise<Response>((_resolve, reject) => {
    if (request.signal.aborted) reject(request.signal.reason);
    request.signal.addEventListener('abort', () => reject(request.signal.reason), { once: true });
  });

describe('exchange', () => {
  it('sends Accept: application/json and a User-Agent naming the SDK and Node', async () => {
    server.use(http.get(`${API}/things`, () => HttpResponse.json({ ok: true })));
    const { response, body } = await exchange(createHttpClient({ prefixUrl: API }), { method: 'GET', path: 'things', timeoutMs: 1000 });
    expect(response.status).toBe(200);
    expect(body).toEqual({ ok: true });
    const [request] = requests;
    expect(request?.headers.get('accept')).toBe('application/json');
    expect(request?.headers.get('user-agent')).toBe(`idplatform/${VERSION} node/${process.versions.node}`);
  });

  it('sends the query, extra headers and a JSON body', async () => {
    server.use(http.post(`${API}/things`, () => HttpResponse.json({})));
    const client = createHttpClient({ prefixUrl: API, headers: { 'x-client-header': 'c' } });
    await exchange(client, {
      method: 'POST',
      path: 'things',
      searchParams: new URLSearchParams({ page: '2', q: 'a b' }),
      body: { json: { message_types: ['sms'] } },
      headers: { 'x-call-header': 'd' },
      timeoutMs: 1000,
    });
    const [request] = requests;
    expect(request?.url).toBe(`${API}/things?page=2&q=a+b`);
    expect(request?.headers.get('x-client-header')).toBe('c');
    expect(request?.headers.get('x-call-header')).toBe('d');
    expect(request?.headers.get('content-type')).toMatch(/^application\/json/);
    expect(await request?.json()).toEqual({ message_types: ['sms'] });
  });

  it('sends a form body as application/x-www-form-urlencoded', async () => {
    server.use(http.put(`${API}/things`, () => HttpResponse.json({})));
    await exchange(createHttpClient({ prefixUrl: API }), {
      method: 'PUT',
      path: 'things',
      body: { form: new URLSearchParams([['message_types', 'sms']]) },
      timeoutMs: 1000,
    });
    const [request] = requests;
    expect(request?.headers.get('content-type')).toMatch(/^application\/x-www-form-urlencoded/);
    expect(await request?.text()).toBe('message_types=sms');
  });

  it('resolves with non-2xx responses instead of throwing', async () => {
    server.use(http.get(`${API}/things`, () => HttpResponse.json({ error: 'Not Found' }, { status: 404 })));
    const { response, body } = await exchange(createHttpClient({ prefixUrl: API }), { method: 'GET', path: 'things', timeoutMs: 1000 });
    expect(response.status).toBe(404);
    expect(body).toEqual({ error: 'Not Found' });
  });

  it('rejects with the SDK’s TimeoutError when an attempt takes longer than timeoutMs', async () => {
    vi.useFakeTimers();
    const client = createHttpClient({ prefixUrl: API, fetch: hangingFetch });
    const result = exchange(client, { method: 'GET', path: 'things', timeoutMs: 50 });
    const assertion = expect(result).rejects.toSatisfy(
      (error) =>
        error instanceof TimeoutError &&
        error.message === 'GET /things timed out after 50 ms' &&
        (error.cause as Error).name === 'TimeoutError',
    );
    await vi.advanceTimersByTimeAsync(50);
    await assertion;
  });

  it('counts reading the body against timeoutMs, even when fetch ignores the signal', async () => {
    vi.useFakeTimers();
    const stalledBody: FetchLike = async () =>
      new Response(new ReadableStream({ start: (controller) => controller.enqueue(new TextEncoder().encode('{"half":')) }), {
        status: 200,
      });
    const result = exchange(createHttpClient({ prefixUrl: API, fetch: stalledBody }), { method: 'GET', path: 'things', timeoutMs: 300 });
    const assertion = expect(result).rejects.toBeInstanceOf(TimeoutError);
    await vi.advanceTimersByTimeAsync(300);
    await assertion;
  });

  /** A response whose body sends half a JSON document, then stalls; `cancelled()` tells whether its stream was cancelled. */
  function stallingResponse() {
    let cancelled = false;
    const body = new ReadableStream<Uint8Array>({
      start: (controller) => controller.enqueue(new TextEncoder().encode('{"half":')),
      cancel: () => {
        cancelled = true;
      },
    });
    return { response: new Response(body, { status: 200 }), cancelled: () => cancelled };
  }

  it('cancels the body stream when the deadline passes while it is read (the runtime then closes the connection)', async () => {
    vi.useFakeTimers();
    const { response, cancelled } = stallingResponse();
    const client = createHttpClient({ prefixUrl: API, fetch: async () => response });
    const result = exchange(client, { method: 'GET', path: 'things', timeoutMs: 300 });
    const assertion = expect(result).rejects.toBeInstanceOf(TimeoutError);
    await vi.advanceTimersByTimeAsync(300);
    await assertion;
    expect(cancelled()).toBe(true);
  });

  it('cancels the body stream when the caller aborts while it is read, and rejects with the signal’s reason', async () => {
    const { response, cancelled } = stallingResponse();
    const controller = new AbortController();
    const reason = new Error('caller gave up');
    const client = createHttpClient({ prefixUrl: API, fetch: async () => response });
    const result = exchange(client, { method: 'GET', path: 'things', timeoutMs: 10_000, signal: controller.signal });
    // Abort once the body is being read: its stream is locked to the exchange's reader.
    await vi.waitFor(() => expect(response.body?.locked).toBe(true));
    controller.abort(reason);
    await expect(result).rejects.toBe(reason);
    expect(cancelled()).toBe(true);
  });

  it('rejects with the signal’s reason, not a TimeoutError, as soon as the caller aborts mid-flight', async () => {
    vi.useFakeTimers();
    const controller = new AbortController();
    const reason = new Error('caller gave up');
    const abortingFetch: FetchLike = (request, init) => {
      const response = hangingFetch(request, init);
      queueMicrotask(() => controller.abort(reason));
      return response;
    };
    const client = createHttpClient({ prefixUrl: API, fetch: abortingFetch });
    // No timer is advanced: only the abort can end this request.
    await expect(exchange(client, { method: 'GET', path: 'things', timeoutMs: 10_000, signal: controller.signal })).rejects.toBe(reason);
  });

  it('rejects with the reason of a signal aborted before sending', async () => {
    const reason = new Error('too late');
    const client = createHttpClient({ prefixUrl: API, fetch: hangingFetch });
    await expect(exchange(client, { method: 'GET', path: 'things', timeoutMs: 10_000, signal: AbortSignal.abort(reason) })).rejects.toBe(
      reason,
    );
  });

  it('rejects with NetworkError, holding the runtime’s error as cause, when fetch fails', async () => {
    server.use(http.get(`${API}/things`, () => HttpResponse.error()));
    const error = await exchange(createHttpClient({ prefixUrl: API }), { method: 'GET', path: 'things', timeoutMs: 1000 }).catch(
      (caught: unknown) => caught,
    );
    expect(error).toBeInstanceOf(NetworkError);
    expect((error as NetworkError).message).toMatch(/^GET tenant\.test \/api\/v2\/things failed: /);
    expect((error as NetworkError).cause).toBeInstanceOf(TypeError);
  });

  it('rejects with NetworkError when a custom fetch answers with a body already read', async () => {
    const used = new Response('{"a":1}');
    await used.text();
    const client = createHttpClient({ prefixUrl: API, fetch: async () => used });
    await expect(exchange(client, { method: 'GET', path: 'things', timeoutMs: 1000 })).rejects.toBeInstanceOf(NetworkError);
  });

  it('rejects with NetworkError, not a raw TypeError, when a custom fetch answers with something that is not a Response', async () => {
    const client = createHttpClient({ prefixUrl: API, fetch: async () => ({ status: 200, ok: true }) as unknown as Response });
    const error = await exchange(client, { method: 'GET', path: 'things', timeoutMs: 1000 }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(NetworkError);
    expect((error as NetworkError).message).toMatch(/^GET \/things failed while reading the response: /);
  });

  it.each([
    ['a body', () => new Response('{"late":true}')],
    ['no body (204)', () => new Response(null, { status: 204 })],
  ])('rejects with TimeoutError when a response with %s arrives after the deadline but before ky gives up', async (_, respond) => {
    vi.useFakeTimers();
    // ky starts its own timer 50 ms after the exchange's deadline (a slow beforeRequest hook), and
    // the response arrives between the two, at 120 ms of 100.
    const late: FetchLike = () => new Promise((resolve) => setTimeout(() => resolve(respond()), 70));
    const client = createHttpClient({ prefixUrl: API, fetch: late }).extend({
      hooks: { beforeRequest: [() => new Promise<void>((resolve) => setTimeout(resolve, 50))] },
    });
    const result = exchange(client, { method: 'GET', path: 'things', timeoutMs: 100 });
    const assertion = expect(result).rejects.toBeInstanceOf(TimeoutError);
    await vi.advanceTimersByTimeAsync(120);
    await assertion;
  });

  it.each([
    ['the timeout', undefined],
    ['the caller’s abort', new AbortController()],
  ])('cancels the body of a response a signal-ignoring fetch hands over after %s', async (_, controller) => {
    vi.useFakeTimers();
    let cancelled = false;
    const body = new ReadableStream<Uint8Array>({
      cancel: () => {
        cancelled = true;
      },
    });
    // Answers at 200 ms whatever the request's signal says.
    const deaf: FetchLike = () => new Promise((resolve) => setTimeout(() => resolve(new Response(body)), 200));
    const client = createHttpClient({ prefixUrl: API, fetch: deaf });
    const result = exchange(client, { method: 'GET', path: 'things', timeoutMs: 100, signal: controller?.signal });
    const assertion = expect(result).rejects.toBeInstanceOf(controller ? Error : TimeoutError);
    if (controller) {
      await vi.advanceTimersByTimeAsync(50);
      controller.abort(new Error('caller gave up'));
    }
    await vi.advanceTimersByTimeAsync(200);
    await assertion;
    expect(cancelled).toBe(true);
  });

  it('rejects with the caller’s reason as soon as it aborts, even with a fetch that ignores signals', async () => {
    vi.useFakeTimers();
    const deaf: FetchLike = () => new Promise(() => {}); // never answers, whatever the request's signal says
    const controller = new AbortController();
    const client = createHttpClient({ prefixUrl: API, fetch: deaf });
    const result = exchange(client, { method: 'GET', path: 'things', timeoutMs: 60_000, signal: controller.signal });
    let settledWith: unknown;
    result.catch((error: unknown) => {
      settledWith = error;
    });
    await vi.advanceTimersByTimeAsync(50);
    expect(settledWith).toBeUndefined();
    const reason = new Error('caller gave up');
    controller.abort(reason);
    await vi.advanceTimersByTimeAsync(1);
    expect(settledWith).toBe(reason);
  });

  it('uses a custom fetch when given one', async () => {
    const fetch = vi.fn<FetchLike>(async () => new Response('{"custom":true}'));
    const { body } = await exchange(createHttpClient({ prefixUrl: API, fetch }), { method: 'GET', path: 'things', timeoutMs: 1000 });
    expect(body).toEqual({ custom: true });
    expect(fetch).toHaveBeenCalledOnce();
    expect(requests).toHaveLength(0);
  });
});

describe('BodyRead', () => {
  const readBoundedBody = (response: Response) => new BodyRead(response).result;

  it('parses JSON', async () => {
    expect(await readBoundedBody(new Response('{"a":[1,2]}', { headers: { 'content-type': 'application/json' } }))).toEqual({ a: [1, 2] });
  });

  it('parses JSON whatever the content type says', async () => {
    expect(await readBoundedBody(new Response('[1]', { headers: { 'content-type': 'text/plain' } }))).toEqual([1]);
  });

  it('returns text that is not JSON as it is', async () => {
    expect(await readBoundedBody(new Response('<html>Bad gateway</html>'))).toBe('<html>Bad gateway</html>');
  });

  it('returns undefined for an empty body and for no body', async () => {
    expect(await readBoundedBody(new Response(''))).toBeUndefined();
    expect(await readBoundedBody(new Response(null, { status: 204 }))).toBeUndefined();
  });

  it('rejects (never throws) for something that is not a Response', async () => {
    const read = readBoundedBody({} as Response);
    await expect(read).rejects.toBeInstanceOf(TypeError);
  });

  it('refuses a body over the limit by its Content-Length, unread, and by its bytes when the Content-Length is smaller', async () => {
    let pulled = false;
    const declared = new Response(
      new ReadableStream({
        pull: () => {
          pulled = true;
        },
      }),
      { headers: { 'content-length': String(MAX_RESPONSE_BODY_BYTES + 1) } },
    );
    await expect(readBoundedBody(declared)).rejects.toSatisfy(
      (error) => error instanceof ResponseValidationError && error.issues[0]?.code === 'too_big',
    );
    expect(pulled).toBe(false);
    // What a compressed body looks like after the runtime inflates it: a small Content-Length (the
    // compressed size), more bytes than the limit.
    const inflated = new Response(new Uint8Array(MAX_RESPONSE_BODY_BYTES + 1), { headers: { 'content-length': '1000' } });
    await expect(readBoundedBody(inflated)).rejects.toSatisfy(
      (error) => error instanceof ResponseValidationError && error.issues[0]?.code === 'too_big',
    );
  });

  it('hands over JSON as parsed however deep it nests, without overflowing the stack', async () => {
    const levels = 100_000;
    const body = `${'['.repeat(levels)}{"a":1}${']'.repeat(levels)}`;
    let value = await readBoundedBody(new Response(body));
    let depth = 0;
    while (Array.isArray(value)) {
      value = value[0];
      depth++;
    }
    expect(depth).toBe(levels);
    expect(value).toEqual({ a: 1 });
  });
});

describe('headersToRecord', () => {
  it('gives a plain object with lower-case names', () => {
    expect(headersToRecord(new Headers({ 'X-RateLimit-Limit': '10', 'Content-Type': 'application/json' }))).toEqual({
      'x-ratelimit-limit': '10',
      'content-type': 'application/json',
    });
  });

  it('leaves out Set-Cookie: its cookies are credentials that errors must not carry', () => {
    const headers = new Headers({ 'content-type': 'application/json' });
    headers.append('set-cookie', 'did=device-cookie-value; HttpOnly');
    headers.append('Set-Cookie', 'session=session-cookie-value');
    expect(headersToRecord(headers)).toEqual({ 'content-type': 'application/json' });
  });
});

describe('isRedirect', () => {
  it.each([300, 301, 302, 303, 304, 307, 308])('is true of a %i', (status) => {
    expect(isRedirect(new Response(null, { status }))).toBe(true);
  });

  it.each([200, 204, 400, 401, 404, 429, 500])('is false of a %i', (status) => {
    expect(isRedirect(new Response(null, { status }))).toBe(false);
  });

  it("is true of a browser's opaque redirect (status 0)", () => {
    // What a browser hands over for `redirect: 'manual'`; Node cannot construct one.
    expect(isRedirect({ type: 'opaqueredirect', status: 0 } as Response)).toBe(true);
  });
});
