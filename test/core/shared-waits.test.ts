/**
 * Waits that calls share, and the caller's signal: a shared token request or key-set
 * fetch is waited for as long as each call's `timeoutMs` allows (the client's when it
 * gives none), and given up on when every call waiting for it gave up; a long-lived
 * signal passed to many calls carries at most one listener of the SDK, and nothing
 * once they are over.
 */
import { getEventListeners } from 'node:events';
import { AuthenticationClient } from 'idplatform/auth';
import { ManagementClient, TimeoutError } from 'idplatform/management';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

const json = (body: unknown, status = 200, headers: Record<string, string> = {}) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json', ...headers } });
/** A response that never comes, unless the request is aborted. */
const hang = (request: Request) =>
  new Promise<Response>((_resolve, reject) => request.signal.addEventListener('abort', () => reject(request.signal.reason)));
const API = 'http://127.0.0.1:1/api/v2';
const ORIGIN = 'http://127.0.0.1:1';

describe('with fake timers', () => {
  beforeEach(async () => {
    // The lazily loaded chunks, loaded before time is faked.
    await import('p-retry');
    await import('../../src/auth/namespaces.js');
    await import('../../src/auth/id-token-signature.js');
    await import('../../src/auth/id-token-validation.js');
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

  it('a call without a timeoutMs of its own gives up on the shared token request after the client one', async () => {
    const fetch = async (request: Request) =>
      new URL(request.url).pathname === '/oauth/token'
        ? json({ error: 'too_many_requests' }, 429, { 'retry-after': '20' }) // waited out: the token request sleeps 20 s
        : json({ message_types: ['sms'] });
    const management = new ManagementClient({ baseUrl: API, clientId: 'id', clientSecret: 'secret', timeoutMs: 1_000, fetch });
    const state = await outcomeWithin(management.guardian.phone.getMessageTypes({ retry: false }), 3_000);
    expect(state.error).toBeInstanceOf(TimeoutError);
  });

  it('a call is not held past its timeout by a token lock held elsewhere and a hung token request', async () => {
    const tokenCache = { get: () => Promise.resolve(null), set: () => Promise.resolve(), lock: () => Promise.resolve(false) };
    const fetch = (request: Request) =>
      new URL(request.url).pathname === '/oauth/token' ? hang(request) : Promise.resolve(json({ message_types: ['sms'] }));
    const management = new ManagementClient({ baseUrl: API, clientId: 'id', clientSecret: 'secret', timeoutMs: 1_000, fetch, tokenCache });
    const state = await outcomeWithin(management.guardian.phone.getMessageTypes({ retry: false }), 1_500);
    expect(state.settled).toBe(true);
  });

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

  it('a call without a timeoutMs of its own gives up on the shared key-set fetch after the client one', async () => {
    const fetch = async (request: Request) =>
      new URL(request.url).pathname === '/.well-known/jwks.json'
        ? hang(request)
        : json({ access_token: 'a', token_type: 'Bearer', expires_in: 60 });
    const auth = new AuthenticationClient({ baseUrl: ORIGIN, clientId: 'id', clientSecret: 'secret', timeoutMs: 1_000, fetch });
    const state = await outcomeWithin(auth.oauth.refreshTokenGrant({ refresh_token: 'r' }), 1_500);
    expect(state.error).toBeInstanceOf(TimeoutError);
  });

  it('sends no token request, and leaves no timer, after the only call waiting for the token was aborted', async () => {
    const sentAt: number[] = [];
    const start = Date.now();
    const fetch = async (request: Request) => {
      if (new URL(request.url).pathname !== '/oauth/token') return json({ message_types: ['sms'] });
      sentAt.push(Date.now() - start);
      return json({ error: 'too_many_requests' }, 429, { 'retry-after': '2' });
    };
    const management = new ManagementClient({ baseUrl: API, clientId: 'id', clientSecret: 'secret', timeoutMs: 1_000, fetch });
    const controller = new AbortController();
    const call = management.guardian.phone.getMessageTypes({ signal: controller.signal });
    call.catch(() => {});
    await pass(100);
    controller.abort(new Error('shutting down'));
    await expect(call).rejects.toThrow('shutting down');
    const abortedAt = Date.now() - start;
    await pass(10_000);
    expect(sentAt.filter((at) => at > abortedAt)).toEqual([]);
    expect(vi.getTimerCount()).toBe(0);
  });

  it('sends no key-set request, and leaves no timer, after the only call waiting for the keys was aborted', async () => {
    const sentAt: number[] = [];
    const start = Date.now();
    const fetch = async (request: Request) => {
      if (new URL(request.url).pathname !== '/.well-known/jwks.json')
        return json({ access_token: 'a', token_type: 'Bearer', expires_in: 60 });
      sentAt.push(Date.now() - start);
      return hang(request);
    };
    const auth = new AuthenticationClient({ baseUrl: ORIGIN, clientId: 'id', clientSecret: 'secret', timeoutMs: 1_000, fetch });
    const controller = new AbortController();
    const call = auth.oauth.refreshTokenGrant({ refresh_token: 'r' }, { signal: controller.signal });
    call.catch(() => {});
    await pass(100);
    controller.abort(new Error('the user left'));
    await expect(call).rejects.toThrow('the user left');
    const abortedAt = Date.now() - start;
    await pass(10_000);
    expect(sentAt.filter((at) => at > abortedAt)).toEqual([]);
    expect(vi.getTimerCount()).toBe(0);
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
