/** What every entry point of the package exports: the error classes and the shared types. */

export type { Clock } from './clock.js';
export {
  ApiError,
  type ApiErrorDetails,
  AuthApiError,
  type AuthApiErrorDetails,
  BadRequestError,
  ConfigurationError,
  ForbiddenError,
  HttpResponseError,
  type HttpResponseErrorDetails,
  IdPlatformError,
  IdTokenValidationError,
  InsufficientScopeError,
  NetworkError,
  NotFoundError,
  PagingLimitError,
  type PagingProgress,
  RateLimitError,
  RequestValidationError,
  ResponseValidationError,
  type ScopeName,
  ServerError,
  TimeoutError,
  TokenRequestError,
  UnauthorizedError,
  type ValidationIssue,
} from './errors.js';
export type { FetchLike } from './http.js';
export type { CommonClientOptions, RequestOptions, ResponseInfo, TenantLocation } from './options.js';
export type { OnPage, OnPagingLimit, PageProgress } from './paging.js';
export type { RateLimit } from './rate-limit.js';
export type { RateLimiter, RateLimiterReleaseOptions, RateLimiterWaitOptions } from './rate-limiter.js';
export type { RetryOptions } from './retry-policy.js';
export type { TokenCache, TokenSource } from './token-provider.js';
