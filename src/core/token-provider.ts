import type { Clock } from './clock.js';
import { withDeadline } from './deadline.js';
import { TokenRequestError } from './errors.js';
import { isSendableHeaderValue } from './header-values.js';
import { loadOnce } from './load-once.js';
import { untilAborted } from './signal.js';

/** Where a `ManagementClient` gets the bearer token of each request. */
export interface TokenProvider {
  /**
   * The token to send now. Rejects with the signal's reason when `signal` aborts;
   * a provider that has no timeout of its own gives up after `timeoutMs`.
   */
  getToken(signal?: AbortSignal, timeoutMs?: number): Promise<string>;
  /**
   * Called when the API answered 401 to `token`. Returns `true` when a different
   * token can be had (the request is then replayed once), `false` otherwise.
   */
  reject(token: string): boolean;
}

/**
 * Where client-credentials tokens are kept between requests. The default keeps
 * them in memory; a shared store (Redis, a file, …) lets many processes share one
 * token and stay within the platform's machine-to-machine token quota.
 * All methods may be sync or async. A `get` or `lock` that has not answered within
 * the client's `timeoutMs` fails the call (`TokenRequestError`, cause `TimeoutError`);
 * a `set` that fails or hangs leaves the token unstored (the call still uses it), and
 * an `unlock` that hangs delays the call by at most `timeoutMs`.
 */
export interface TokenCache {
  /** The cached token for `key`, or `undefined`/`null` when there is none (or it expired). */
  get(key: string): string | undefined | null | Promise<string | undefined | null>;
  /** Keeps `token` under `key` for `ttlMs` milliseconds. */
  set(key: string, token: string, ttlMs: number): void | Promise<void>;
  /**
   * Optional: takes the right to fetch the token of `key` for `ttlMs` (like Redis
   * `SET NX PX`); `true` when this caller got it. The holder's `set` of `key`
   * should release it, but only while the lock is still the one this caller took.
   * With `lock`, a cold fleet makes one token request: the others wait for the
   * holder's token in the cache and try the lock again, so that one of them takes
   * over when the holder gives it back or it expires.
   */
  lock?(key: string, ttlMs: number): boolean | Promise<boolean>;
  /**
   * Optional, with `lock`: gives the right taken with `lock` back when the holder
   * could not fetch a token (the token endpoint failed), so that the next caller
   * fetches at once instead of waiting for the lock to expire.
   */
  unlock?(key: string): void | Promise<void>;
}

/** A bearer token string, or a function returning one (sync or async), given by the caller. */
export type TokenSource = string | (() => string | Promise<string>);

/**
 * A provider over a caller's token: a 401 is final, since the SDK cannot make a new one.
 * A `token` function that hangs is given up on when `signal` aborts (its reason is
 * thrown) or after `timeoutMs` (`TimeoutError`); one that throws gives `TokenRequestError`,
 * whatever it threw (an SDK error of its own too, which would otherwise be read as
 * this call's: a 429 of its `AuthenticationClient` would be retried by this client).
 */
export function callerTokenProvider(source: TokenSource): TokenProvider {
  if (typeof source === 'string' && source !== '') {
    // A fixed token needs no deadline: handed over as it is, with no timer or closure per request.
    const ready = Promise.resolve(source);
    return { getToken: (signal) => (signal?.aborted ? Promise.reject(signal.reason) : ready), reject: () => false };
  }
  return {
    getToken: async (signal, timeoutMs) => {
      const pending = Promise.resolve()
        .then(() => (typeof source === 'function' ? source() : source))
        .catch((error: unknown) => {
          throw new TokenRequestError(error);
        });
      // Rejects with the function's TokenRequestError, the signal's reason, or the deadline's TimeoutError.
      const token: unknown = await withDeadline(pending, signal, timeoutMs, `The \`token\` function did not return within ${timeoutMs} ms`);
      if (typeof token !== 'string' || token === '') throw new TokenRequestError(new TypeError('The `token` function returned no token'));
      // Checked here, not as a header the caller never passed: a token read from a file may end in a newline.
      if (!isSendableHeaderValue(token)) {
        throw new TokenRequestError(
          new TypeError('The `token` function returned a token an Authorization header cannot carry (a newline?)'),
        );
      }
      return token;
    },
    reject: () => false,
  };
}

/** How often, at most, {@link memoryTokenCache} drops the entries whose time is up (when a token is stored). */
const EXPIRED_SWEEP_MS = 60_000;

/**
 * An in-memory {@link TokenCache} that forgets entries when their time is up: an
 * expired entry is dropped when it is read, and all of them, at most once a minute,
 * when a token is stored. A cache shared by the clients of many tenants (the Redis
 * adapter's copy, say) keeps no expired token for good.
 */
export function memoryTokenCache(clock: Pick<Clock, 'now'>): TokenCache {
  const entries = new Map<string, { token: string; expiresAt: number }>();
  let sweptAt = Number.NEGATIVE_INFINITY;
  return {
    get: (key) => {
      const entry = entries.get(key);
      if (entry === undefined) return undefined;
      if (entry.expiresAt > clock.now()) return entry.token;
      entries.delete(key);
      return undefined;
    },
    set: (key, token, ttlMs) => {
      const now = clock.now();
      if (now - sweptAt >= EXPIRED_SWEEP_MS) {
        sweptAt = now;
        for (const [other, entry] of entries) if (entry.expiresAt <= now) entries.delete(other);
      }
      entries.set(key, { token, expiresAt: now + ttlMs });
    },
  };
}

/**
 * A provider whose implementation loads on the first `getToken` (a lazy chunk):
 * the client-credentials machinery (token endpoint, client authentication, token
 * cache and lock) stays out of a bundle whose app passes a `token`. A failure to
 * load throws `TokenRequestError`, and the next call tries again.
 */
export function lazyTokenProvider(load: () => Promise<TokenProvider>): TokenProvider {
  let loaded: TokenProvider | undefined;
  const loadProvider = loadOnce(async () => {
    loaded = await load();
    return loaded;
  });
  return {
    getToken: (signal, timeoutMs) => {
      if (loaded) return loaded.getToken(signal, timeoutMs);
      const ready = loadProvider().catch((error: unknown) => {
        throw new TokenRequestError(error);
      });
      return (signal ? untilAborted(ready, signal) : ready).then((provider) => provider.getToken(signal, timeoutMs));
    },
    // A token this provider handed out was issued by the loaded implementation.
    reject: (token) => loaded?.reject(token) ?? false,
  };
}
