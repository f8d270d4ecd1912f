/** What every entry point of the package exports: errors and the shared types. */

export type { Clock } from './clock.js';
export * from './errors.js';
export type { FetchLike } from './http.js';
export type { OnPagingLimit } from './paging.js';
export type { RateLimit } from './rate-limit.js';
export type { RateLimiter, RateLimiterWaitOptions } from './rate-limiter.js';
export type { RetryOptions } from './retry.js';
export type { TokenCache, TokenSource } from './token-provider.js';
export type { RequestOptions, ResponseInfo } from './transport.js';
