/** Messages between the fleet test (parent) and its worker processes (over the IPC channel of `fork`). */

/** How the workers of one run share state. */
export type FleetMode =
  /** Token cache and rate limiter on Redis: the fleet shares one token and one bucket. */
  | 'redis'
  /** Only the token cache on Redis; each process paces itself (the in-memory default limiter). */
  | 'redis-tokens-only'
  /** No Redis: each process has its own token and its own pacing (the SDK's defaults). */
  | 'per-process';

/** What a worker is told through its environment. */
export interface WorkerSettings {
  readonly mode: FleetMode;
  /** The emulator's origin, e.g. `http://127.0.0.1:PORT`. */
  readonly url: string;
  readonly redisUrl: string;
  /** `redis` (node-redis) or `ioredis`: half the fleet uses each, on the same keys. */
  readonly redisClient: 'redis' | 'ioredis';
  readonly clientId: string;
  readonly clientSecret: string;
  readonly calls: number;
  readonly concurrency: number;
}

/** Worker → parent. */
export type WorkerMessage =
  | { readonly type: 'ready' }
  | { readonly type: 'done'; readonly completed: number; readonly failed: number; readonly failures: readonly string[] };

/** Parent → worker: start calling. */
export interface GoMessage {
  readonly type: 'go';
}

/** The environment variable that carries a worker's {@link WorkerSettings} as JSON. */
export const WORKER_SETTINGS_ENV = 'IDPLATFORM_FLEET_WORKER';
