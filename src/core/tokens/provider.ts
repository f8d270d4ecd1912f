import { TokenRequestError } from '../errors.js';
import { isSendableHeaderValue } from '../http/headers.js';
import { loadOnce } from '../load-once.js';

/** Where a `ManagementClient` gets the bearer token of each request. */
export interface TokenProvider {
  /** The token to send now. A call stops waiting on its own signal or timer (the sender races each attempt's steps), not here. */
  getToken(): Promise<string>;
  /** Called when the API answered 401 to `token`: `true` when another token can be had (the request is then replayed once). */
  reject(token: string): boolean;
}

/**
 * Where client-credentials tokens are kept: in memory by default; a shared store (Redis, a file) lets processes share one token, within
 * the platform's token quota. Methods may be sync or async; no answer within the client's `timeoutMs` fails the call (`TokenRequestError`).
 */
export interface TokenCache {
  /** The cached token for `key`, or `undefined`/`null` when there is none (or it expired). */
  get(key: string): string | undefined | null | Promise<string | undefined | null>;
  /** Keeps `token` under `key` for `ttlMs` milliseconds; when it fails, the token goes unstored (the call still uses it). */
  set(key: string, token: string, ttlMs: number): void | Promise<void>;
  /**
   * Optional: takes the right to fetch `key`'s token for `ttlMs` (like Redis `SET NX PX`); `true` when this caller got it. The holder's
   * `set` of `key` should release it. With `lock`, a cold fleet makes one token request: the others wait for it in the cache.
   */
  lock?(key: string, ttlMs: number): boolean | Promise<boolean>;
  /** Optional, with `lock`: gives the right back when the holder could not fetch a token, so the next caller fetches at once. */
  unlock?(key: string): void | Promise<void>;
}

/** A bearer token string, or a function returning one (sync or async), given by the caller. */
export type TokenSource = string | (() => string | Promise<string>);

/** A provider over a caller's token (a 401 is final). A `token` function that throws, even an SDK error, gives `TokenRequestError`. */
export function callerTokenProvider(source: TokenSource): TokenProvider {
  if (typeof source === 'string') {
    const ready = Promise.resolve(source); // checked by the client's options
    return { getToken: () => ready, reject: () => false };
  }
  const call = async () => {
    let token: unknown;
    try {
      token = await source();
    } catch (error) {
      throw new TokenRequestError(error);
    }
    if (typeof token !== 'string' || token === '') throw new TokenRequestError(new TypeError('The `token` function returned no token'));
    // A token read from a file may end in a newline: the runtime's header error would quote it.
    if (!isSendableHeaderValue(token)) {
      throw new TokenRequestError(new TypeError('The `token` function returned a token an Authorization header cannot carry (a newline?)'));
    }
    return token;
  };
  return { getToken: call, reject: () => false };
}

/** A provider loaded on the first `getToken` (a chunk `token` apps never load); a failed load throws `TokenRequestError`, then retries. */
export function lazyTokenProvider(load: () => Promise<TokenProvider>): TokenProvider {
  let loaded: TokenProvider | undefined;
  const loadProvider = loadOnce(async () => {
    loaded = await load();
    return loaded;
  });
  return {
    getToken: () =>
      loaded?.getToken() ??
      loadProvider().then(
        (provider) => provider.getToken(),
        (error: unknown) => {
          throw new TokenRequestError(error);
        },
      ),
    reject: (token) => loaded?.reject(token) ?? false,
  };
}
