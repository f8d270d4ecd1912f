import type { RateLimit } from './http/rate-limit.js';

/** One problem found by a schema: where (`path`), what kind (`code`) and a readable `message`. */
export interface ValidationIssue {
  readonly code: string;
  readonly path: readonly PropertyKey[];
  readonly message: string;
}

const inspectSymbol = Symbol.for('nodejs.util.inspect.custom');
/** Marks the SDK's errors with the codes of their class chain; `Symbol.for`, so both builds and every realm share it. */
const BRAND = Symbol.for('idplatform.error');

/** The longest error message, in characters; a longer one is cut, saying how much was left out, so one bad answer cannot flood a log. */
export const MAX_ERROR_MESSAGE_LENGTH = 2000;

/** How far an iterator got before an error ended it (`progress`): resume with `list(…, { page, per_page })`, or skip `yielded` records. */
export interface PagingProgress {
  /** Records this iteration yielded before the error (from its `page`, when it resumed), all in order, none twice. */
  readonly yielded: number;
  /** The page index of the request that failed: resume there. Past the 1000-record window `page * per_page` is 1000: nothing is left. */
  readonly page: number;
  /** The page size of that request. */
  readonly per_page: number;
}

/**
 * The base class of every error this SDK throws. Its message, `toJSON()`, `util.inspect` output and stack never hold a client secret,
 * assertion or token: errors hold public data only (status, error body, non-credential headers), and `cause` never holds a request.
 */
export class IdPlatformError extends Error {
  /** The stable code of this class's errors (instances carry it as `code`). */
  static readonly code: string = 'idplatform_error';
  override readonly name: string = 'IdPlatformError';
  /** A stable, snake-case code for this kind of error, e.g. `rate_limited`; safe to switch on and to log. */
  readonly code: string;
  /** Set when the error ended an iterator: how far it got (see {@link PagingProgress}). */
  declare progress?: PagingProgress;

  constructor(message?: string, options?: ErrorOptions) {
    super(boundMessage(message ?? ''), options);
    // Only classes that declare their own code: a user's subclass without one must not match every error of its parent.
    const codes: string[] = [];
    for (let type: unknown = new.target; typeof type === 'function' && 'code' in type; type = Object.getPrototypeOf(type)) {
      if (Object.hasOwn(type, 'code')) codes.push(String(type.code));
    }
    this.code = codes[0] ?? IdPlatformError.code;
    Object.defineProperty(this, BRAND, { value: codes });
  }

  /** Whether `value` is an error of this class or a subclass, also of another realm or build (ESM/CJS), where `instanceof` fails. */
  static is<T extends abstract new (...args: never[]) => IdPlatformError>(
    this: T & { readonly code: string },
    value: unknown,
  ): value is InstanceType<T> {
    if (typeof value !== 'object' || value === null) return false;
    // `this` is the calling class; a subclass without its own code (a user's) can only be recognised by `instanceof`.
    // biome-ignore lint/complexity/noThisInStatic: dispatch on the calling class is the point
    if (!Object.hasOwn(this, 'code')) return value instanceof this;
    const codes: unknown = (value as { [BRAND]?: unknown })[BRAND];
    // biome-ignore lint/complexity/noThisInStatic: as above
    return Array.isArray(codes) && codes.includes(this.code);
  }

  /** The error's public fields as a plain object, safe to log; a `cause` chain is followed 8 errors deep at most (a loop ends too). */
  toJSON(): Record<string, unknown> {
    return describe(this, MAX_CAUSE_DEPTH + 1) as Record<string, unknown>;
  }

  /** `util.inspect` shows the same public fields as `toJSON()`, plus the stack. */
  [inspectSymbol](): string {
    return `${this.stack ?? `${this.name}: ${this.message}`}\n${JSON.stringify(this.toJSON(), null, 2)}`;
  }
}

/** The client's options are wrong or incomplete: thrown by a constructor, or by a call they cannot serve before it sends anything. */
export class ConfigurationError extends IdPlatformError {
  static override readonly code: string = 'configuration_invalid';
  declare readonly code: 'configuration_invalid';
  override readonly name = 'ConfigurationError' as const;
}

/** A parameter broke a documented rule; nothing was sent. `issues` lists every problem found. */
export class RequestValidationError extends IdPlatformError {
  static override readonly code: string = 'request_invalid';
  declare readonly code: 'request_invalid';
  override readonly name = 'RequestValidationError' as const;
  /** Every rule the parameters broke, zod-style (`code`, `path`, `message`). */
  readonly issues: readonly ValidationIssue[];

  constructor(issues: readonly ValidationIssue[]) {
    super(`Invalid request parameters: ${describeIssues(issues)}`);
    this.issues = issues;
  }
}

/** A 2xx response body did not match its schema (turn checks off with `validateResponses: false`). */
export class ResponseValidationError extends IdPlatformError {
  static override readonly code: string = 'response_invalid';
  declare readonly code: 'response_invalid';
  override readonly name = 'ResponseValidationError' as const;
  /** Every way the body broke the schema. */
  readonly issues: readonly ValidationIssue[];
  /** The body (parsed JSON, or text), scrubbed of the call's secrets; an Authentication API text body is withheld: it may hold tokens. */
  readonly body: unknown;

  constructor(issues: readonly ValidationIssue[], body: unknown) {
    super(`The response body does not match its schema: ${describeIssues(issues)}`);
    this.issues = issues;
    this.body = body;
  }
}

/** What every error built from a non-2xx response knows. */
export interface HttpResponseErrorDetails {
  readonly status: number;
  readonly error: string;
  readonly body: unknown;
  readonly headers: Readonly<Record<string, string>>;
  readonly rateLimit: RateLimit | undefined;
}

/** A non-2xx answer of either API: the base of `ApiError` and `AuthApiError`, and what the retry loop reads. */
export class HttpResponseError extends IdPlatformError {
  static override readonly code: string = 'http_error';
  declare readonly code: 'http_error' | 'auth_api_error' | ApiError['code'];
  override readonly name: 'HttpResponseError' | 'AuthApiError' | ApiError['name'] = 'HttpResponseError';
  /** HTTP status code. */
  readonly status: number;
  /** The body's error name or code (e.g. `Bad Request`, `invalid_client`), or the status text. */
  readonly error: string;
  /** The body as received: parsed JSON, or the raw text. */
  readonly body: unknown;
  /** The response headers (lower-case names). */
  readonly headers: Readonly<Record<string, string>>;
  /** `X-RateLimit-*` of the response, when present. */
  readonly rateLimit: RateLimit | undefined;

  constructor(message: string, details: HttpResponseErrorDetails) {
    super(message);
    this.status = details.status;
    this.error = details.error;
    this.body = details.body;
    this.headers = details.headers;
    this.rateLimit = details.rateLimit;
  }
}

/** What the transport knows about a failed HTTP exchange with the Management API. */
export interface ApiErrorDetails extends HttpResponseErrorDetails {
  readonly message: string;
  readonly errorCode: string | undefined;
  readonly method: string;
  readonly path: string;
}

/** A non-2xx answer of the Management API; its body `{ statusCode, error, message, errorCode }` is parsed into fields. */
export class ApiError extends HttpResponseError {
  static override readonly code: string = 'api_error';
  declare readonly code: 'api_error' | 'bad_request' | 'unauthorized' | 'forbidden' | 'not_found' | 'rate_limited' | 'server_error';
  override readonly name:
    | 'ApiError'
    | 'BadRequestError'
    | 'UnauthorizedError'
    | 'ForbiddenError'
    | 'NotFoundError'
    | 'RateLimitError'
    | 'ServerError' = 'ApiError';
  /** The body's `errorCode` (e.g. `invalid_paging`), when the server sent one. */
  readonly errorCode: string | undefined;
  /** HTTP method of the request. */
  readonly method: string;
  /** Path of the request below the base URL, without the query. */
  readonly path: string;

  constructor(details: ApiErrorDetails) {
    super(details.message, details);
    this.errorCode = details.errorCode;
    this.method = details.method;
    this.path = details.path;
  }
}

/** 400: the server refused the request (invalid query, paging past 1000 records, …). */
export class BadRequestError extends ApiError {
  static override readonly code: string = 'bad_request';
  declare readonly code: 'bad_request';
  override readonly name = 'BadRequestError' as const;
  declare readonly status: 400;
}
/** 401: the token is missing, expired, badly signed, or the client is not global. */
export class UnauthorizedError extends ApiError {
  static override readonly code: string = 'unauthorized';
  declare readonly code: 'unauthorized';
  override readonly name = 'UnauthorizedError' as const;
  declare readonly status: 401;
}
/** 403: the token lacks the operation's scope. */
export class ForbiddenError extends ApiError {
  static override readonly code: string = 'forbidden';
  declare readonly code: 'forbidden';
  override readonly name = 'ForbiddenError' as const;
  declare readonly status: 403;
}
/** 404: the resource (e.g. the organization) does not exist. */
export class NotFoundError extends ApiError {
  static override readonly code: string = 'not_found';
  declare readonly code: 'not_found';
  override readonly name = 'NotFoundError' as const;
  declare readonly status: 404;
}
/** 429: the message says when the limit resets and why the SDK gave up: a wait past `retry.maxDelayMs`, or no retries left. */
export class RateLimitError extends ApiError {
  static override readonly code: string = 'rate_limited';
  declare readonly code: 'rate_limited';
  override readonly name = 'RateLimitError' as const;
  declare readonly status: 429;
  /** Always set: from `X-RateLimit-*`, else built from `Retry-After` (`remaining` 0, `limit` 0 for unknown); `reset` is when it refills. */
  declare readonly rateLimit: RateLimit;

  constructor(details: ApiErrorDetails) {
    // The SDK always passes one (from Retry-After at the least); a caller building one may not.
    super({ ...details, rateLimit: details.rateLimit ?? { limit: 0, remaining: 0, reset: new Date() } });
  }
}
/** 5xx: a fault on the service side. */
export class ServerError extends ApiError {
  static override readonly code: string = 'server_error';
  declare readonly code: 'server_error';
  override readonly name = 'ServerError' as const;
}

/** Builds the `ApiError` subclass that matches the status. */
export function createApiError(details: ApiErrorDetails): ApiError {
  const { status } = details;
  if (status === 400) return new BadRequestError(details);
  if (status === 401) return new UnauthorizedError(details);
  if (status === 403) return new ForbiddenError(details);
  if (status === 404) return new NotFoundError(details);
  if (status === 429) return new RateLimitError(details);
  if (status >= 500) return new ServerError(details);
  return new ApiError(details);
}

/** A scope name, `<verb>:<resource>` (e.g. `read:organization_invitations`); every `Scope` of the catalogue is one. */
export type ScopeName = `${string}:${string}`;

/** The token's `scope` claim lacks the scope the operation documents; nothing was sent. */
export class InsufficientScopeError extends IdPlatformError {
  static override readonly code: string = 'insufficient_scope';
  declare readonly code: 'insufficient_scope';
  override readonly name = 'InsufficientScopeError' as const;
  /** The scope the operation needs. */
  readonly required: ScopeName;
  /** The scopes the token holds. */
  readonly granted: readonly string[];

  constructor(required: ScopeName, granted: readonly string[]) {
    super(`The access token lacks the scope "${required}" that this operation requires (granted: ${granted.join(' ') || 'none'})`);
    this.required = required;
    this.granted = granted;
  }
}

/** An iterator yielded the first 1000 records (all the API pages through) and more exist; narrow the query, or pass `onLimit: 'stop'`. */
export class PagingLimitError extends IdPlatformError {
  static override readonly code: string = 'paging_limit';
  declare readonly code: 'paging_limit';
  override readonly name = 'PagingLimitError' as const;
  /** How many records were reachable (and yielded). */
  readonly reachable: number;

  constructor(reachable: number) {
    super(
      `Only the first ${reachable} records can be paged through and the server holds more; ` +
        "narrow the query, or pass onLimit: 'stop' to stop quietly at the limit",
    );
    this.reachable = reachable;
  }
}

/** One attempt took longer than `timeoutMs`. */
export class TimeoutError extends IdPlatformError {
  static override readonly code: string = 'timeout';
  declare readonly code: 'timeout';
  override readonly name = 'TimeoutError' as const;
}

/** The request could not be sent or its response not read (DNS, connection, TLS, CORS…). `cause` holds the runtime's error. */
export class NetworkError extends IdPlatformError {
  static override readonly code: string = 'network';
  declare readonly code: 'network';
  override readonly name = 'NetworkError' as const;
}

/** What the transport knows about a failed exchange with the Authentication API. */
export interface AuthApiErrorDetails extends HttpResponseErrorDetails {
  readonly errorDescription: string | undefined;
}

/** A non-2xx answer of the Authentication API, whose body is `{ error, error_description }`; `error` is the OAuth error code. */
export class AuthApiError extends HttpResponseError {
  static override readonly code: string = 'auth_api_error';
  declare readonly code: 'auth_api_error';
  override readonly name = 'AuthApiError' as const;
  /** The body's `error_description`, when sent; for a redirect (never followed), why the call failed. */
  readonly errorDescription: string | undefined;

  constructor(details: AuthApiErrorDetails) {
    super(details.errorDescription ? `${details.error}: ${details.errorDescription}` : details.error, details);
    this.errorDescription = details.errorDescription;
  }
}

/** Fetching a Management API token failed; `cause` is the `AuthApiError`, `NetworkError` or other error behind it. */
export class TokenRequestError extends IdPlatformError {
  static override readonly code: string = 'token_request_failed';
  declare readonly code: 'token_request_failed';
  override readonly name = 'TokenRequestError' as const;

  constructor(cause: unknown) {
    super(`Could not obtain a Management API access token: ${messageOf(cause)}`, {
      cause,
    });
  }
}

/** An ID token failed a check of OpenID Connect Core 3.1.3.7; its grant's tokens are not returned. The message never holds the token. */
export class IdTokenValidationError extends IdPlatformError {
  static override readonly code: string = 'id_token_invalid';
  declare readonly code: 'id_token_invalid';
  override readonly name = 'IdTokenValidationError' as const;
  /**
   * What failed: a claim (`iss`, `aud`, `azp`, `exp`, `iat`, `nbf`, `sub`, `nonce`, `org_id`, `org_name`, `auth_time`), the header's `alg`,
   * the `signature`, or `id_token` when the token is not a readable JWT.
   */
  readonly claim: string;

  constructor(claim: string, message: string) {
    super(message);
    this.claim = claim;
  }
}

/** Whether `value` is an error, also one of another realm (a `vm` context, Jest's environment), where `instanceof Error` fails. */
export function isError(value: unknown): value is Error {
  return value instanceof Error || Object.prototype.toString.call(value) === '[object Error]';
}

/** What `error` says, for a message of ours: its `message`, or the value as text (`String` may throw for an odd value). */
export function messageOf(error: unknown): string {
  try {
    return isError(error) && typeof error.message === 'string' ? error.message : String(error);
  } catch {
    return 'an error that cannot be shown as text';
  }
}

function boundMessage(message: string): string {
  if (message.length <= MAX_ERROR_MESSAGE_LENGTH) return message;
  return `${message.slice(0, MAX_ERROR_MESSAGE_LENGTH)}… (${message.length - MAX_ERROR_MESSAGE_LENGTH} more characters)`;
}

const MAX_CAUSE_DEPTH = 8;

/** An error as plain data: an SDK error's public fields, or another's `name`, `message`, `code`; then its cause. Never a request. */
function describe(error: unknown, depth: number): Record<string, unknown> | undefined {
  if (depth === 0 || !isError(error)) return undefined;
  // One of the other build (ESM/CJS) or another realm: its own `toJSON`.
  if (IdPlatformError.is(error) && !(error instanceof IdPlatformError)) return (error as IdPlatformError).toJSON();
  const json: Record<string, unknown> = { name: error.name, message: error.message };
  const { code } = error as { code?: unknown };
  if (IdPlatformError.is(error)) {
    for (const [key, value] of Object.entries(error)) if (key !== 'name' && key !== 'cause') json[key] = value;
  } else if (typeof code === 'string' || typeof code === 'number') json.code = code;
  const cause = describe(error.cause, depth - 1);
  if (cause !== undefined) json.cause = cause;
  return json;
}

/** The message of an `unrecognized_keys` issue: `unknown key "x"`, `unknown keys "x", "y"`. */
export function unknownKeysMessage(keys: readonly string[]): string {
  return `unknown ${keys.length === 1 ? 'key' : 'keys'} ${keys.map((key) => `"${key}"`).join(', ')}`;
}

function describeIssues(issues: readonly ValidationIssue[]): string {
  return issues.map((issue) => (issue.path.length ? `${issue.path.map(String).join('.')}: ${issue.message}` : issue.message)).join('; ');
}
