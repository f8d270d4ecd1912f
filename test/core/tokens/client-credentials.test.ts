import { getEventListeners } from 'node:events';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ClientCredentialsTokenProvider, type IssuedToken } from '../../src/core/client-credentials-token-provider.js';
import { AuthApiError, TimeoutError, TokenRequestError } from '../../src/core/errors.js';
import type { SharedAttempt } from '../../src/core/shared-work.js';
import { callerTokenProvider, lazyTokenProvider, memoryTokenCache, type TokenCache } from '../../src/core/token-provider.js';
import { createFakeClock, type FakeClock } from '../helpers/clock.js';
import { deferred } from '../helpers/deferred.js';

const KEY = 'idplatform:https://tenant.test:client-1:https://tenant.test/api/v2/';
const MAX_SKEW_MS = 60_000;

/** A fetchToken that issues `token-1`, `token-2`, … living `expiresIn` seconds, and counts its calls. */
function issuer(expiresIn: number | undefined) {
  const fetchToken = vi.fn(async (): Promise<IssuedToken> => ({ accessToken: `token-${fetchToken.mock.calls.length}`, expiresIn }));
  return fetchToken;
}

function provider(
  fetchToken: (shared: SharedAttempt) => Promise<IssuedToken>,
  cache: TokenCache = memoryTokenCache(createFakeClock()),
  clock?: FakeClock,
) {
  return new ClientCredentialsTokenProvider({ fetchToken, cache, cacheKey: KEY, maxSkewMs: MAX_SKEW_MS, timeoutMs: 30_000, clock });
}

/** A caller that waits for a token, then leaves (aborts): the request in flight is then given up. */
async function everyCallerLeft(tokens: ClientCredentialsTokenProvider) {
  const controller = new AbortController();
  const leaving = tokens.getToken(controller.signal);
  leaving.catch(() => {});
  await new Promise((resolve) => setImmediate(resolve));
  controller.abort(new Error('left'));
  await expect(leaving).rejects.toThrow('left');
}

describe('ClientCredentialsTokenProvider', () => {
  it('makes one token request for 100 concurrent callers on a cold provider', async () => {
    const response = deferred<IssuedToken>();
    const fetchToken = vi.fn(() => response.promise);
    const tokens = provider(fetchToken);
    const callers = Array.from({ length: 100 }, () => tokens.getToken());
    response.resolve({ accessToken: 'shared-token', expiresIn: 86_400 });
    expect(await Promise.all(callers)).toEqual(Array(100).fill('shared-token'));
    expect(fetchToken).toHaveBeenCalledTimes(1);
  });

  it('reuses a 10 s token until a tenth of its life and a second of rounding are left (7.9 s), and refetches at 8.0 s', async () => {
    const clock = createFakeClock();
    const fetchToken = issuer(10);
    const tokens = provider(fetchToken, memoryTokenCache(clock), clock);
    expect(await tokens.getToken()).toBe('token-1');
    clock.advance(7_900);
    expect(await tokens.getToken()).toBe('token-1');
    expect(fetchToken).toHaveBeenCalledTimes(1);
    clock.advance(100);
    expect(await tokens.getToken()).toBe('token-2');
    expect(fetchToken).toHaveBeenCalledTimes(2);
  });

  it('refetches a 24 h token maxSkewMs (60 s) and a second before it expires', async () => {
    const clock = createFakeClock();
    const fetchToken = issuer(86_400);
    const tokens = provider(fetchToken, memoryTokenCache(clock), clock);
    await tokens.getToken();
    clock.advance(86_400_000 - 61_001);
    expect(await tokens.getToken()).toBe('token-1');
    clock.advance(1);
    expect(await tokens.getToken()).toBe('token-2');
  });

  it('assumes a one-hour life when the server sends no expires_in', async () => {
    const set = vi.fn();
    const tokens = provider(issuer(undefined), { get: () => undefined, set });
    await tokens.getToken();
    expect(set).toHaveBeenCalledWith(KEY, 'token-1', 3_600_000 - 61_000);
  });

  it('keeps at least half the life of a very short token (2 s: reused for 1 s)', async () => {
    const set = vi.fn();
    const tokens = provider(issuer(2), { get: () => undefined, set });
    await tokens.getToken();
    expect(set).toHaveBeenCalledWith(KEY, 'token-1', 1_000);
  });

  it('never hands out any of several rejected tokens a shared cache still holds', async () => {
    const cache = new Map<string, string>();
    const fetchToken = issuer(3600);
    const tokens = provider(fetchToken, { get: (key) => cache.get(key), set: (key, token) => void cache.set(key, token) });
    expect(await tokens.getToken()).toBe('token-1');
    tokens.reject('token-1');
    expect(await tokens.getToken()).toBe('token-2');
    tokens.reject('token-2');
    cache.set(KEY, 'token-1'); // another process wrote back the first, dead token
    expect(await tokens.getToken()).toBe('token-3');
  });

  it('does not cache a token that has no life left', async () => {
    const set = vi.fn();
    const tokens = provider(issuer(0), { get: () => undefined, set });
    await tokens.getToken();
    expect(set).not.toHaveBeenCalled();
  });

  it('throws TokenRequestError with the failure as `cause`, and does not cache the failure', async () => {
    const failure = new AuthApiError({
      status: 401,
      error: 'access_denied',
      errorDescription: 'Unauthorized',
      body: undefined,
      headers: {},
      rateLimit: undefined,
    });
    const fetchToken = vi
      .fn<() => Promise<IssuedToken>>()
      .mockRejectedValueOnce(failure)
      .mockResolvedValueOnce({ accessToken: 'after-failure', expiresIn: 86_400 });
    const tokens = provider(fetchToken);

    const error = await tokens.getToken().catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(TokenRequestError);
    expect((error as TokenRequestError).cause).toBe(failure);
    expect((error as TokenRequestError).message).toContain('access_denied: Unauthorized');

    expect(await tokens.getToken()).toBe('after-failure');
    expect(fetchToken).toHaveBeenCalledTimes(2);
  });

  it('refetches after reject(token) even when the cache still holds that token', async () => {
    const stale: TokenCache = { get: () => 'stale-token', set: () => {} };
    const fetchToken = vi.fn(async (): Promise<IssuedToken> => ({ accessToken: 'fresh-token', expiresIn: 86_400 }));
    const tokens = provider(fetchToken, stale);
    expect(await tokens.getToken()).toBe('stale-token');
    expect(fetchToken).not.toHaveBeenCalled();

    expect(tokens.reject('stale-token')).toBe(true);
    expect(await tokens.getToken()).toBe('fresh-token');
    expect(fetchToken).toHaveBeenCalledTimes(1);
  });

  it('answers true for every request the rejected token failed, so concurrent 401s are each replayed with one new token', async () => {
    const fetchToken = issuer(86_400);
    const tokens = provider(fetchToken);
    const token = await tokens.getToken();
    expect([tokens.reject(token), tokens.reject(token), tokens.reject(token)]).toEqual([true, true, true]);
    const fresh = await Promise.all([tokens.getToken(), tokens.getToken(), tokens.getToken()]);
    expect(new Set(fresh).size).toBe(1);
    expect(fresh[0]).not.toBe(token);
  });

  it('uses an async token cache with its key and the token’s time to live', async () => {
    const store = new Map<string, string>();
    const cache = {
      get: vi.fn(async (key: string) => store.get(key)),
      set: vi.fn(async (key: string, token: string, _ttlMs: number) => {
        store.set(key, token);
      }),
    };
    const fetchToken = issuer(10);
    expect(await provider(fetchToken, cache).getToken()).toBe('token-1');
    expect(cache.get).toHaveBeenCalledWith(KEY);
    expect(cache.set).toHaveBeenCalledWith(KEY, 'token-1', 8_000);

    // A second provider (another process) sharing the cache takes the token from it.
    const otherFetch = issuer(10);
    expect(await provider(otherFetch, cache).getToken()).toBe('token-1');
    expect(otherFetch).not.toHaveBeenCalled();
  });

  it('rejects only the caller whose signal aborts; the others still get the token', async () => {
    const response = deferred<IssuedToken>();
    const fetchToken = vi.fn(() => response.promise);
    const tokens = provider(fetchToken);
    const controller = new AbortController();
    const reason = new Error('caller left');

    const leaving = tokens.getToken(controller.signal);
    const staying = tokens.getToken();
    const stayingWithSignal = tokens.getToken(new AbortController().signal);
    controller.abort(reason);
    await expect(leaving).rejects.toBe(reason);

    response.resolve({ accessToken: 'shared-token', expiresIn: 86_400 });
    await expect(staying).resolves.toBe('shared-token');
    await expect(stayingWithSignal).resolves.toBe('shared-token');
    expect(fetchToken).toHaveBeenCalledTimes(1);
  });

  it('rejects at once with the reason of an already aborted signal', async () => {
    const reason = new Error('aborted before');
    await expect(provider(issuer(86_400)).getToken(AbortSignal.abort(reason))).rejects.toBe(reason);
  });
  it('gives the token request up (no retry) once every caller waiting for it left, by abort or by its own timeout', async () => {
    const response = deferred<IssuedToken>();
    let giveUp: AbortSignal | undefined;
    const tokens = provider((shared) => {
      giveUp = shared.giveUp;
      return response.promise;
    });
    const aborting = new AbortController();
    const leaving = tokens.getToken(aborting.signal);
    leaving.catch(() => {});
    const timingOut = tokens.getToken(undefined, 1);
    timingOut.catch(() => {});
    await new Promise((resolve) => setImmediate(resolve));
    aborting.abort(new Error('left'));
    await expect(leaving).rejects.toThrow('left');
    expect(giveUp?.aborted).toBe(false); // the other caller still waits, for 1 ms
    await expect(timingOut).rejects.toBeInstanceOf(TimeoutError);
    expect(giveUp?.aborted).toBe(true);
  });

  it('hands a caller who comes after everyone gave up the token of the request still in flight: no second request', async () => {
    const response = deferred<IssuedToken>();
    const fetchToken = vi.fn(() => response.promise);
    const tokens = provider(fetchToken);
    await everyCallerLeft(tokens);

    const next = tokens.getToken();
    response.resolve({ accessToken: 'late-token', expiresIn: 86_400 });
    expect(await next).toBe('late-token');
    expect(fetchToken).toHaveBeenCalledTimes(1);
  });

  it('makes a new request for a caller who comes after everyone gave up, when the request in flight fails', async () => {
    const first = deferred<IssuedToken>();
    const fetchToken = vi
      .fn<(shared: SharedAttempt) => Promise<IssuedToken>>()
      .mockReturnValueOnce(first.promise)
      .mockResolvedValueOnce({ accessToken: 'second-token', expiresIn: 86_400 });
    const tokens = provider(fetchToken);
    await everyCallerLeft(tokens);

    const next = tokens.getToken();
    first.reject(new Error('429, not retried'));
    expect(await next).toBe('second-token');
    expect(fetchToken).toHaveBeenCalledTimes(2);
    expect(fetchToken.mock.calls[1]?.[0].giveUp.aborted).toBe(false);
  });
});

describe('ClientCredentialsTokenProvider after a load every caller gave up never ends', () => {
  // workerd drops the I/O and timers of a request that has ended: a client kept at module scope must not wait
  // for its load for good. The load's steps in flight are each bounded by `timeoutMs` (30 s here).
  afterEach(() => {
    vi.useRealTimers();
  });

  /** A cache with a lock, as `createRedisTokenCache` has. */
  const lockingCache = (): TokenCache => ({
    get: async () => undefined,
    set: async () => {},
    lock: async () => true,
    unlock: async () => {},
  });

  // Each step is bounded by timeoutMs, and the token request counts two: getting it ready (the client
  // authentication), and sending it.
  it.each([
    { cache: 'that answers at once (in memory)', boundMs: 60_000, make: (): TokenCache => memoryTokenCache(createFakeClock()) },
    {
      cache: 'that answers later, without a lock',
      boundMs: 90_000,
      make: (): TokenCache => ({ get: async () => undefined, set: async () => {} }),
    },
    { cache: 'with a lock', boundMs: 180_000, make: lockingCache },
  ])(
    'a cache $cache: the next caller waits for it at most $boundMs ms after the give-up, then requests anew',
    async ({ make, boundMs }) => {
      vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] });
      const fetchToken = vi
        .fn<(shared: SharedAttempt) => Promise<IssuedToken>>()
        .mockReturnValueOnce(new Promise(() => {})) // the request of a request that ended: never settles
        .mockResolvedValueOnce({ accessToken: 'fresh-token', expiresIn: 86_400 });
      const tokens = new ClientCredentialsTokenProvider({
        fetchToken,
        cache: make(),
        cacheKey: KEY,
        maxSkewMs: MAX_SKEW_MS,
        timeoutMs: 30_000,
      });
      await everyCallerLeft(tokens);

      await vi.advanceTimersByTimeAsync(5_000);
      const next = tokens.getToken();
      await vi.advanceTimersByTimeAsync(boundMs - 5_000 - 1);
      expect(fetchToken).toHaveBeenCalledTimes(1); // its request could still bring a token
      await vi.advanceTimersByTimeAsync(1);
      expect(await next).toBe('fresh-token');
      expect(fetchToken).toHaveBeenCalledTimes(2);
    },
  );

  it('a caller who leaves too does not end the wait: the one after it still gets the late token, with no second request', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] });
    const response = deferred<IssuedToken>();
    const fetchToken = vi.fn(() => response.promise);
    const tokens = provider(fetchToken);
    await everyCallerLeft(tokens);
    await everyCallerLeft(tokens); // takes it over, and leaves
    const next = tokens.getToken();
    await vi.advanceTimersByTimeAsync(59_000);
    response.resolve({ accessToken: 'late-token', expiresIn: 86_400 });
    expect(await next).toBe('late-token');
    expect(fetchToken).toHaveBeenCalledTimes(1);
  });
});

describe('ClientCredentialsTokenProvider with a cache that hands back what a header cannot carry', () => {
  it('takes it for a miss: a new token is fetched and stored, and the calls go on', async () => {
    const stored = new Map<string, string>([[KEY, 'token-0\n']]); // a file cache that added a newline, say
    const fetchToken = issuer(86_400);
    const tokens = provider(fetchToken, {
      get: (key) => stored.get(key),
      set: (key, token) => {
        stored.set(key, token);
      },
    });
    expect(await tokens.getToken()).toBe('token-1');
    expect(stored.get(KEY)).toBe('token-1');
    expect(fetchToken).toHaveBeenCalledTimes(1);
  });
});

describe('callerTokenProvider', () => {
  it.each([
    ['a string', 'caller-token'],
    ['a sync function', () => 'caller-token'],
    ['an async function', async () => 'caller-token'],
  ])('returns the token of %s', async (_kind, source) => {
    await expect(callerTokenProvider(source).getToken()).resolves.toBe('caller-token');
  });

  it('calls the function on every request, so a caller can rotate tokens', async () => {
    let count = 0;
    const tokens = callerTokenProvider(() => `caller-token-${++count}`);
    expect(await tokens.getToken()).toBe('caller-token-1');
    expect(await tokens.getToken()).toBe('caller-token-2');
  });

  it('hands a fixed token over without arming a timer, and still honours an aborted signal', async () => {
    vi.useFakeTimers();
    try {
      const tokens = callerTokenProvider('caller-token');
      const pending = tokens.getToken(undefined, 1_000);
      expect(vi.getTimerCount()).toBe(0);
      await expect(pending).resolves.toBe('caller-token');
      const reason = new Error('stopped');
      await expect(tokens.getToken(AbortSignal.abort(reason), 1_000)).rejects.toBe(reason);
    } finally {
      vi.useRealTimers();
    }
  });

  it('leaves no abort listener or timer behind when a hung function is given up on (timeout or abort)', async () => {
    vi.useFakeTimers();
    try {
      const tokens = callerTokenProvider(() => new Promise<string>(() => {})); // never answers
      const signal = new AbortController().signal; // a long-lived signal, shared by many calls
      for (let call = 0; call < 3; call++) {
        const pending = tokens.getToken(signal, 100);
        const assertion = expect(pending).rejects.toBeInstanceOf(TimeoutError);
        await vi.advanceTimersByTimeAsync(100);
        await assertion;
      }
      expect(getEventListeners(signal, 'abort')).toHaveLength(0);
      const controller = new AbortController();
      const aborted = tokens.getToken(controller.signal, 100);
      controller.abort(new Error('stopped'));
      await expect(aborted).rejects.toThrow('stopped');
      expect(vi.getTimerCount()).toBe(0);
    } finally {
      vi.useRealTimers();
    }
  });

  it('throws TokenRequestError when the function returns no token', async () => {
    await expect(callerTokenProvider(() => '').getToken()).rejects.toBeInstanceOf(TokenRequestError);
  });

  it('cannot offer another token after a 401: reject answers false', () => {
    expect(callerTokenProvider('caller-token').reject('caller-token')).toBe(false);
  });
});

describe('memoryTokenCache', () => {
  it('keeps a token for its time to live and forgets it then', () => {
    const clock = createFakeClock(1_000);
    const cache = memoryTokenCache(clock);
    cache.set('key', 'token', 5_000);
    clock.advance(4_999);
    expect(cache.get('key')).toBe('token');
    clock.advance(1);
    expect(cache.get('key')).toBeUndefined();
  });

  it('answers undefined for a key it never saw and keeps keys apart', () => {
    const cache = memoryTokenCache(createFakeClock());
    cache.set('a', 'token-a', 1_000);
    expect(cache.get('b')).toBeUndefined();
    expect(cache.get('a')).toBe('token-a');
  });
});

describe('lazyTokenProvider', () => {
  function fakeProvider(token: string) {
    return { getToken: vi.fn(async () => token), reject: vi.fn(() => true) };
  }

  it('loads its implementation once, on the first getToken, and delegates every call to it', async () => {
    const inner = fakeProvider('token-1');
    const load = vi.fn(async () => inner);
    const tokens = lazyTokenProvider(load);
    expect(load).not.toHaveBeenCalled();
    const signal = new AbortController().signal;
    expect(await Promise.all([tokens.getToken(signal, 500), tokens.getToken()])).toEqual(['token-1', 'token-1']);
    expect(await tokens.getToken()).toBe('token-1');
    expect(load).toHaveBeenCalledTimes(1);
    expect(inner.getToken).toHaveBeenCalledWith(signal, 500);
    expect(inner.getToken).toHaveBeenCalledTimes(3);
  });

  it('rejects tokens through its implementation once loaded, and answers false before (it issued none)', async () => {
    const inner = fakeProvider('token-1');
    const tokens = lazyTokenProvider(async () => inner);
    expect(tokens.reject('token-0')).toBe(false);
    await tokens.getToken();
    expect(tokens.reject('token-1')).toBe(true);
    expect(inner.reject).toHaveBeenCalledWith('token-1');
  });

  it('throws TokenRequestError when the implementation cannot load, and tries again on the next call', async () => {
    const failure = new Error('chunk failed to load');
    const load = vi.fn().mockRejectedValueOnce(failure).mockResolvedValueOnce(fakeProvider('token-2'));
    const tokens = lazyTokenProvider(load);
    const error = await tokens.getToken().catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(TokenRequestError);
    expect((error as TokenRequestError).cause).toBe(failure);
    expect(await tokens.getToken()).toBe('token-2');
    expect(load).toHaveBeenCalledTimes(2);
  });

  it('rejects with the signal’s reason when the signal aborts while it loads', async () => {
    const tokens = lazyTokenProvider(() => new Promise(() => {}));
    const controller = new AbortController();
    const pending = tokens.getToken(controller.signal);
    const reason = new Error('stop');
    controller.abort(reason);
    await expect(pending).rejects.toBe(reason);
  });
});

describe('ClientCredentialsTokenProvider with a shared cache that goes down', () => {
  it('hands out the token it fetched without looking it up, so a failing look-up is never left unhandled', async () => {
    let lookUps = 0;
    const cache: TokenCache = {
      get: async () => {
        lookUps++;
        if (lookUps > 1) throw new Error('cache unavailable (ECONNREFUSED)');
        return undefined;
      },
      set: async () => {},
    };
    const tokens = provider(issuer(3600), cache);
    expect(await tokens.getToken()).toBe('token-1');
    expect(await tokens.getToken()).toBe('token-1');
    expect(lookUps).toBe(1);
  });
});
