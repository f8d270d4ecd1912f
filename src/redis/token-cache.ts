import { systemClock } from '../core/clock.js';
import { memoryTokenCache } from '../core/tokens/memory-cache.js';
import type { TokenCache } from '../core/tokens/provider.js';
import type { RedisClientLike } from './client.js';
import { checkedCommandTimeout, DEFAULT_COMMAND_TIMEOUT_MS, redisOrLocal } from './fallback.js';
import type { RedisAdapterOptions } from './options.js';

/** KEYS[1] a lock, ARGV[1] its holder's id: deletes the lock only while that holder still has it. */
const RELEASE_OWN_LOCK = `if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end
return 0`;

/** Options of {@link createRedisTokenCache}. */
export type RedisTokenCacheOptions = RedisAdapterOptions;

/**
 * A `tokenCache` on Redis, shared by every process that uses the same client id and audience.
 * The token is stored under `{prefix}{key}` for its remaining lifetime (`PX`).
 * The SDK's key names the tenant, the client id and the audience, never the secret.
 * `lock` is `SET {prefix}{key}:lock {random id} NX PX`, so a cold fleet makes one token request.
 * Storing the token, or `unlock`, releases the lock, but only while it is still the one this cache took.
 * A script compares the id, so a holder whose lock expired never deletes a lock another process took since.
 * Within the process, a cache has one holder per key at a time.
 * Until the holder's `set` or `unlock`, `lock` answers `false` to the other clients that share the cache.
 *
 * When Redis is down, slow or not connected, the cache answers from memory (this process's own tokens).
 * `lock` then grants the lock.
 * Calls never fail because of the cache, and the fleet falls back to one token per process.
 *
 * ```ts
 * const redis = await createClient({ url }).connect();   // or: new Redis(url) (ioredis)
 * const management = new ManagementClient({ domain, clientId, clientSecret, tokenCache: createRedisTokenCache(redis) });
 * ```
 */
export function createRedisTokenCache(client: RedisClientLike, options: RedisTokenCacheOptions = {}): TokenCache {
  const { prefix = '', commandTimeoutMs = DEFAULT_COMMAND_TIMEOUT_MS } = options ?? {}; // null: none
  const run = redisOrLocal(client, checkedCommandTimeout(commandTimeoutMs));
  const local = memoryTokenCache(systemClock);
  const tokenKey = (key: string) => `${prefix}${key}`;
  const lockKey = (key: string) => `${prefix}${key}:lock`;
  /** The id under which this cache holds each key's lock, from `lock` until the holder's `set` or `unlock`. */
  const held = new Map<string, string>();
  /** Releases the key's lock if this cache holds it (and, with `owner`, only while that holder has it). */
  const release = async (key: string, owner = held.get(key)) => {
    if (owner === undefined || held.get(key) !== owner) return;
    held.delete(key);
    // Sent even while Redis answers locally (the token's SET failed, say): the others would wait for it.
    await run(
      ['EVAL', RELEASE_OWN_LOCK, 1, lockKey(key), owner],
      () => undefined,
      () => undefined,
      true,
    );
  };
  return {
    get: (key) =>
      run(
        ['GET', tokenKey(key)],
        (reply) => (typeof reply === 'string' ? reply : undefined),
        () => local.get(key) as string | undefined,
      ),
    async set(key, token, ttlMs) {
      // The holder when the token came: a slow store must not release a lock taken since by a neighbour client.
      const owner = held.get(key);
      local.set(key, token, ttlMs);
      // Two one-key commands rather than a script over both keys, so that a Redis Cluster may keep them on different nodes.
      await run(
        ['SET', tokenKey(key), token, 'PX', toPx(ttlMs)],
        () => undefined,
        () => undefined,
      );
      // Released once the token is visible, without holding the caller for a second command: waiters look
      // for the token before they try the lock, so they find it either way.
      void release(key, owner);
    },
    lock: async (key, ttlMs) => {
      // One holder per key in this process: a second client sharing this cache waits for the first one's token,
      // rather than taking over a lock whose id the first one's release would then delete.
      if (held.has(key)) return false;
      const owner = globalThis.crypto.randomUUID();
      held.set(key, owner);
      const granted = await run(
        ['SET', lockKey(key), owner, 'NX', 'PX', toPx(ttlMs)],
        (reply) => reply === 'OK',
        () => true,
      );
      if (!granted) held.delete(key);
      return granted;
    },
    unlock: (key) => release(key),
  };
}

/** A lifetime in milliseconds as Redis's `PX` takes it: a whole number, at least 1. */
function toPx(ttlMs: number): number {
  return Math.max(1, Math.floor(ttlMs));
}
