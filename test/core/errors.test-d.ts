import { describe, expectTypeOf, it } from 'vitest';
import type {
  ApiError,
  BadRequestError,
  ForbiddenError,
  InsufficientScopeError,
  NotFoundError,
  RateLimit,
  RateLimitError,
  Scope,
  ScopeName,
  UnauthorizedError,
} from '../../src/management/index.js';

declare const notFound: NotFoundError;
declare const rateLimited: RateLimitError;
declare const apiError: ApiError;
declare const insufficient: InsufficientScopeError;

describe('error types', () => {
  it('types the status of each status class as its literal', () => {
    expectTypeOf<NotFoundError['status']>().toEqualTypeOf<404>();
    expectTypeOf<BadRequestError['status']>().toEqualTypeOf<400>();
    expectTypeOf<UnauthorizedError['status']>().toEqualTypeOf<401>();
    expectTypeOf<ForbiddenError['status']>().toEqualTypeOf<403>();
    expectTypeOf<RateLimitError['status']>().toEqualTypeOf<429>();
    expectTypeOf<ApiError['status']>().toEqualTypeOf<number>();
    // @ts-expect-error a NotFoundError is never a 500: the comparison has no overlap
    if (notFound.status === 500) throw new Error('unreachable');
  });

  it('types RateLimitError.rateLimit as always present, ApiError.rateLimit as optional', () => {
    expectTypeOf(rateLimited.rateLimit).toEqualTypeOf<RateLimit>();
    expectTypeOf(rateLimited.rateLimit.reset).toEqualTypeOf<Date>();
    expectTypeOf(apiError.rateLimit).toEqualTypeOf<RateLimit | undefined>();
    // @ts-expect-error an ApiError may have no rate-limit headers
    apiError.rateLimit.reset;
  });

  it('types InsufficientScopeError.required as a scope name that every Scope fits', () => {
    expectTypeOf(insufficient.required).toEqualTypeOf<ScopeName>();
    expectTypeOf<Scope>().toExtend<ScopeName>();
    expectTypeOf<'read:organization_invitations'>().toExtend<typeof insufficient.required>();
    // @ts-expect-error a scope is `<verb>:<resource>`
    const notAScope: typeof insufficient.required = 'organization_invitations';
    expectTypeOf(notAScope).toEqualTypeOf<ScopeName>();
  });
});
