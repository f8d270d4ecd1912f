/**
 * Waits that calls share, and the caller's signal: a token lock held elsewhere ends
 * in a token of this process's own, which the call gets; a long-lived signal passed
 * to many calls carries at most one listener of the SDK, and nothing once they are over.
 */
import { getEventListeners } from 'node:events';
import { ManagementClient } from 'idplatform/management';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

const json = (body: unknown, status = 200, headers: Record<string, string> = {}) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json', ...headers } });
const API = 'http://127.0.0.1:1/api/v2';

describe('a token lock held elsewhere (fake timers)', () => {
  beforeEach(async () => {
    // The lazily loaded chunks, loaded before time is faked.
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

  it('stops looking for a token held elsewhere, and leaves no timer, once the only call waiting for it was aborted', async () => {
    let cacheCalls = 0;
    const tokenCache = {
      get: () => {
        cacheCalls++;
        return Promise.resolve(null);
      },
      set: () => Promise.resolve(),
      lock: () => {
        cacheCalls++;
        return Promise.resolve(false); // another process holds it
      },
    };
    const fetch = async () => json({ message_types: ['sms'] });
    const management = new ManagementClient({ baseUrl: API, clientId: 'id', clientSecret: 'secret', timeoutMs: 10_000, fetch, tokenCache });
    const controller = new AbortController();
    const call = management.guardian.phone.getMessageTypes({ signal: controller.signal });
    call.catch(() => {});
    await pass(200);
    expect(cacheCalls).toBeGreaterThan(2); // it was looking
    controller.abort(new Error('shutting down'));
    await expect(call).rejects.toThrow('shutting down');
    const callsAtAbort = cacheCalls;
    await pass(3_000);
    expect(cacheCalls).toBe(callsAtAbort);
    expect(vi.getTimerCount()).toBe(0);
  });

  it('sends no retry of a token request that every call waiting for it gave up, and leaves no timer', async () => {
    let tokenRequests = 0;
    const fetch = async (request: Request) => {
      if (new URL(request.url).pathname !== '/oauth/token') return json({ message_types: ['sms'] });
      tokenRequests++;
      const reset = String(Math.ceil(Date.now() / 1000) + 20);
      return json({ error: 'too_many_requests', error_description: 'slow down' }, 429, { 'x-ratelimit-reset': reset });
    };
    const management = new ManagementClient({ baseUrl: API, clientId: 'id', clientSecret: 'secret', fetch });
    const controller = new AbortController();
    const call = management.guardian.phone.getMessageTypes({ signal: controller.signal });
    call.catch(() => {});
    await pass(200);
    expect(tokenRequests).toBe(1); // waiting for the reset, 20 s away
    controller.abort(new Error('shutting down'));
    await expect(call).rejects.toThrow('shutting down');
    await pass(25_000);
    expect(tokenRequests).toBe(1);
    expect(vi.getTimerCount()).toBe(0);
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

  it('a call after every earlier one gave up gets a token: the abandoned request’s retries are not its own', async () => {
    let tokenRequests = 0;
    const fetch = async (request: Request) => {
      if (new URL(request.url).pathname !== '/oauth/token') return json({ message_types: ['sms'] });
      tokenRequests++;
      if (tokenRequests === 1) {
        await new Promise((resolve) => setTimeout(resolve, 300));
        return json({ error: 'temporarily_unavailable' }, 503);
      }
      return json({ access_token: 'tok', token_type: 'Bearer', expires_in: 3600 });
    };
    const management = new ManagementClient({ baseUrl: API, clientId: 'id', clientSecret: 'secret', fetch });
    const controller = new AbortController();
    const first = management.guardian.phone.getMessageTypes({ signal: controller.signal });
    first.catch(() => {});
    await pass(100);
    controller.abort(new Error('left'));
    await expect(first).rejects.toThrow('left');
    const second = management.guardian.phone.getMessageTypes();
    const state = await outcomeWithin(second, 1_000);
    expect(state).toEqual({ settled: true });
    expect(tokenRequests).toBe(2);
  });
});

describe('one long-lived signal passed to many calls', () => {
  /** Entries of Node's internal set of signals made from this one with `AbortSignal.any` (Node 20 keeps them). */
  function dependants(signal: AbortSignal): number {
    const symbol = Object.getOwnPropertySymbols(signal).find((each) => String(each) === 'Symbol(kDependantSignals)');
    return symbol === undefined ? 0 : ((signal as unknown as Record<symbol, Set<unknown>>)[symbol]?.size ?? 0);
  }

  it('carries one listener of the SDK while calls are in flight, and none, nor a dependent signal, after them', async () => {
    let inFlight: number[] = [];
    const signal = new AbortController().signal; // an app's: never aborted
    const management = new ManagementClient({
      baseUrl: API,
      token: 'tok',
      fetch: async () => {
        inFlight.push(getEventListeners(signal, 'abort').length);
        await new Promise((resolve) => setTimeout(resolve, 1));
        return json({ message_types: ['sms'] });
      },
    });
    await Promise.all(Array.from({ length: 32 }, () => management.guardian.phone.getMessageTypes({ signal })));
    expect(Math.max(...inFlight)).toBe(1);
    inFlight = [];
    for (let call = 0; call < 200; call++) await management.guardian.phone.getMessageTypes({ signal });
    expect(getEventListeners(signal, 'abort')).toHaveLength(0);
    expect(dependants(signal)).toBe(0);
  });
});
