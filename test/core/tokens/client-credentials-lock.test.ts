import { afterEach, describe, expect, it, vi } from 'vitest';
import { systemClock } from '../../../src/core/clock.js';
import { TimeoutError, TokenRequestError } from '../../../src/core/errors.js';
import {
  ClientCredentialsTokenProvider,
  type IssuedToken,
  TOKEN_LOCK_POLL_MS,
  TOKEN_LOCK_TTL_MS,
} from '../../../src/core/tokens/client-credentials.js';
import { memoryTokenCache } from '../../../src/core/tokens/memory-cache.js';
import type { TokenCache } from '../../../src/core/tokens/provider.js';
import { createFakeClock, type FakeClock } from '../../helpers/clock.js';

const KEY = 'idplatform:https://tenant.test:client-1:https://tenant.test/api/v2/';
/** The client's `timeoutMs`: the longest wait for a lock that never comes free. */
const TIMEOUT_MS = 30_000;

/** A memory cache with a lock, shared like Redis would be; `lockHeld` makes every lock attempt fail. */
function lockingCache(clock: FakeClock, { lockHeld = false } = {}) {
  const cache = memoryTokenCache(clock);
  const locks: number[] = [];
  const shared: TokenCache & { locks: number[] } = {
    locks,
    get: (key) => cache.get(key),
    set: (key, token, ttlMs) => cache.set(key, token, ttlMs),
    lock: (_key, ttlMs) => {
      locks.push(ttlMs);
      return !lockHeld;
    },
  };
  return shared;
}

function provider(cache: TokenCache, clock: FakeClock, fetchToken: () => Promise<IssuedToken>) {
  return new ClientCredentialsTokenProvider({ fetchToken, cache, cacheKey: KEY, maxSkewMs: 60_000, clock, timeoutMs: TIMEOUT_MS });
}

describe('ClientCredentialsTokenProvider with tokenCache.lock', () => {
  it('fetches and stores the token when it gets the lock', async () => {
    const clock = createFakeClock(0);
    const cache = lockingCache(clock);
    const fetchToken = vi.fn(async () => ({ accessToken: 'token-1', expiresIn: 5 }));
    expect(await provider(cache, clock, fetchToken).getToken()).toBe('token-1');
    expect(cache.locks).toEqual([TOKEN_LOCK_TTL_MS]);
    expect(fetchToken).toHaveBeenCalledTimes(1);
    expect(await cache.get(KEY)).toBe('token-1');
  });

  it('waits for the token the lock holder stores, without a token request of its own', async () => {
    const clock = createFakeClock(0);
    const cache = lockingCache(clock, { lockHeld: true });
    const fetchToken = vi.fn(async () => ({ accessToken: 'own-token', expiresIn: 5 }));
    const getting = provider(cache, clock, fetchToken).getToken();
    await clock.nextSleep();
    await clock.nextSleep();
    await cache.set(KEY, 'holder-token', 4_500);
    expect(await getting).toBe('holder-token');
    expect(fetchToken).not.toHaveBeenCalled();
    expect(clock.sleeps.every((ms) => ms === TOKEN_LOCK_POLL_MS)).toBe(true);
  });

  it('fetches its own token after timeoutMs when the lock never comes free and no token comes', async () => {
    const clock = createFakeClock(0);
    const cache = lockingCache(clock, { lockHeld: true });
    const fetchToken = vi.fn(async () => ({ accessToken: 'own-token', expiresIn: 5 }));
    expect(await provider(cache, clock, fetchToken).getToken()).toBe('own-token');
    expect(fetchToken).toHaveBeenCalledTimes(1);
    expect(clock.now()).toBe(TIMEOUT_MS);
  });

  it('does not take a token it was refused (401) from another process', async () => {
    const clock = createFakeClock(0);
    const cache = lockingCache(clock, { lockHeld: true });
    await cache.set(KEY, 'refused', 4_500);
    const fetchToken = vi.fn(async () => ({ accessToken: 'fresh', expiresIn: 5 }));
    const tokens = provider(cache, clock, fetchToken);
    expect(await tokens.getToken()).toBe('refused');
    tokens.reject('refused');
    const getting = tokens.getToken();
    await clock.nextSleep();
    await cache.set(KEY, 'renewed', 4_500);
    expect(await getting).toBe('renewed');
    expect(fetchToken).not.toHaveBeenCalled();
  });
});

/**
 * A memory cache with a lock that lives `ttlMs` on `clock`, shared by several
 * providers the way Redis is shared by processes: `set` and `unlock` release it.
 */
function expiringLockCache(clock: FakeClock) {
  const cache = memoryTokenCache(clock);
  let lockedUntil = -1;
  const shared: TokenCache & { takeLock(ttlMs: number): void } = {
    takeLock: (ttlMs) => {
      lockedUntil = clock.now() + ttlMs;
    },
    get: (key) => cache.get(key),
    set: (key, token, ttlMs) => {
      cache.set(key, token, ttlMs);
      lockedUntil = -1;
    },
    lock: (_key, ttlMs) => {
      if (lockedUntil > clock.now()) return false;
      lockedUntil = clock.now() + ttlMs;
      return true;
    },
    unlock: () => {
      lockedUntil = -1;
    },
  };
  return shared;
}

describe('ClientCredentialsTokenProvider when the lock holder is slow, gone or failed', () => {
  it('lets one waiter take over a lock that expired (a holder slower than the lock, or crashed): one more token request, not one per process', async () => {
    const clock = createFakeClock(0);
    const cache = expiringLockCache(clock);
    cache.takeLock(TOKEN_LOCK_TTL_MS); // a holder elsewhere, which never stores a token
    const fetchToken = vi.fn(async () => ({ accessToken: `token-${fetchToken.mock.calls.length}`, expiresIn: 60 }));
    const waiters = [1, 2, 3].map(() => provider(cache, clock, fetchToken).getToken());
    expect(await Promise.all(waiters)).toEqual(['token-1', 'token-1', 'token-1']);
    expect(fetchToken).toHaveBeenCalledTimes(1);
  });

  it('takes the lock as soon as a failed holder gives it back (unlock), without waiting for its lifetime', async () => {
    const clock = createFakeClock(0);
    const cache = expiringLockCache(clock);
    cache.takeLock(TOKEN_LOCK_TTL_MS);
    const fetchToken = vi.fn(async () => ({ accessToken: 'own-token', expiresIn: 60 }));
    const getting = provider(cache, clock, fetchToken).getToken();
    await clock.nextSleep();
    await cache.unlock?.(KEY);
    expect(await getting).toBe('own-token');
    expect(clock.now()).toBeLessThanOrEqual(2 * TOKEN_LOCK_POLL_MS);
  });
});

describe('ClientCredentialsTokenProvider when the cache fails while it holds the lock', () => {
  it('gives the lock back when the token it fetched is too short-lived to store', async () => {
    const clock = createFakeClock(0);
    const unlock = vi.fn();
    const set = vi.fn();
    const cache: TokenCache = { get: () => undefined, set, lock: () => true, unlock };
    const fetchToken = vi.fn(async () => ({ accessToken: 'token-1', expiresIn: 0 }));
    expect(await provider(cache, clock, fetchToken).getToken()).toBe('token-1');
    expect(set).not.toHaveBeenCalled();
    expect(unlock).toHaveBeenCalledTimes(1);
  });

  it('gives the lock back when the look for a token after taking it fails', async () => {
    const clock = createFakeClock(0);
    let gets = 0;
    const unlock = vi.fn();
    const cache: TokenCache = {
      get: () => {
        gets++;
        if (gets === 2) throw new Error('cache get failed once');
        return undefined;
      },
      set: () => {},
      lock: () => true,
      unlock,
    };
    const fetchToken = vi.fn(async () => ({ accessToken: 'token-1', expiresIn: 60 }));
    await expect(provider(cache, clock, fetchToken).getToken()).rejects.toBeInstanceOf(TokenRequestError);
    expect(unlock).toHaveBeenCalledTimes(1);
    expect(fetchToken).not.toHaveBeenCalled();
  });
});

describe('ClientCredentialsTokenProvider with a tokenCache that never answers', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  const never = (): Promise<never> => new Promise<never>(() => {});

  it('hands out a token it fetched at once when the cache’s set hangs, and keeps using it', async () => {
    vi.useFakeTimers();
    const fetchToken = vi.fn(async () => ({ accessToken: 'token-1', expiresIn: 60 }));
    const cache: TokenCache = { get: () => undefined, set: never };
    const tokens = new ClientCredentialsTokenProvider({
      fetchToken,
      cache,
      cacheKey: KEY,
      maxSkewMs: 60_000,
      timeoutMs: 2_000,
      clock: systemClock,
    });
    expect(await tokens.getToken()).toBe('token-1'); // no timer advanced: the store does not hold the call
    expect(await tokens.getToken()).toBe('token-1'); // not stored, yet not fetched again
    expect(fetchToken).toHaveBeenCalledTimes(1);
  });

  it.each<[string, TokenCache]>([
    ['get', { get: never, set: () => {} }],
    ['lock', { get: () => undefined, set: () => {}, lock: never }],
  ])(
    'gives up on a %s that hangs after timeoutMs (TokenRequestError, cause TimeoutError), and the next call tries again',
    async (method, hanging) => {
      vi.useFakeTimers();
      let answers = false;
      const memory = memoryTokenCache(createFakeClock(0));
      const cache: TokenCache = {
        get: (key) => (answers ? memory.get(key) : hanging.get(key)),
        set: (key, token, ttlMs) => (answers ? memory.set(key, token, ttlMs) : hanging.set(key, token, ttlMs)),
        ...(hanging.lock && { lock: (key: string, ttlMs: number) => (answers ? true : (hanging.lock?.(key, ttlMs) ?? true)) }),
      };
      const fetchToken = vi.fn(async () => ({ accessToken: 'token-1', expiresIn: 60 }));
      const tokens = new ClientCredentialsTokenProvider({
        fetchToken,
        cache,
        cacheKey: KEY,
        maxSkewMs: 60_000,
        timeoutMs: 2_000,
        clock: systemClock,
      });
      const failed = tokens.getToken().catch((error: unknown) => error);
      await vi.advanceTimersByTimeAsync(1_999);
      let settled = false;
      void failed.then(() => {
        settled = true;
      });
      await vi.advanceTimersByTimeAsync(0);
      expect(settled).toBe(false);
      await vi.advanceTimersByTimeAsync(1);
      const error = await failed;
      expect(error).toBeInstanceOf(TokenRequestError);
      expect((error as TokenRequestError).cause).toBeInstanceOf(TimeoutError);
      expect(String((error as TokenRequestError).cause)).toContain(`tokenCache.${method}`);
      answers = true;
      await expect(tokens.getToken()).resolves.toBe('token-1');
    },
  );

  it('rejects with the token request’s failure when unlock hangs after it, rather than hanging', async () => {
    vi.useFakeTimers();
    const cache: TokenCache = { get: () => undefined, set: () => {}, lock: () => true, unlock: never };
    const fetchToken = vi.fn(async (): Promise<IssuedToken> => {
      throw new Error('token endpoint down');
    });
    const tokens = new ClientCredentialsTokenProvider({
      fetchToken,
      cache,
      cacheKey: KEY,
      maxSkewMs: 60_000,
      timeoutMs: 2_000,
      clock: systemClock,
    });
    const failed = tokens.getToken().catch((error: unknown) => error);
    await vi.advanceTimersByTimeAsync(2_000);
    const error = await failed;
    expect(error).toBeInstanceOf(TokenRequestError);
    expect(String((error as TokenRequestError).cause)).toContain('token endpoint down');
  });
});
