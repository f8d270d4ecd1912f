import { withDeadline } from './deadline.js';
import { isThenable } from './thenable.js';
import { releaseTokenLock } from './token-lock.js';
import type { TokenCache } from './token-provider.js';

/**
 * `cache` with every asynchronous answer bounded by `timeoutMs`: a `get`, `set`,
 * `lock` or `unlock` that has not settled by then rejects with `TimeoutError`
 * (naming the method), so a token cache that hangs fails the calls that need it
 * instead of blocking the client for good. A `lock` given up on that the cache
 * grants later is given back (`unlock`): its caller failed and would never release
 * it. Synchronous answers (the default memory cache) are handed over as they are,
 * with no timer. Optional methods stay absent.
 */
export function boundedTokenCache(cache: TokenCache, timeoutMs: number): TokenCache {
  const bounded = <T>(method: string, answer: T | Promise<T>): T | Promise<T> =>
    isThenable(answer)
      ? withDeadline(Promise.resolve(answer), undefined, timeoutMs, `tokenCache.${method} did not answer within ${timeoutMs} ms`)
      : answer;
  const { lock, unlock } = cache;
  return {
    get: (key) => bounded('get', cache.get(key)),
    set: (key, token, ttlMs) => bounded('set', cache.set(key, token, ttlMs)),
    ...(lock && {
      lock: (key: string, ttlMs: number) => {
        const answer = lock.call(cache, key, ttlMs);
        const checked = bounded('lock', answer);
        if (checked !== answer) {
          // A lock granted after its caller gave up on it (the caller fails, and would never release it) goes back at once.
          (checked as Promise<boolean>).catch(() =>
            // Through Promise.resolve: a thenable whose `then` throws would throw here, unhandled.
            Promise.resolve(answer).then(
              (granted) => {
                if (granted) void releaseTokenLock(cache, key);
              },
              () => {},
            ),
          );
        }
        return checked;
      },
    }),
    ...(unlock && { unlock: (key: string) => bounded('unlock', unlock.call(cache, key)) }),
  };
}
