import type { Clock } from './clock.js';
import type { TokenCache } from './token-provider.js';

/** How long a process may hold the right to fetch a shared token; the holder's `set` releases it sooner. */
export const TOKEN_LOCK_TTL_MS = 5_000;
/** How often a process that did not get the lock looks for the token the holder fetches. */
export const TOKEN_LOCK_POLL_MS = 50;

/** What {@link waitForSharedToken} needs. */
export interface SharedTokenWait {
  readonly cache: TokenCache;
  readonly key: string;
  /** A token the API refused (401): it does not count as found. */
  readonly rejected: ReadonlySet<string>;
  readonly clock: Pick<Clock, 'now' | 'sleep'>;
}

/**
 * On a cache with `lock`, decides who fetches a missing token: returns `undefined`
 * when this process got the lock (it fetches), or the token another process
 * stored meanwhile. A holder that has not stored a token after
 * {@link TOKEN_LOCK_TTL_MS} is given up on, and `undefined` (fetch yourself) is
 * returned, so a crashed holder delays a fleet by a bounded time only.
 */
export async function waitForSharedToken({ cache, key, rejected, clock }: SharedTokenWait): Promise<string | undefined> {
  if (!cache.lock || (await cache.lock(key, TOKEN_LOCK_TTL_MS))) return undefined;
  const deadline = clock.now() + TOKEN_LOCK_TTL_MS;
  while (clock.now() < deadline) {
    await clock.sleep(TOKEN_LOCK_POLL_MS);
    const token = await cache.get(key);
    if (token && !rejected.has(token)) return token;
  }
  return undefined;
}
