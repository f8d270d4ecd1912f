import { boundedTokenCache } from './bounded-token-cache.js';
import { type Clock, systemClock } from './clock.js';
import { TokenRequestError } from './errors.js';
import { untilAborted } from './signal.js';
import { HOLDS_LOCK, releaseTokenLock, waitForSharedToken } from './token-lock.js';
import type { TokenCache, TokenProvider } from './token-provider.js';

/** A freshly issued token and how long it lives (`expires_in`, in seconds). */
export interface IssuedToken {
  readonly accessToken: string;
  readonly expiresIn: number | undefined;
}

/** Options of {@link ClientCredentialsTokenProvider}. */
export interface ClientCredentialsTokenProviderOptions {
  /** Requests a new token (the client-credentials grant). */
  readonly fetchToken: () => Promise<IssuedToken>;
  readonly cache: TokenCache;
  /** Names this client's token in the cache (origin, client id and audience; nothing secret). */
  readonly cacheKey: string;
  /** The most time before expiry at which a token is refreshed; short-lived tokens use a tenth of their life instead. */
  readonly maxSkewMs: number;
  /** Time for waiting on another process's token (with `cache.lock`). Default: the system clock. */
  readonly clock?: Pick<Clock, 'now' | 'sleep'> | undefined;
  /**
   * The client's `timeoutMs`: how long any one answer of `cache` may take (a cache
   * that hangs then fails the call with `TimeoutError` as the cause, instead of
   * blocking the client), and the longest wait for another process's token.
   */
  readonly timeoutMs: number;
}

/** Lifetime assumed when the server sends no `expires_in`. */
const DEFAULT_LIFETIME_SECONDS = 3600;
/** `exp` is whole seconds (`floor(iat) + expires_in` on the server), so a token may die up to a second before `expires_in` says. */
const EXPIRY_ROUNDING_MS = 1000;
/** How many rejected tokens are remembered (never handed out again while a cache still holds them). */
const MAX_REJECTED = 16;

/**
 * Fetches client-credentials tokens and caches them until shortly before they
 * expire. The margin is `min(maxSkewMs, lifetime / 10)` plus a second for the
 * server's rounding of `exp`, at most half the lifetime: a 24 h token is renewed a
 * minute and a second early, a 10 s token two seconds early (reused for 8 s).
 *
 * Concurrent callers share one lookup and one in-flight request (100 calls on a
 * cold client make one token request); a failed request is not cached, and the
 * next call tries again. Failures, of the token request or of the `tokenCache`'s
 * look-up or lock (one that has not answered within `timeoutMs` included), throw
 * `TokenRequestError` with the failure as `cause`. A token fetched but not stored
 * (the cache's `set` failed) is still handed out: it is good, and it was paid for.
 */
export class ClientCredentialsTokenProvider implements TokenProvider {
  readonly #options: ClientCredentialsTokenProviderOptions;
  /** `options.cache`, each answer bounded by `options.timeoutMs`. */
  readonly #cache: TokenCache;
  #pending: Promise<string> | undefined;
  readonly #rejected = new Set<string>();

  constructor(options: ClientCredentialsTokenProviderOptions) {
    this.#options = options;
    this.#cache = boundedTokenCache(options.cache, options.timeoutMs);
  }

  getToken(signal?: AbortSignal): Promise<string> {
    if (signal?.aborted) return Promise.reject(signal.reason);
    if (this.#pending === undefined) {
      const cache = this.#cache;
      const { cacheKey } = this.#options;
      let cached: ReturnType<TokenCache['get']>;
      try {
        cached = cache.get(cacheKey);
      } catch (error) {
        cached = Promise.reject(error);
      }
      // A cache that answers at once (the default, in memory) hands its token over without a round of promises.
      if (this.#usable(cached)) return Promise.resolve(cached);
      this.#pending = this.#load(cached).finally(() => {
        this.#pending = undefined;
      });
    }
    return signal ? untilAborted(this.#pending, signal) : this.#pending;
  }

  /** Never hands out `token` again, even while a shared cache still holds it; every request it failed is replayed once. */
  reject(token: string): boolean {
    this.#rejected.add(token);
    if (this.#rejected.size > MAX_REJECTED) this.#rejected.delete(this.#rejected.values().next().value as string);
    return true;
  }

  /** Whether a cache's answer is a token to hand out: a non-empty string not rejected since. */
  #usable(cached: unknown): cached is string {
    return typeof cached === 'string' && cached !== '' && !this.#rejected.has(cached);
  }

  /** Takes the cache's answer (`cached`), or fetches a token when it has none. */
  async #load(cachedAnswer: ReturnType<TokenCache['get']>): Promise<string> {
    const cache = this.#cache;
    const { cacheKey, fetchToken, maxSkewMs, timeoutMs } = this.#options;
    let shared: Awaited<ReturnType<typeof waitForSharedToken>>;
    try {
      const cached = await cachedAnswer;
      if (this.#usable(cached)) return cached;
      const clock = this.#options.clock ?? systemClock;
      const usable = (answer: unknown) => this.#usable(answer);
      shared = await waitForSharedToken({ cache, key: cacheKey, usable, clock, maxWaitMs: timeoutMs });
      if (typeof shared === 'string') return shared;
    } catch (error) {
      throw new TokenRequestError(error);
    }
    let stored = false;
    try {
      let issued: IssuedToken;
      try {
        issued = await fetchToken();
      } catch (error) {
        throw new TokenRequestError(error);
      }
      const lifetimeMs = (issued.expiresIn ?? DEFAULT_LIFETIME_SECONDS) * 1000;
      const ttlMs = lifetimeMs - Math.min(Math.min(maxSkewMs, lifetimeMs / 10) + EXPIRY_ROUNDING_MS, lifetimeMs / 2);
      if (ttlMs > 0) {
        try {
          await cache.set(cacheKey, issued.accessToken, ttlMs); // which releases the lock
          stored = true;
        } catch {
          // Not stored (the cache failed or did not answer in time): the token is good, and this call uses it.
        }
      }
      return issued.accessToken;
    } finally {
      // A holder that stored no token (the request failed, the store failed, or the token is too short-lived to keep)
      // gives the lock back, so that the next caller need not wait for it to expire.
      if (shared === HOLDS_LOCK && !stored) await releaseTokenLock(cache, cacheKey);
    }
  }
}
