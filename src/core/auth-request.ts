import type { KyInstance } from 'ky';
import type { Clock } from './clock.js';
import { AuthApiError } from './errors.js';
import { checkedHeaders } from './header-values.js';
import { exchange, REDIRECT_REFUSED, readFailedResponse } from './http.js';
import { type RequestOptions, type ResponseInfo, retryPolicyFor } from './options.js';
import { ownProperties } from './own-properties.js';
import { parseRateLimit } from './rate-limit.js';
import { isIdempotent, type RetryPolicy, withRetry } from './retry.js';
import { type Schema, validateResponse } from './validation.js';

/** What every call to the Authentication API shares: its HTTP client, retry policy, clock, timeout and hook. */
export interface AuthApiContext {
  /** A ky instance whose prefix is the tenant's origin (`https://{domain}`). */
  readonly http: KyInstance;
  readonly retry: RetryPolicy;
  readonly clock: Clock;
  readonly timeoutMs: number;
  readonly onResponse?: ((info: ResponseInfo) => void) | undefined;
}

/** What one attempt sends: its body and headers, and the credentials in them (scrubbed from error text). */
export interface PreparedAttempt {
  readonly body?: { form: URLSearchParams } | { json: unknown };
  readonly headers?: Record<string, string>;
  readonly secrets?: readonly string[];
}

/** One call to the Authentication API. */
export interface AuthApiCall<T> {
  readonly method: 'GET' | 'POST';
  /** Below the origin, without a leading slash, e.g. `oauth/token`. */
  readonly path: string;
  /** Builds each attempt afresh (so that a client assertion is never replayed). */
  readonly prepare: () => PreparedAttempt | Promise<PreparedAttempt>;
  readonly schema: Schema<T>;
  readonly options?: RequestOptions | undefined;
}

/**
 * Sends one Authentication API call through the retry loop: 429 is retried for
 * every method (waiting for `X-RateLimit-Reset`); non-2xx becomes `AuthApiError`
 * (`error`, `error_description` of the body); a 2xx body is checked against `schema`.
 * Each attempt's own credentials, and any token in the answer, are kept out of errors.
 */
export async function callAuthApi<T>(context: AuthApiContext, call: AuthApiCall<T>): Promise<T> {
  // Own properties only: a polluted Object.prototype never supplies a signal, headers or timeout.
  const options: RequestOptions = ownProperties(call.options ?? {});
  const policy = retryPolicyFor(options, context.retry);
  const attempt = async (): Promise<T> => {
    const { body, headers, secrets = [] } = await call.prepare();
    const { response, body: answer } = await exchange(context.http, {
      method: call.method,
      path: call.path,
      body,
      // Lower-case names, the last of a name winning: a caller's header never merges with the SDK's.
      headers: checkedHeaders({ ...options.headers, ...headers }),
      timeoutMs: options.timeoutMs ?? context.timeoutMs,
      signal: options.signal,
    });
    context.onResponse?.({
      method: call.method,
      path: `/${call.path}`,
      status: response.status,
      rateLimit: parseRateLimit(response.headers),
    });
    const scrub = [...secrets, ...issuedCredentials(answer)];
    if (!response.ok) throw toAuthApiError(response, answer, scrub);
    return validateResponse(call.schema, answer, scrub);
  };
  return withRetry(attempt, { policy, clock: context.clock, idempotent: isIdempotent(call.method), signal: options.signal });
}

/** Members of an answer that hold issued credentials: kept out of errors even when the answer is malformed. */
const CREDENTIAL_MEMBERS = ['access_token', 'refresh_token', 'id_token'];

/** The tokens an answer carries, so that a body which fails its schema is not thrown with them. */
function issuedCredentials(body: unknown): string[] {
  if (typeof body !== 'object' || body === null) return [];
  const values = CREDENTIAL_MEMBERS.map((name) => (body as Record<string, unknown>)[name]);
  return values.filter((value): value is string => typeof value === 'string');
}

/**
 * Builds the `AuthApiError` of a non-2xx answer from its `{ error, error_description }`
 * (or `{ code, description }`) body; of a redirect (not followed), from its status.
 */
function toAuthApiError(response: Response, receivedBody: unknown, secrets: readonly string[]): AuthApiError {
  const failed = readFailedResponse(response, receivedBody, secrets);
  if (failed.redirected) return new AuthApiError({ ...failed, error: failed.statusText, errorDescription: REDIRECT_REFUSED });
  const error = failed.member('error') ?? failed.member('code');
  // A bearer-token error (RFC 6750, 3) may come in the WWW-Authenticate header only, the body empty.
  const challenge = failed.headers['www-authenticate'] ?? '';
  const challenged = error === undefined ? challengeParam(challenge, 'error') : undefined;
  if (challenged !== undefined) {
    return new AuthApiError({ ...failed, error: challenged, errorDescription: challengeParam(challenge, 'error_description') });
  }
  return new AuthApiError({
    ...failed,
    error: error ?? failed.statusText,
    errorDescription: failed.member('error_description') ?? failed.member('description') ?? failed.member('message'),
  });
}

/**
 * The auth-params of a challenge, left to right (RFC 9110, 11.2): `name="quoted
 * \\"string\\""` or `name=token`. A quoted value is consumed whole, so text inside
 * it (`realm="x, error=y"`) is never read as a parameter of its own.
 */
const AUTH_PARAM = /([!#$%&'*+.^_`|~0-9A-Za-z-]+)\s*=\s*(?:"((?:[^"\\]|\\.)*)"|([^\s,"]*))/g;

/** The value of the auth-param `name` of a challenge (`error="invalid_token"`), or `undefined`. */
function challengeParam(challenge: string, name: 'error' | 'error_description'): string | undefined {
  for (const [, param, quoted, token] of challenge.matchAll(AUTH_PARAM)) {
    if (param?.toLowerCase() !== name) continue;
    const value = quoted === undefined ? token : quoted.replace(/\\(.)/g, '$1');
    return value === '' ? undefined : value;
  }
  return undefined;
}
