import { describe, expect, it, vi } from 'vitest';
import { ClientCredentialsTokenProvider, type IssuedToken } from '../../src/core/client-credentials-token-provider.js';
import { TOKEN_LOCK_POLL_MS, TOKEN_LOCK_TTL_MS } from '../../src/core/token-lock.js';
import { memoryTokenCache, type TokenCache } from '../../src/core/token-provider.js';
import { createFakeClock, type FakeClock } from '../helpers/clock.js';

const KEY = 'idplatform:https://tenant.test:client-1:https://tenant.test/api/v2/';

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
  return new ClientCredentialsTokenProvider({ fetchToken, cache, cacheKey: KEY, maxSkewMs: 60_000, clock });
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

  it('fetches its own token when the holder stored none within the lock’s lifetime', async () => {
    const clock = createFakeClock(0);
    const cache = lockingCache(clock, { lockHeld: true });
    const fetchToken = vi.fn(async () => ({ accessToken: 'own-token', expiresIn: 5 }));
    expect(await provider(cache, clock, fetchToken).getToken()).toBe('own-token');
    expect(fetchToken).toHaveBeenCalledTimes(1);
    expect(clock.now()).toBe(TOKEN_LOCK_TTL_MS);
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
