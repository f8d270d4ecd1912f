import { describe, expect, it, vi } from 'vitest';
import { systemClock } from '../../../src/core/clock.js';
import { AuthApiError, TokenRequestError } from '../../../src/core/errors.js';
import { ClientCredentialsTokenProvider, type IssuedToken } from '../../../src/core/tokens/client-credentials.js';
import { memoryTokenCache } from '../../../src/core/tokens/memory-cache.js';
import type { TokenCache } from '../../../src/core/tokens/provider.js';
import { createFakeClock, type FakeClock } from '../../helpers/clock.js';
import { deferred } from '../../helpers/deferred.js';

const KEY = 'idplatform:https://tenant.test:client-1:https://tenant.test/api/v2/';
const MAX_SKEW_MS = 60_000;

/** A fetchToken that issues `token-1`, `token-2`, … living `expiresIn` seconds, and counts its calls. */
function issuer(expiresIn: number | undefined) {
  const fetchToken = vi.fn(async (): Promise<IssuedToken> => ({ accessToken: `token-${fetchToken.mock.calls.length}`, expiresIn }));
  return fetchToken;
}

function provider(fetchToken: () => Promise<IssuedToken>, cache: TokenCache = memoryTokenCache(createFakeClock()), clock?: FakeClock) {
  return new ClientCredentialsTokenProvider({
    fetchToken,
    cache,
    cacheKey: KEY,
    maxSkewMs: MAX_SKEW_MS,
    timeoutMs: 30_000,
    clock: clock ?? systemClock,
  });
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

  it('hands the failure of the request in flight to the callers who joined it, and requests anew for the next call', async () => {
    const first = deferred<IssuedToken>();
    const fetchToken = vi
      .fn<() => Promise<IssuedToken>>()
      .mockReturnValueOnce(first.promise)
      .mockResolvedValueOnce({ accessToken: 'second-token', expiresIn: 86_400 });
    const tokens = provider(fetchToken);
    const started = tokens.getToken();
    const joined = tokens.getToken();
    first.reject(new Error('429, not retried'));
    await expect(started).rejects.toBeInstanceOf(TokenRequestError);
    await expect(joined).rejects.toBeInstanceOf(TokenRequestError);
    expect(await tokens.getToken()).toBe('second-token');
    expect(fetchToken).toHaveBeenCalledTimes(2);
  });
});

describe('ClientCredentialsTokenProvider in workerd', () => {
  it('never joins a token request another call started (its I/O belongs to another request), and shares the token it brings', async () => {
    vi.stubGlobal('navigator', { userAgent: 'Cloudflare-Workers' });
    try {
      const first = deferred<IssuedToken>();
      const fetchToken = vi
        .fn<() => Promise<IssuedToken>>()
        .mockReturnValueOnce(first.promise)
        .mockResolvedValueOnce({ accessToken: 'own-token', expiresIn: 86_400 });
      const tokens = provider(fetchToken);
      const pending = tokens.getToken();
      expect(await tokens.getToken()).toBe('own-token');
      expect(fetchToken).toHaveBeenCalledTimes(2);
      first.resolve({ accessToken: 'first-token', expiresIn: 86_400 });
      expect(await pending).toBe('first-token');
    } finally {
      vi.unstubAllGlobals();
    }
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
