import { type Clock, withDeadline } from '../clock.js';
import { TokenRequestError } from '../errors.js';
import { isSendableHeaderValue } from '../http/headers.js';
import { isWorkerd } from '../options.js';
import type { TokenCache, TokenProvider } from './provider.js';

/** A freshly issued token and how long it lives (`expires_in`, in seconds). */
export interface IssuedToken {
  readonly accessToken: string;
  readonly expiresIn: number | undefined;
}

/** What {@link ClientCredentialsTokenProvider} is built with. */
export interface ClientCredentialsOptions {
  /** Requests a new token (the client-credentials grant), within its own bound: `timeoutMs` per attempt, its retries. */
  readonly fetchToken: () => Promise<IssuedToken>;
  readonly cache: TokenCache;
  /** Names this client's token in the cache (origin, client id and audience; nothing secret). */
  readonly cacheKey: string;
  /** The most time before expiry at which a token is renewed; short-lived tokens use a tenth of their life instead. */
  readonly maxSkewMs: number;
  readonly clock: Clock;
  /** How long one answer of the cache may take, and the longest wait for another process's token. */
  readonly timeoutMs: number;
}

/** Lifetime assumed when the server sends no `expires_in`. */
const DEFAULT_LIFETIME_SECONDS = 3600;
/** The longest life the platform gives an access token (30 days): a longer `expires_in` is read as this, so a cache's TTL stays finite. */
const MAX_LIFETIME_SECONDS = 30 * 24 * 3600;
/** `exp` is whole seconds on the server, so a token may die up to a second before `expires_in` says. */
const EXPIRY_ROUNDING_MS = 1000;
/** How long a process may hold the right to fetch a shared token; the holder's `set` or `unlock` releases it sooner. */
export const TOKEN_LOCK_TTL_MS = 5_000;
/** How often a process without the lock looks for the holder's token, and tries the lock again. */
export const TOKEN_LOCK_POLL_MS = 50;

/**
 * Fetches client-credentials tokens and caches them until `min(maxSkewMs, lifetime / 10)` plus a second before expiry (at most half the
 * lifetime early). Concurrent callers share one request that no caller owns: a call that stops waiting (its signal, its timer) leaves
 * it running, and the token is kept. Failures are not cached. In workerd a call never joins another's request: I/O started for one
 * request cannot be awaited by another.
 */
export class ClientCredentialsTokenProvider implements TokenProvider {
  readonly #options: ClientCredentialsOptions;
  #pending: Promise<string> | undefined;
  /** The token this client fetched last, and until when it may be handed out (a shared cache may not have it yet). */
  #fetched: { readonly token: string; readonly goodUntil: number } | undefined;
  readonly #rejected = new Set<string>();

  constructor(options: ClientCredentialsOptions) {
    this.#options = options;
  }

  getToken(): Promise<string> {
    const fetched = this.#fetched;
    if (fetched !== undefined && fetched.goodUntil > this.#options.clock.now() && !this.#rejected.has(fetched.token)) {
      return Promise.resolve(fetched.token);
    }
    if (this.#pending === undefined || isWorkerd()) {
      const started = this.#load();
      this.#pending = started;
      const settled = () => {
        if (this.#pending === started) this.#pending = undefined;
      };
      started.then(settled, settled);
    }
    return this.#pending;
  }

  reject(token: string): boolean {
    this.#rejected.add(token);
    // Remembered while a shared cache may still hand it out; a handful is enough.
    if (this.#rejected.size > 16) this.#rejected.delete(this.#rejected.values().next().value as string);
    return true;
  }

  #usable(answer: unknown): answer is string {
    return typeof answer === 'string' && answer !== '' && isSendableHeaderValue(answer) && !this.#rejected.has(answer);
  }

  /** The cache's answer, bounded by `timeoutMs` when it is a promise. */
  #ask<T>(method: string, answer: T | Promise<T>): T | Promise<T> {
    const { timeoutMs } = this.#options;
    return answer instanceof Promise
      ? withDeadline(answer, undefined, timeoutMs, `tokenCache.${method} did not answer within ${timeoutMs} ms`)
      : answer;
  }

  async #load(): Promise<string> {
    const { cache, cacheKey, fetchToken, maxSkewMs, clock } = this.#options;
    let holdsLock = false;
    try {
      const cached = await this.#ask('get', cache.get(cacheKey));
      if (this.#usable(cached)) return cached;
      const shared = await this.#waitForLock();
      if (typeof shared === 'string') return shared;
      holdsLock = shared;
    } catch (error) {
      throw new TokenRequestError(error);
    }
    let issued: IssuedToken;
    try {
      issued = await fetchToken();
      // Neither kept nor handed out: no request could send it.
      if (!isSendableHeaderValue(issued.accessToken))
        throw new TypeError('The token endpoint issued an access token an Authorization header cannot carry');
    } catch (error) {
      if (holdsLock) await this.#unlock();
      throw new TokenRequestError(error);
    }
    const lifetimeMs = Math.min(issued.expiresIn ?? DEFAULT_LIFETIME_SECONDS, MAX_LIFETIME_SECONDS) * 1000;
    const ttlMs = lifetimeMs - Math.min(Math.min(maxSkewMs, lifetimeMs / 10) + EXPIRY_ROUNDING_MS, lifetimeMs / 2);
    if (ttlMs > 0) this.#fetched = { token: issued.accessToken, goodUntil: clock.now() + ttlMs };
    // Stored while the call goes on with its token: a cache slow to store (or failing to) does not hold it.
    void this.#store(issued.accessToken, ttlMs, holdsLock);
    return issued.accessToken;
  }

  /** `true` when this process got the lock, the token another stored, or `false`: fetch unlocked (no `lock`, or busy past `timeoutMs`). */
  async #waitForLock(): Promise<string | boolean> {
    const { cache, cacheKey, clock, timeoutMs } = this.#options;
    if (!cache.lock) return false;
    const deadline = clock.now() + timeoutMs;
    while (true) {
      if (await this.#ask('lock', cache.lock(cacheKey, TOKEN_LOCK_TTL_MS))) {
        // The last holder may have stored its token since this process looked.
        let stored: unknown;
        try {
          stored = await this.#ask('get', cache.get(cacheKey));
        } catch (error) {
          await this.#unlock();
          throw error;
        }
        if (!this.#usable(stored)) return true;
        await this.#unlock();
        return stored;
      }
      if (clock.now() >= deadline) return false;
      await clock.sleep(TOKEN_LOCK_POLL_MS);
      const stored = await this.#ask('get', cache.get(cacheKey));
      if (this.#usable(stored)) return stored;
    }
  }

  async #store(token: string, ttlMs: number, holdsLock: boolean): Promise<void> {
    let stored = false;
    try {
      if (ttlMs > 0) {
        await this.#ask('set', this.#options.cache.set(this.#options.cacheKey, token, ttlMs));
        stored = true;
      }
    } catch {
      // Not stored: this client keeps it (`#fetched`).
    }
    if (holdsLock && !stored) await this.#unlock();
  }

  /** Gives the lock back, ignoring the cache's own failure: the lock expires anyway. */
  async #unlock(): Promise<void> {
    try {
      await this.#ask('unlock', this.#options.cache.unlock?.(this.#options.cacheKey));
    } catch {
      // The lock's TTL bounds the wait of the others.
    }
  }
}
