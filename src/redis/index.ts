/**
 * `idplatform/redis`: share client-credentials tokens and the tenant's rate limit
 * across processes on Redis (Node only). Pass a connected client of the `redis`
 * package (node-redis) or of `ioredis`; this module imports neither.
 *
 * @module
 */

export { ConfigurationError, IdPlatformError } from '../core/errors.js';
export type { RateLimiter, TokenCache } from '../core/public.js';
export type { IoRedisClientLike, NodeRedisClientLike, RedisClientLike } from './client.js';
export type { RedisAdapterOptions } from './options.js';
export { createRedisRateLimiter, type RedisRateLimiterOptions } from './rate-limiter.js';
export { createRedisTokenCache, type RedisTokenCacheOptions } from './token-cache.js';
