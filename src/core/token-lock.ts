import type { Clock } from './clock.js';
import type { TokenCache } from './token-provider.js';

/**
 * How long a process may hold the right to fetch a shared token; the holder's `set`
 * (or `unlock`, when its request failed) releases it sooner. A holder slower than
 * this, or one that crashed, loses it to one of the processes waiting (clients of
 * one process that share a `createRedisTokenCache` wait for their own holder).
 */
export const TOKEN_LOCK_TTL_MS = 5_000;
/** How often a process that did not get the lock looks for the token the holder fetches, and tries the lock again. */
export const TOKEN_LOCK_POLL_MS = 50;

/** What {@link waitForSharedToken} needs. */
export interface SharedTokenWait {
  readonly cache: TokenCache;
  readonly key: string;
  /** Whether a cache's answer is a token to hand out (not one the API refused since). */
  readonly usable: (answer: unknown) => answer is string;
  readonly clock: Pick<Clock, 'now' | 'sleep'>;
  /** The longest wait for another process's token (the client's `timeoutMs`), for a lock that never comes free. */
  readonly maxWaitMs: number;
  /** Ends the wait (rejecting with its reason) when no call waits for the token any more. */
  readonly giveUp?: AbortSignal | undefined;
}

/** What {@link waitForSharedToken} answers when this process took the lock: it fetches, and stores or unlocks. */
export const HOLDS_LOCK: unique symbol = Symbol('holds the token lock');

/**
 * On a cache with `lock`, decides who fetches a missing token: returns
 * {@link HOLDS_LOCK} when this process got the lock (it fetches), the token another
 * process stored meanwhile, or `undefined` (fetch, without the lock) on a cache
 * without `lock`. A process that did not get the lock looks for the holder's token
 * every {@link TOKEN_LOCK_POLL_MS} and tries the lock again, so when the holder
 * gives it back (its request failed) or loses it (slower than
 * {@link TOKEN_LOCK_TTL_MS}, or crashed), one waiter takes over and the others go
 * on waiting: one more token request, not one per process. After `maxWaitMs`
 * without a token or the lock (a lock that never comes free), it fetches without.
 * When `giveUp` aborts, it stops looking and rejects with the signal's reason.
 */
export async function waitForSharedToken({
  cache,
  key,
  usable,
  clock,
  maxWaitMs,
  giveUp,
}: SharedTokenWait): Promise<string | typeof HOLDS_LOCK | undefined> {
  if (!cache.lock) return undefined;
  const found = async () => {
    const answer = await cache.get(key);
    return usable(answer) ? answer : undefined;
  };
  // Got the lock: unless the last holder stored a token after this process looked, or the look failed (the lock then goes back).
  const lockedOrFound = async () => {
    if (!(await cache.lock?.(key, TOKEN_LOCK_TTL_MS))) return undefined;
    let holds = false;
    try {
      const token = await found();
      holds = token === undefined;
      return token ?? HOLDS_LOCK;
    } finally {
      if (!holds) await releaseTokenLock(cache, key);
    }
  };
  const first = await lockedOrFound();
  if (first !== undefined) return first;
  const deadline = clock.now() + maxWaitMs;
  while (clock.now() < deadline) {
    await clock.sleep(TOKEN_LOCK_POLL_MS, giveUp);
    const answer = (await found()) ?? (await lockedOrFound());
    if (answer !== undefined) return answer;
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
