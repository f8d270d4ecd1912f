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

/** What {@link waitForSharedToken} answers when this process took the lock: it fetches, and stores or unlocks. */
export const HOLDS_LOCK: unique symbol = Symbol('holds the token lock');

/**
 * On a cache with `lock`, decides who fetches a missing token: returns
 * {@link HOLDS_LOCK} when this process got the lock (it fetches), the token another
 * process stored meanwhile, or `undefined` (fetch, without the lock) on a cache
 * without `lock` or when a holder has not stored a token after
 * {@link TOKEN_LOCK_TTL_MS}, so a crashed holder delays a fleet by a bounded time only.
 */
export async function waitForSharedToken({
  cache,
  key,
  rejected,
  clock,
}: SharedTokenWait): Promise<string | typeof HOLDS_LOCK | undefined> {
  if (!cache.lock) return undefined;
  if (await cache.lock(key, TOKEN_LOCK_TTL_MS)) return HOLDS_LOCK;
  const deadline = clock.now() + TOKEN_LOCK_TTL_MS;
  while (clock.now() < deadline) {
    await clock.sleep(TOKEN_LOCK_POLL_MS);
    const token = await cache.get(key);
    if (token && !rejected.has(token)) return token;
  }
  return undefined;
}

/** Gives the lock back after a failed fetch (`unlock`), ignoring the cache's own failure: the lock expires anyway. */
export async function releaseTokenLock(cache: TokenCache, key: string): Promise<void> {
  try {
    await cache.unlock?.(key);
  } catch {
    // The lock's TTL bounds the wait of the others.
  }
}
