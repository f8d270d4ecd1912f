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
export type { RateLimit } from './http/rate-limit.js';
export type { CommonClientOptions, FetchLike, RequestOptions, ResponseInfo, RetryOptions, TenantLocation } from './options.js';
export type { RateLimiter, RateLimiterWaitOptions } from './pacing.js';
export type { OnPage, OnPagingLimit, PageProgress } from './paging.js';
export type { TokenCache, TokenSource } from './tokens/provider.js';
