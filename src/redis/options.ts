/** Options shared by `createRedisTokenCache` and `createRedisRateLimiter`. */
export interface RedisAdapterOptions {
  /** Put before every key, e.g. `'my-service:'`, to share a Redis with other data. Default `''`. */
  readonly prefix?: string | undefined;
  /** A command slower than this (ms) is given up on and answered locally. Default 1 000. */
  readonly commandTimeoutMs?: number | undefined;
}
