import { ManagementClient } from 'idplatform/management';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

const json = (body: unknown, status = 200, headers: Record<string, string> = {}) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json', ...headers } });
const API = 'http://127.0.0.1:1/api/v2';

describe('a token lock held elsewhere (fake timers)', () => {
  beforeEach(async () => {
    // The lazily loaded chunks, loaded before time is faked.
    await import('ky');
    await import('p-retry');
    await import('../../src/management/client-credentials.js');
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] });
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  /** Lets `ms` of fake time pass in small steps, with real turns between them for promise chains and chunks. */
  async function pass(ms: number) {
    for (let elapsed = 0; elapsed < ms; elapsed += 50) {
      await new Promise((resolve) => setImmediate(resolve));
      await vi.advanceTimersByTimeAsync(50);
    }
  }

  async function outcomeWithin(promise: Promise<unknown>, ms: number) {
    const state: { settled: boolean; error?: unknown } = { settled: false };
    promise.then(
      () => {
        state.settled = true;
      },
      (error: unknown) => {
        state.settled = true;
        state.error = error;
      },
    );
    await pass(ms);
    return state;
  }

  it('a lock held elsewhere that never comes free: the token is fetched after the wait, and the retried call gets it', async () => {
    let tokenRequests = 0;
    const tokenCache = { get: () => Promise.resolve(null), set: () => Promise.resolve(), lock: () => Promise.resolve(false) };
    const fetch = async (request: Request) => {
      if (new URL(request.url).pathname !== '/oauth/token') return json({ message_types: ['sms'] });
      tokenRequests++;
      await new Promise((resolve) => setTimeout(resolve, 100)); // the token comes after the call's first attempt ran out of time
      return json({ access_token: 'tok', token_type: 'Bearer', expires_in: 3600 });
    };
    const management = new ManagementClient({ baseUrl: API, clientId: 'id', clientSecret: 'secret', timeoutMs: 500, fetch, tokenCache });
    const state = await outcomeWithin(management.guardian.phone.getMessageTypes(), 3_000);
    expect(state).toEqual({ settled: true });
    expect(tokenRequests).toBe(1);
  });

  it('calls with a timeoutMs shorter than the client’s get a token behind a lock that never comes free', async () => {
    let tokenRequests = 0;
    const tokenCache = { get: () => Promise.resolve(null), set: () => Promise.resolve(), lock: () => Promise.resolve(false) };
    const fetch = async (request: Request) => {
      if (new URL(request.url).pathname !== '/oauth/token') return json({ message_types: ['sms'] });
      tokenRequests++;
      return json({ access_token: 'tok', token_type: 'Bearer', expires_in: 3600 });
    };
    const management = new ManagementClient({ baseUrl: API, clientId: 'id', clientSecret: 'secret', timeoutMs: 2_000, fetch, tokenCache });
    const outcomes: string[] = [];
    // One call after another, each giving up after 500 ms: the wait for the lock goes on from the first one's start.
    for (let call = 0; call < 6; call++) {
      const result = management.guardian.phone.getMessageTypes({ timeoutMs: 500, retry: false }).then(
        () => 'ok',
        (error: unknown) => (error as Error).name,
      );
      await pass(600);
      outcomes.push(await result);
    }
    // The fourth starts at 1.8 s: the wait ends at 2 s (the client's timeoutMs from the first one's start), and the token comes.
    expect(outcomes).toEqual(['TimeoutError', 'TimeoutError', 'TimeoutError', 'ok', 'ok', 'ok']);
    expect(tokenRequests).toBe(1);
  });

  it('a call after every earlier one gave up a 429’s wait sends nothing before the reset it demanded', async () => {
    const resetSec = Math.ceil(Date.now() / 1000) + 20;
    const requestTimes: number[] = [];
    const fetch = async (request: Request) => {
      if (new URL(request.url).pathname !== '/oauth/token') return json({ message_types: ['sms'] });
      requestTimes.push(Date.now());
      if (Date.now() < resetSec * 1000) {
        return json({ error: 'too_many_requests' }, 429, { 'x-ratelimit-reset': String(resetSec) });
      }
      return json({ access_token: 'tok', token_type: 'Bearer', expires_in: 3600 });
    };
    const management = new ManagementClient({ baseUrl: API, clientId: 'id', clientSecret: 'secret', fetch });
    const controller = new AbortController();
    const first = management.guardian.phone.getMessageTypes({ signal: controller.signal });
    first.catch(() => {});
    await pass(200);
    controller.abort(new Error('left'));
    await expect(first).rejects.toThrow('left');
    await pass(1_000);
    const second = management.guardian.phone.getMessageTypes();
    const state = await outcomeWithin(second, 22_000);
    expect(state).toEqual({ settled: true });
    expect(requestTimes.filter((time) => time < resetSec * 1000)).toHaveLength(1);
    expect(requestTimes).toHaveLength(2);
  });
});
