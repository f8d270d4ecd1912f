/** `callAuthApi`: getting an attempt ready (the client authentication) is bounded by `timeoutMs` and the signal, as its exchange is. */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { z } from 'zod/mini';
import { callAuthApi } from '../../src/core/auth-request.js';
import { systemClock } from '../../src/core/clock.js';
import { TimeoutError } from '../../src/core/errors.js';
import { createHttpClient } from '../../src/core/http.js';
import { resolveRetryPolicy } from '../../src/core/retry.js';

const ORIGIN = 'https://tenant.example.com';

/** A context whose `fetch` counts the requests that leave. */
function context() {
  const fetch = vi.fn(async () => Response.json({ ok: true }));
  const http = createHttpClient({ prefixUrl: ORIGIN, fetch });
  return { fetch, context: { http, retry: resolveRetryPolicy(false), clock: systemClock, timeoutMs: 1_000 } };
}

describe('callAuthApi', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it('fails with TimeoutError when the attempt is not ready to send within timeoutMs (a signing that hangs): nothing is sent', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] });
    const { fetch, context: api } = context();
    const call = callAuthApi(api, { method: 'POST', path: 'oauth/token', schema: z.unknown(), prepare: () => new Promise(() => {}) });
    const failed = call.catch((error: unknown) => error);
    await vi.advanceTimersByTimeAsync(999);
    expect(fetch).not.toHaveBeenCalled();
    await vi.advanceTimersByTimeAsync(1);
    const error = await failed;
    expect(error).toBeInstanceOf(TimeoutError);
    expect((error as TimeoutError).message).toBe('POST /oauth/token was not ready to send within 1000 ms');
    expect(fetch).not.toHaveBeenCalled();
  });

  it("ends a wait for the attempt to be ready with the signal's reason", async () => {
    const { fetch, context: api } = context();
    const controller = new AbortController();
    const reason = new Error('the user left');
    const call = callAuthApi(api, {
      method: 'POST',
      path: 'oauth/token',
      schema: z.unknown(),
      prepare: () => new Promise(() => {}),
      options: { signal: controller.signal },
    });
    controller.abort(reason);
    await expect(call).rejects.toBe(reason);
    expect(fetch).not.toHaveBeenCalled();
  });

  it('sends an attempt that is ready at once', async () => {
    const { fetch, context: api } = context();
    await expect(callAuthApi(api, { method: 'GET', path: 'userinfo', schema: z.unknown(), prepare: () => ({}) })).resolves.toEqual({
      ok: true,
    });
    expect(fetch).toHaveBeenCalledTimes(1);
  });
});
