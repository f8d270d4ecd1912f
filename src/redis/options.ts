/** Options shared by `createRedisTokenCache` and `createRedisRateLimiter`. */
export interface RedisAdapterOptions {
  /** Put before every key, e.g. `'my-service:'`, to share a Redis with other data. Default `''`. */
  readonly prefix?: string | undefined;
  /**
   * How long a Redis command may take, in ms, before it is given up on and answered locally; default 1 000.
   * It must be more than 0 and at most 2^31 − 1, else `ConfigurationError`.
   * Keep it below the client's `timeoutMs`: the client gives up on a token cache that has not answered within that time.
   */
  readonly commandTimeoutMs?: number | undefined;
}
