import { inspect } from 'node:util';
import { describe, expect, it } from 'vitest';
import {
  ApiError,
  type ApiErrorDetails,
  AuthApiError,
  BadRequestError,
  ConfigurationError,
  createApiError,
  ForbiddenError,
  IdPlatformError,
  InsufficientScopeError,
  NetworkError,
  NotFoundError,
  PagingLimitError,
  RateLimitError,
  RequestValidationError,
  ResponseValidationError,
  ServerError,
  TimeoutError,
  TokenRequestError,
  UnauthorizedError,
} from '../../src/core/errors.js';

const RESET = new Date(1_700_000_010_000);

function details(status: number): ApiErrorDetails {
  return {
    status,
    error: 'Bad Request',
    message: 'Requesting page exceeds the allowed maximum of 1000 records',
    errorCode: 'invalid_paging',
    body: { statusCode: status, error: 'Bad Request', message: 'Requesting page exceeds the allowed maximum of 1000 records' },
    headers: { 'content-type': 'application/json' },
    rateLimit: { limit: 50, remaining: 49, reset: RESET },
    method: 'GET',
    path: '/organizations/org_1/invitations',
  };
}

const authApiError = () =>
  new AuthApiError({
    status: 401,
    error: 'access_denied',
    errorDescription: 'Unauthorized',
    body: { error: 'access_denied', error_description: 'Unauthorized' },
    headers: {},
    rateLimit: undefined,
  });

describe('createApiError', () => {
  it.each([
    [400, BadRequestError],
    [401, UnauthorizedError],
    [403, ForbiddenError],
    [404, NotFoundError],
    [429, RateLimitError],
    [500, ServerError],
    [503, ServerError],
  ])('builds the subclass for %i', (status, errorClass) => {
    const error = createApiError(details(status));
    expect(error).toBeInstanceOf(errorClass);
    expect(error).toBeInstanceOf(ApiError);
    expect(error.name).toBe(errorClass.name);
  });

  it('builds a plain ApiError for a status without a subclass (418)', () => {
    const error = createApiError(details(418));
    expect(error.constructor).toBe(ApiError);
    expect(error.name).toBe('ApiError');
  });

  it('keeps every detail as a field', () => {
    expect(createApiError(details(400))).toMatchObject({ ...details(400), message: details(400).message });
  });
});

describe('toJSON', () => {
  it('gives name, message and the public fields of an ApiError', () => {
    expect(JSON.parse(JSON.stringify(createApiError(details(429))))).toEqual({
      name: 'RateLimitError',
      message: 'Requesting page exceeds the allowed maximum of 1000 records',
      code: 'rate_limited',
      status: 429,
      error: 'Bad Request',
      errorCode: 'invalid_paging',
      body: details(429).body,
      headers: { 'content-type': 'application/json' },
      rateLimit: { limit: 50, remaining: 49, reset: RESET.toISOString() },
      method: 'GET',
      path: '/organizations/org_1/invitations',
    });
  });

  it('nests the toJSON of an SDK error given as cause', () => {
    const json = new TokenRequestError(authApiError()).toJSON();
    expect(json).toMatchObject({
      name: 'TokenRequestError',
      message: 'Could not obtain a Management API access token: access_denied: Unauthorized',
      cause: { name: 'AuthApiError', status: 401, error: 'access_denied', errorDescription: 'Unauthorized' },
    });
  });

  it('keeps only name and message of any other cause', () => {
    const cause = Object.assign(new TypeError('fetch failed'), { request: { headers: { authorization: 'Bearer x' } } });
    expect(new NetworkError('GET /x failed: fetch failed', { cause }).toJSON()).toEqual({
      name: 'NetworkError',
      message: 'GET /x failed: fetch failed',
      code: 'network',
      cause: { name: 'TypeError', message: 'fetch failed' },
    });
  });

  it('ends a cause loop between SDK errors, as it ends one between other errors', () => {
    const inner = authApiError();
    const outer = new TokenRequestError(inner);
    Object.defineProperty(inner, 'cause', { value: outer });
    const json = outer.toJSON();
    let depth = 0;
    for (let link = json.cause as { cause?: unknown } | undefined; link; link = link.cause as { cause?: unknown } | undefined) depth++;
    expect(depth).toBe(8);
    expect(() => JSON.stringify(outer)).not.toThrow();
    expect(() => inspect(outer)).not.toThrow();
  });

  it('keeps the public fields of a cause from the other build (ESM/CJS) or another realm', async () => {
    const { runInNewContext } = await import('node:vm');
    // An AuthApiError of another copy of the SDK: recognised by its brand, shown through its own toJSON.
    const otherBuild = Object.assign(new Error('access_denied: Unauthorized'), {
      toJSON: () => ({ name: 'AuthApiError', status: 401, error: 'access_denied' }),
    });
    Object.defineProperty(otherBuild, Symbol.for('idplatform.error'), { value: ['auth_api_error', 'http_error', 'idplatform_error'] });
    expect(new TokenRequestError(otherBuild).toJSON().cause).toEqual({ name: 'AuthApiError', status: 401, error: 'access_denied' });
    const foreign: unknown = runInNewContext(`Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' })`);
    expect(new NetworkError('GET /x failed', { cause: foreign }).toJSON().cause).toEqual({
      name: 'Error',
      message: 'connect ECONNREFUSED',
      code: 'ECONNREFUSED',
    });
  });

  it('lists the issues of validation errors', () => {
    const issues = [{ code: 'too_big', path: ['per_page'], message: 'per_page must be between 1 and 100' }];
    expect(new RequestValidationError(issues).toJSON()).toMatchObject({ issues });
    expect(new ResponseValidationError(issues, { per_page: 500 }).toJSON()).toMatchObject({ issues, body: { per_page: 500 } });
  });
});

describe('messages', () => {
  it('reads as text a cause that only poses as an error (its toStringTag says Error, it has no message)', () => {
    const posing = { [Symbol.toStringTag]: 'Error' };
    expect(new TokenRequestError(posing).message).toBe('Could not obtain a Management API access token: [object Error]');
  });

  it('RequestValidationError takes an issue whose path holds a symbol (a caller schema may make one)', () => {
    const error = new RequestValidationError([{ code: 'custom', path: ['a', Symbol('b')], message: 'broken' }]);
    expect(error.message).toContain('a.Symbol(b): broken');
  });

  it('RequestValidationError names each broken rule with its path', () => {
    const error = new RequestValidationError([
      { code: 'too_big', path: ['per_page'], message: 'per_page must be between 1 and 100' },
      { code: 'custom', path: [], message: 'something else' },
    ]);
    expect(error.message).toBe('Invalid request parameters: per_page: per_page must be between 1 and 100; something else');
  });

  it('AuthApiError joins error and description, or gives the error alone', () => {
    expect(authApiError().message).toBe('access_denied: Unauthorized');
    expect(
      new AuthApiError({
        status: 500,
        error: 'server_error',
        errorDescription: undefined,
        body: undefined,
        headers: {},
        rateLimit: undefined,
      }).message,
    ).toBe('server_error');
  });

  it('InsufficientScopeError names the required and granted scopes', () => {
    const error = new InsufficientScopeError('read:organization_invitations', ['read:users']);
    expect(error.message).toContain('"read:organization_invitations"');
    expect(error.message).toContain('granted: read:users');
    expect(error).toMatchObject({ required: 'read:organization_invitations', granted: ['read:users'] });
    expect(new InsufficientScopeError('read:x', []).message).toContain('granted: none');
  });

  it('PagingLimitError tells how many records were reachable and how to stop quietly', () => {
    const error = new PagingLimitError(1000);
    expect(error.reachable).toBe(1000);
    expect(error.message).toContain('first 1000 records');
    expect(error.message).toContain("onLimit: 'stop'");
  });
});

describe('the error hierarchy', () => {
  const everyError: IdPlatformError[] = [
    new ConfigurationError('bad options'),
    new RequestValidationError([]),
    new ResponseValidationError([], undefined),
    createApiError(details(418)),
    ...[400, 401, 403, 404, 429, 500].map((status) => createApiError(details(status))),
    new InsufficientScopeError('read:x', []),
    new PagingLimitError(1000),
    new TimeoutError('timed out'),
    new NetworkError('failed'),
    authApiError(),
    new TokenRequestError(new Error('x')),
  ];

  it.each(everyError.map((error) => [error.name, error]))(
    '%s extends IdPlatformError and Error, and is named after its class',
    (_name, error) => {
      expect(error).toBeInstanceOf(IdPlatformError);
      expect(error).toBeInstanceOf(Error);
      expect(error.name).toBe(error.constructor.name);
      expect(error.stack).toContain(error.name);
    },
  );
});

describe('util.inspect', () => {
  it('shows the stack and the public fields', () => {
    const output = inspect(createApiError(details(404)), { depth: 10 });
    expect(output).toContain('NotFoundError: Requesting page exceeds the allowed maximum of 1000 records');
    expect(output).toContain('"status": 404');
    expect(output).toContain('"errorCode": "invalid_paging"');
    expect(output).toContain('"path": "/organizations/org_1/invitations"');
    expect(output).toContain('"remaining": 49');
  });

  it('shows the cause’s public fields', () => {
    const output = inspect(new TokenRequestError(authApiError()), { depth: 10 });
    expect(output).toContain('TokenRequestError');
    expect(output).toContain('"errorDescription": "Unauthorized"');
  });
});

describe('error codes and IdPlatformError.is', () => {
  const cases: [IdPlatformError, string, string][] = [
    [new ConfigurationError('x'), 'configuration_invalid', 'ConfigurationError'],
    [new RequestValidationError([]), 'request_invalid', 'RequestValidationError'],
    [new ResponseValidationError([], null), 'response_invalid', 'ResponseValidationError'],
    [createApiError(details(400)), 'bad_request', 'BadRequestError'],
    [createApiError(details(401)), 'unauthorized', 'UnauthorizedError'],
    [createApiError(details(403)), 'forbidden', 'ForbiddenError'],
    [createApiError(details(404)), 'not_found', 'NotFoundError'],
    [createApiError(details(429)), 'rate_limited', 'RateLimitError'],
    [createApiError(details(503)), 'server_error', 'ServerError'],
    [createApiError(details(418)), 'api_error', 'ApiError'],
    [new InsufficientScopeError('read:x', []), 'insufficient_scope', 'InsufficientScopeError'],
    [new PagingLimitError(1000), 'paging_limit', 'PagingLimitError'],
    [new TimeoutError('t'), 'timeout', 'TimeoutError'],
    [new NetworkError('n'), 'network', 'NetworkError'],
    [new TokenRequestError(new Error('down')), 'token_request_failed', 'TokenRequestError'],
  ];
  it.each(cases)('%s has a stable code and its name', (error, code, name) => {
    expect(error.code).toBe(code);
    expect(error.name).toBe(name);
    expect(error.toJSON()).toMatchObject({ code, name });
  });

  it('recognises errors by class chain, without instanceof', () => {
    const error = createApiError(details(429));
    expect(IdPlatformError.is(error)).toBe(true);
    expect(ApiError.is(error)).toBe(true);
    expect(RateLimitError.is(error)).toBe(true);
    expect(NotFoundError.is(error)).toBe(false);
    expect(AuthApiError.is(error)).toBe(false);
    expect(IdPlatformError.is(new Error('plain'))).toBe(false);
    expect(IdPlatformError.is({ code: 'rate_limited', name: 'RateLimitError' })).toBe(false);
    expect(IdPlatformError.is(null)).toBe(false);
  });

  it('recognises nothing but its own instances through a user subclass that declares no code of its own', () => {
    class AppError extends IdPlatformError {}
    expect(AppError.is(createApiError(details(404)))).toBe(false);
    expect(AppError.is(new AppError('mine'))).toBe(true);
    expect(new AppError('mine').code).toBe('idplatform_error');
    expect(IdPlatformError.is(new AppError('mine'))).toBe(true);
  });

  it('recognises an error of another realm (a vm context), where instanceof fails', async () => {
    const { runInNewContext } = await import('node:vm');
    const foreign: unknown = runInNewContext(
      `const error = new Error('from elsewhere'); Object.defineProperty(error, Symbol.for('idplatform.error'), { value: ['rate_limited', 'api_error', 'http_error', 'idplatform_error'] }); error`,
    );
    expect(foreign instanceof RateLimitError).toBe(false);
    expect(RateLimitError.is(foreign)).toBe(true);
    expect(ServerError.is(foreign)).toBe(false);
  });
});
