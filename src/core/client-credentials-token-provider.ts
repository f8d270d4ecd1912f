import { boundedTokenCache } from './bounded-token-cache.js';
import { type Clock, systemClock } from './clock.js';
import { TokenRequestError } from './errors.js';
import { isSendableHeaderValue } from './header-values.js';
import { leftAWait, type SharedAttempt, SharedWork, type SharedWorkOptions } from './shared-work.js';
import { isThenable } from './thenable.js';
import { HOLDS_LOCK, releaseTokenLock, TOKEN_LOCK_TTL_MS, waitForSharedToken } from './token-lock.js';
import type { TokenCache, TokenProvider } from './token-provider.js';

/** A freshly issued token and how long it lives (`expires_in`, in seconds). */
export interface IssuedToken {
  readonly accessToken: string;
  readonly expiresIn: number | undefined;
}

/** Options of {@link ClientCredentialsTokenProvider}. */
export interface ClientCredentialsTokenProviderOptions {
  /** Requests a new token (the client-credentials grant), as work that calls share (`giveUp` stops its retries). */
  readonly fetchToken: (shared: SharedAttempt) => Promise<IssuedToken>;
  readonly cache: TokenCache;
  /** Names this client's token in the cache (origin, client id and audience; nothing secret). */
  readonly cacheKey: string;
  /** The most time before expiry at which a token is refreshed; short-lived tokens use a tenth of their life instead. */
  readonly maxSkewMs: number;
  /** Time for the token's life here and for waiting on another process's token (with `cache.lock`). Default: the system clock. */
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
/** The longest life the platform gives an access token (30 days): a longer `expires_in` is read as this, so a cache's TTL stays finite. */
const MAX_LIFETIME_SECONDS = 30 * 24 * 3600;
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
 * `TokenRequestError` with the failure as `cause`. A token fetched is handed out at
 * once and stored meanwhile; one the cache failed to store is still handed out (it is
 * good, and it was paid for), and this client keeps using it until its time is up.
 */
export class ClientCredentialsTokenProvider implements TokenProvider {
  readonly #options: ClientCredentialsTokenProviderOptions;
  /** `options.cache`, each answer bounded by `options.timeoutMs`. */
  readonly #cache: TokenCache;
  /** `options.clock`, or the system clock. */
  readonly #clock: Pick<Clock, 'now' | 'sleep'>;
  /** The look-up or token request that concurrent callers share, until it ends. */
  #pending: SharedWork<string> | undefined;
  /** The token this client fetched last and until when it may be handed out (the cache's time to live). */
  #fetched: { readonly token: string; readonly goodUntil: number } | undefined;
  readonly #rejected = new Set<string>();
  /** The last failure of a token request that every caller gave up during a wait it demanded (see `SharedAttempt.resumeAfter`). */
  #givenUpFailure: unknown;
  /** The last wait for a token lock held elsewhere that every caller gave up: when it began, and when it was given up. */
  #lockWaitGivenUp: { readonly since: number; readonly at: number } | undefined;

  constructor(options: ClientCredentialsTokenProviderOptions) {
    this.#options = options;
    this.#cache = boundedTokenCache(options.cache, options.timeoutMs);
    this.#clock = options.clock ?? systemClock;
  }

  /**
   * The token to send: the one this client fetched last (while it is good: a shared
   * cache may not have it yet, or may have failed to store it), or the cache's, or a
   * new one. A caller waits for a token being fetched as long as its `signal` and
   * `timeoutMs` allow (`TimeoutError`); the fetch goes on for the others. When every
   * caller has given it up, it sends no retry and stops looking for another process's
   * token; a request in flight still ends, and the next caller gets its token.
   */
  getToken(signal?: AbortSignal, timeoutMs?: number): Promise<string> {
    if (signal?.aborted) return Promise.reject(signal.reason);
    let pending = this.#pending;
    if (pending === undefined) {
      // The token this client fetched, while good: no look-up (one of a shared cache could fail unheard).
      const fetched = this.#lastFetched();
      if (fetched !== undefined) return Promise.resolve(fetched);
      const cached = this.#lookUp();
      // A cache that answers at once (the default, in memory) hands its token over without a round of promises.
      if (this.#usable(cached)) return Promise.resolve(cached);
      pending = new SharedWork((shared) => this.#load(cached, shared), { resumeAfter: this.#givenUpFailure, ...this.#settling(cached) });
    } else {
      // Given up by every caller before it ended: its request in flight may still bring a token, else a new
      // look-up (and request, after what is left of a wait a 429 of the given-up request demanded).
      pending = pending.continued((shared) => this.#load(this.#lookUp(), shared));
    }
    if (pending !== this.#pending) {
      const started = pending;
      this.#pending = started;
      started.result.then(
        () => {
          this.#givenUpFailure = undefined;
          if (this.#pending === started) this.#pending = undefined;
        },
        (error: unknown) => {
          // A 429 whose wait every caller gave up: the next request waits out the rest.
          if (started.givenUp && leftAWait(requestFailureOf(error))) this.#givenUpFailure = error;
          if (this.#pending === started) this.#pending = undefined;
        },
      );
    }
    const ownTimeoutMs = timeoutMs !== undefined && timeoutMs < this.#options.timeoutMs ? timeoutMs : undefined;
    return pending.wait(signal, ownTimeoutMs, `The Management API token did not come within ${timeoutMs} ms`);
  }

  /**
   * How long a token load can still take once every caller gave it up (see
   * `SharedWorkOptions.settlesWithinMs`): its steps, each bounded by `timeoutMs`: the
   * token request (getting it ready, the client authentication, then sending it), the
   * look-up when the cache did not answer at once (`cachedAnswer`), and on a cache
   * with a lock, the lock, a second look-up and the unlock. The loads that take a
   * given-up one over keep its bound.
   */
  #settling(cachedAnswer: ReturnType<TokenCache['get']>): Pick<SharedWorkOptions, 'settlesWithinMs' | 'clock'> {
    const steps = 2 + (isThenable(cachedAnswer) ? 1 : 0) + (this.#options.cache.lock ? 3 : 0);
    return { settlesWithinMs: steps * this.#options.timeoutMs, clock: this.#clock };
  }

  /** The cache's answer for this client's token (a synchronous failure as a rejected promise). */
  #lookUp(): ReturnType<TokenCache['get']> {
    try {
      return this.#cache.get(this.#options.cacheKey);
    } catch (error) {
      return Promise.reject(error);
    }
  }

  /** The token this client fetched last, while it is good and not rejected; `undefined` otherwise. */
  #lastFetched(): string | undefined {
    const fetched = this.#fetched;
    if (fetched === undefined) return undefined;
    if (fetched.goodUntil > this.#clock.now() && !this.#rejected.has(fetched.token)) return fetched.token;
    this.#fetched = undefined;
    return undefined;
  }

  /** Never hands out `token` again, even while a shared cache still holds it; every request it failed is replayed once. */
  reject(token: string): boolean {
    this.#rejected.add(token);
    if (this.#rejected.size > MAX_REJECTED) this.#rejected.delete(this.#rejected.values().next().value as string);
    return true;
  }

  /**
   * Whether a cache's answer is a token to hand out: a non-empty string that a header
   * can carry (a cache may hand back what it was given with a newline added, say),
   * not rejected since. Anything else is a miss: a new token is fetched and stored.
   */
  #usable(cached: unknown): cached is string {
    return typeof cached === 'string' && cached !== '' && isSendableHeaderValue(cached) && !this.#rejected.has(cached);
  }

  /**
   * {@link waitForSharedToken}, for at most `timeoutMs` from the start of a wait that
   * calls gave up less than {@link TOKEN_LOCK_TTL_MS} before (longer than a live
   * holder keeps the lock): calls with short deadlines, one after another, behind a
   * lock that never comes free, do not each start the wait afresh, and the token is
   * fetched without the lock once that time is up.
   */
  async #waitForLock(usable: (answer: unknown) => answer is string, giveUp: AbortSignal): ReturnType<typeof waitForSharedToken> {
    const clock = this.#clock;
    const { cacheKey, timeoutMs } = this.#options;
    const now = clock.now();
    const earlier = this.#lockWaitGivenUp;
    const since = earlier !== undefined && now - earlier.at <= TOKEN_LOCK_TTL_MS ? earlier.since : now;
    this.#lockWaitGivenUp = undefined;
    try {
      const maxWaitMs = since + timeoutMs - now;
      return await waitForSharedToken({ cache: this.#cache, key: cacheKey, usable, clock, maxWaitMs, giveUp });
    } catch (error) {
      if (giveUp.aborted) this.#lockWaitGivenUp = { since, at: clock.now() };
      throw error;
    }
  }

  /** Takes the cache's answer (`cached`), or fetches a token when it has none. */
  async #load(cachedAnswer: ReturnType<TokenCache['get']>, shared: SharedAttempt): Promise<string> {
    const cache = this.#cache;
    const { cacheKey, fetchToken, maxSkewMs } = this.#options;
    let waited: Awaited<ReturnType<typeof waitForSharedToken>>;
    try {
      const cached = await cachedAnswer;
      if (this.#usable(cached)) return cached;
      const usable = (answer: unknown) => this.#usable(answer);
      waited = await this.#waitForLock(usable, shared.giveUp);
      if (typeof waited === 'string') return waited;
    } catch (error) {
      throw new TokenRequestError(error);
    }
    const holdsLock = waited === HOLDS_LOCK;
    let issued: IssuedToken;
    try {
      const { giveUp, resumeAfter } = shared;
      issued = await fetchToken({ giveUp, resumeAfter: requestFailureOf(resumeAfter) });
      // Neither kept nor handed out: no request could send it, so no 401 would ever replace it.
      if (!isSendableHeaderValue(issued.accessToken)) {
        throw new TypeError(
          'The token endpoint issued an access token an Authorization header cannot carry (a newline, or a character beyond Latin-1)',
        );
      }
    } catch (error) {
      // A holder without a token gives the lock back, so that the next caller need not wait for it to expire.
      if (holdsLock) await releaseTokenLock(cache, cacheKey);
      throw new TokenRequestError(error);
    }
    const lifetimeMs = Math.min(issued.expiresIn ?? DEFAULT_LIFETIME_SECONDS, MAX_LIFETIME_SECONDS) * 1000;
    const ttlMs = lifetimeMs - Math.min(Math.min(maxSkewMs, lifetimeMs / 10) + EXPIRY_ROUNDING_MS, lifetimeMs / 2);
    if (ttlMs > 0) this.#fetched = { token: issued.accessToken, goodUntil: this.#clock.now() + ttlMs };
    // Stored while the call goes on with its token: a cache slow to store (or failing to) does not hold it.
    void this.#store(issued.accessToken, ttlMs, holdsLock);
    return issued.accessToken;
  }

  /**
   * Stores `token` for `ttlMs` (the cache's `set` releases the lock); a holder that
   * stored nothing (the store failed, or the token is too short-lived to keep) gives
   * the lock back.
   */
  async #store(token: string, ttlMs: number, holdsLock: boolean): Promise<void> {
    const { cacheKey } = this.#options;
    let stored = false;
    if (ttlMs > 0) {
      try {
        await this.#cache.set(cacheKey, token, ttlMs);
        stored = true;
      } catch {
        // Not stored (the cache failed or did not answer in time): this client keeps it (`#fetched`).
      }
    }
    if (holdsLock && !stored) await releaseTokenLock(this.#cache, cacheKey);
  }
}

/** The token request's own failure in what a load rejected with (`TokenRequestError` wraps it): what a 429's wait is kept by. */
function requestFailureOf(error: unknown): unknown {
  return error instanceof TokenRequestError ? error.cause : error;
}
