import type { Clock } from '../clock.js';
import type { TokenCache } from './provider.js';

/** How often, at most, {@link memoryTokenCache} drops the entries whose time is up. */
const EXPIRED_SWEEP_MS = 60_000;

/** An in-memory {@link TokenCache} that forgets entries whose time is up (sweeping at most once a minute, when a token is stored). */
export function memoryTokenCache(clock: Pick<Clock, 'now'>): TokenCache {
  const entries = new Map<string, { token: string; expiresAt: number }>();
  let sweptAt = Number.NEGATIVE_INFINITY;
  return {
    get: (key) => {
      const entry = entries.get(key);
      if (entry !== undefined && entry.expiresAt > clock.now()) return entry.token;
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
