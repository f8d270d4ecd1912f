import type { KyInstance } from 'ky';
import type { Clock } from './clock.js';
import { withDeadline } from './deadline.js';
import { AuthApiError, ResponseValidationError } from './errors.js';
import { checkedHeaders } from './header-values.js';
import { exchange, REDIRECT_REFUSED, readFailedResponse } from './http.js';
import { checkCallTimeout, type RequestOptions, type ResponseInfo, retryPolicyFor } from './options.js';
import { ownProperties } from './own-properties.js';
import { parseRateLimit } from './rate-limit.js';
import { MAX_ERROR_BODY_DEPTH, redact } from './redaction.js';
import { tellResponse } from './response-hook.js';
import { isIdempotent, type RetryPolicy, type SharedRetry, withRetry } from './retry.js';
import { checkSignal } from './signal.js';
import { isThenable } from './thenable.js';
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
  /** Work shared by calls (`sharedRetry`): how its retries wait, and when they stop. */
  readonly shared?: SharedRetry | undefined;
}

/**
 * Sends one Authentication API call through the retry loop: 429 is retried for
 * every method (waiting for `X-RateLimit-Reset`); non-2xx becomes `AuthApiError`
 * (`error`, `error_description` of the body); a 2xx body is checked against `schema`.
 * Each attempt's own credentials, and any token in the answer, are kept out of errors.
 */
export async function callAuthApi<T>(context: AuthApiContext, call: AuthApiCall<T>): Promise<T> {
  const { options, policy } = checkedCallOptions(context, call.options);
  const timeoutMs = options.timeoutMs ?? context.timeoutMs;
  const attempt = async (): Promise<T> => {
    // Getting ready (the client authentication: loading its code, signing an assertion) is bounded like the
    // exchange: work that calls share is over within a known time once they gave it up (`SharedWork`).
    const preparing = call.prepare();
    const {
      body,
      headers,
      secrets = [],
    } = isThenable(preparing)
      ? await withDeadline(
          preparing,
          options.signal,
          timeoutMs,
          `${call.method} /${call.path} was not ready to send within ${timeoutMs} ms`,
        )
      : preparing;
    const { response, body: answer } = await exchange(context.http, {
      method: call.method,
      path: call.path,
      body,
      // Lower-case names, the last of a name winning: a caller's header never merges with the SDK's.
      headers: checkedHeaders({ ...options.headers, ...headers }),
      timeoutMs,
      signal: options.signal,
      secrets,
    });
    tellResponse(context.onResponse, {
      method: call.method,
      path: `/${call.path}`,
      status: response.status,
      rateLimit: parseRateLimit(response.headers),
    });
    const scrub = [...secrets, ...issuedCredentials(answer)];
    if (!response.ok) throw toAuthApiError(response, answer, scrub);
    try {
      return validateResponse(call.schema, answer, scrub);
    } catch (error) {
      throw typeof answer === 'string' ? withheldText(error, response, answer, scrub) : error;
    }
  };
  return withRetry(attempt, {
    policy,
    clock: context.clock,
    idempotent: isIdempotent(call.method),
    signal: options.signal,
    shared: call.shared,
  });
}

/**
 * `error` (a `ResponseValidationError`) without the text `body` of a 2xx answer: text
 * where JSON belongs (form-encoded tokens, or JSON that does not parse) may hold
 * issued credentials that {@link issuedCredentials} cannot find, so the error says
 * what came instead of quoting it.
 */
function withheldText(error: unknown, response: Response, body: string, secrets: readonly string[]): unknown {
  if (!(error instanceof ResponseValidationError)) return error;
  // The media type only, when it is one (`text/html`), scrubbed like every other header: a server may echo anything there.
  const mediaType = response.headers.get('content-type')?.split(';')[0]?.trim() ?? '';
  const type = MEDIA_TYPE.test(mediaType)
    ? redact(mediaType, secrets)
    : mediaType === ''
      ? 'no content type'
      : 'an unreadable content type';
  return new ResponseValidationError(
    error.issues,
    `[${body.length} characters of text (${type}), withheld: a 2xx answer may hold credentials]`,
  );
}

/** A media type as `Content-Type` names it: `type/subtype`, of token characters, at most 100 of them. */
const MEDIA_TYPE = /^(?=.{3,100}$)[!#$%&'*+.^_`|~0-9A-Za-z-]+\/[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;

/**
 * A call's options, checked as its first attempt would check them (`retry`,
 * `headers`, `timeoutMs`, `signal`; `RequestValidationError` or `TypeError`), and its
 * retry policy: for a call that must send something else first and nothing at all
 * with bad options. Own properties only: a polluted `Object.prototype` never supplies one.
 */
export function checkedCallOptions(
  context: AuthApiContext,
  callOptions: RequestOptions | undefined,
): { options: RequestOptions; policy: RetryPolicy } {
  const options: RequestOptions = ownProperties(callOptions ?? {});
  const policy = retryPolicyFor(options, context.retry);
  checkedHeaders(options.headers);
  checkCallTimeout(options.timeoutMs ?? context.timeoutMs);
  checkSignal(options.signal);
  return { options, policy };
}

/** Names of members that hold issued credentials (`access_token`, `refresh_token`, `id_token`, a proxy's `token`). */
const CREDENTIAL_MEMBER = /token/i;

/**
 * The tokens an answer carries, so that a body which fails its schema is not thrown
 * with them: the string values of members named like a token, wherever an error
 * would keep them (a proxy may wrap the answer: `{ data: { access_token } }`). Every
 * member of the first {@link MAX_ERROR_BODY_DEPTH} levels is searched, however many
 * there are (the 4 MiB body limit bounds the work): an error cuts the body at that
 * depth, so nothing deeper reaches it.
 */
function issuedCredentials(body: unknown): string[] {
  const found: string[] = [];
  const pending: { readonly value: object; readonly depth: number }[] = [];
  if (typeof body === 'object' && body !== null) pending.push({ value: body, depth: 0 });
  for (let next = pending.pop(); next !== undefined; next = pending.pop()) {
    for (const [name, member] of Object.entries(next.value)) {
      if (typeof member === 'string') {
        if (CREDENTIAL_MEMBER.test(name)) found.push(member);
      } else if (typeof member === 'object' && member !== null && next.depth + 1 < MAX_ERROR_BODY_DEPTH) {
        pending.push({ value: member, depth: next.depth + 1 });
      }
    }
  }
  return found;
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
 * it (`realm="x, error=y"`) is never read as a parameter of its own. A name starts
 * only where a token starts (the lookbehind): a long run of token characters is then
 * tried once, not from each of its characters (quadratic time on a hostile header).
 */
const AUTH_PARAM = /(?<![!#$%&'*+.^_`|~0-9A-Za-z-])([!#$%&'*+.^_`|~0-9A-Za-z-]+)\s*=\s*(?:"((?:[^"\\]|\\.)*)"|([^\s,"]*))/g;

/** The most of a `WWW-Authenticate` value read for its `error` (a challenge is short; a hostile one need not be). */
const MAX_CHALLENGE_LENGTH = 8192;

/** The value of the auth-param `name` of a challenge (`error="invalid_token"`), or `undefined`. */
function challengeParam(challenge: string, name: 'error' | 'error_description'): string | undefined {
  for (const [, param, quoted, token] of challenge.slice(0, MAX_CHALLENGE_LENGTH).matchAll(AUTH_PARAM)) {
    if (param?.toLowerCase() !== name) continue;
    const value = quoted === undefined ? token : quoted.replace(/\\(.)/g, '$1');
    return value === '' ? undefined : value;
  }
  return undefined;
}
