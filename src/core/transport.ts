import type { KyInstance } from 'ky';
import { withBaseUrlHint } from './base-url-hint.js';
import { type Clock, MAX_TIMER_MS } from './clock.js';
import { createApiError, type ScopeName } from './errors.js';
import { checkedHeaders } from './header-values.js';
import { createHttpClient, type Exchange, exchange, type FetchLike, REDIRECT_REFUSED, readFailedResponse } from './http.js';
import { checkCallTimeout, type RequestOptions, type ResponseInfo, retryPolicyFor } from './options.js';
import { inheritsEnumerableMembers, ownProperties } from './own-properties.js';
import { parseRateLimit, rateLimitOfTooManyRequests } from './rate-limit.js';
import {
  MAYBE_SENT,
  memoryRateLimiter,
  NOT_SENT,
  type RateLimiter,
  type RateLimiterReleaseOptions,
  type RateLimiterWaitOptions,
  rateLimitKey,
  releaseRateLimitSlot,
  reportRateLimit,
  waitForRateLimit,
} from './rate-limiter.js';
import { tellResponse } from './response-hook.js';
import { isIdempotent, type RetryPolicy, withRetry } from './retry.js';
import { createScopeCheck, type ScopeCheck } from './scope-check.js';
import type { TokenProvider } from './token-provider.js';
import { type Schema, validateResponse } from './validation.js';

/** Query values as the caller gives them; `undefined` entries are left out. */
export type Query = Readonly<Record<string, string | number | boolean | undefined>>;

/** One Management API call, as a resource method describes it. */
export interface ApiRequest<T> {
  readonly method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  /** Built with `encodePath`, without a leading slash. */
  readonly path: string;
  readonly query?: Query | undefined;
  readonly body?: { readonly json: unknown } | { readonly form: URLSearchParams } | undefined;
  /** The schema of a 2xx body. */
  readonly schema: Schema<T>;
  /**
   * Checks a 2xx body (scrubbing `secrets` from any error) and returns what to hand
   * over; default: `schema` through {@link validateResponse}. `management.request()`
   * gives its own, which parses with a caller's schema.
   */
  readonly check?: ((body: unknown, secrets: readonly string[]) => T | Promise<T>) | undefined;
  /** The scope the operation documents, checked against JWT tokens before sending. */
  readonly scope?: ScopeName | undefined;
  readonly options?: RequestOptions | undefined;
}

/** What the attempts of one call share. */
interface CallState {
  /** Whether a 401 was already answered with a fresh token and a replay. */
  replayed: boolean;
}

/** A token, its checked `Authorization` value, and the ky instance that sends it by default (made on first use). */
interface Bearer {
  readonly token: string;
  readonly header: string;
  /** `[token]`: what the exchange keeps out of its errors. */
  readonly secrets: readonly string[];
  http?: KyInstance;
}

/** Settings of a {@link Transport}, resolved from the client's options. */
export interface TransportSettings {
  readonly baseUrl: string;
  readonly tokens: TokenProvider;
  readonly retry: RetryPolicy;
  readonly timeoutMs: number;
  readonly validateResponses: boolean;
  readonly clock: Clock;
  readonly fetch?: FetchLike | undefined;
  readonly headers?: Readonly<Record<string, string>> | undefined;
  readonly onResponse?: ((info: ResponseInfo) => void) | undefined;
  /** Paces calls on the tenant's bucket; default: in memory, per client. */
  readonly rateLimiter?: RateLimiter | undefined;
}

/**
 * The one path every Management API call takes: token → scope check → ky →
 * retry loop → error mapping or schema check → caller. A 401 on a token the
 * provider issued is replayed once with a fresh token.
 */
export class Transport {
  readonly #settings: TransportSettings;
  readonly #http: KyInstance;
  readonly #checkScope: ScopeCheck = createScopeCheck();
  readonly #rateLimiter: RateLimiter;
  readonly #rateLimitKey: string;
  /** The client's bound of a rate-limit wait (`retry.maxDelayMs`), made once. */
  readonly #waitOptions: RateLimiterWaitOptions;
  /**
   * The last token, its `Authorization` value (checked once) and a ky instance that
   * sends it by default: ky merges an instance's headers with a call's on every
   * call, so a call without headers of its own skips a merge (about 3 µs, measured
   * side by side in both orders).
   */
  #bearer: Bearer | undefined;

  constructor(settings: TransportSettings) {
    this.#settings = settings;
    this.#rateLimiter = settings.rateLimiter ?? memoryRateLimiter(settings.clock);
    this.#rateLimitKey = rateLimitKey(settings.baseUrl);
    // Frozen, as the release options are: a limiter cannot change the bound of the SDK's own wait for it.
    this.#waitOptions = Object.freeze({ maxDelayMs: settings.retry.maxDelayMs });
    this.#http = createHttpClient({ prefixUrl: settings.baseUrl, fetch: settings.fetch, headers: settings.headers });
  }

  /** Sends `request` and resolves with its body, checked against `request.schema`. */
  async request<T>(given: ApiRequest<T>): Promise<T> {
    // Own properties only: a polluted Object.prototype never supplies a signal, headers or timeout.
    const request = given.options === undefined ? given : { ...given, options: ownProperties(given.options) };
    const { retry, clock } = this.#settings;
    const { options } = request;
    const signal = options?.signal;
    // The call's options are checked before a token is asked for or a slot of the bucket taken.
    if (options?.timeoutMs != null) checkCallTimeout(options.timeoutMs); // null: the client's, as `??` reads it elsewhere
    // Checked: a string or array would otherwise spread into one header per character.
    const callerHeaders = options?.headers === undefined ? undefined : checkedHeaders(options.headers);
    const idempotent = isIdempotent(request.method);
    const policy = retryPolicyFor(options, retry);
    // The call's own `retry` bounds the rate-limit wait too (`retry: false`: the call never waits).
    const waitOptions = policy === retry ? this.#waitOptions : Object.freeze({ maxDelayMs: policy.maxDelayMs });
    // One replay after a 401 per call, not per attempt of the retry loop: each replay costs a token request.
    const call: CallState = { replayed: false };
    return withRetry(() => this.#attempt(request, callerHeaders, waitOptions, call), { policy, clock, idempotent, signal });
  }

  async #attempt<T>(
    request: ApiRequest<T>,
    callerHeaders: Record<string, string> | undefined,
    waitOptions: RateLimiterWaitOptions,
    call: CallState,
  ): Promise<T> {
    const { tokens } = this.#settings;
    const signal = request.options?.signal;
    // The timeout covers a caller's `token` function too (one that hangs is given up on).
    const timeoutMs = request.options?.timeoutMs ?? this.#settings.timeoutMs;
    // Whether the limiter took a slot of the bucket for this exchange: only such a slot is given back.
    const paced = this.#paced(signal, waitOptions, timeoutMs);
    let holdsSlot = paced === true || (paced !== false && (await paced));
    let token: string;
    try {
      token = await tokens.getToken(signal, timeoutMs);
    } catch (error) {
      throw this.#releasedSlot(error, NOT_SENT, holdsSlot);
    }
    let answer = await this.#send(request, callerHeaders, token, holdsSlot);
    // The refused token is never handed out again; the request is replayed once per call. The replay's token
    // is kept even when it is refused too (the fault is then not the token, and each token request counts
    // against the tenant's quota): the next call sends it first.
    if (answer.response.status === 401 && tokens.reject(token) && !call.replayed) {
      call.replayed = true;
      const replay = this.#paced(signal, waitOptions, timeoutMs);
      holdsSlot = replay === true || (replay !== false && (await replay));
      try {
        token = await tokens.getToken(signal, timeoutMs);
      } catch (error) {
        throw this.#releasedSlot(error, NOT_SENT, holdsSlot);
      }
      answer = await this.#send(request, callerHeaders, token, holdsSlot);
    }
    const { response, body } = answer;
    if (!response.ok) throw toApiError(request, response, body, [token], this.#settings);
    if (!this.#settings.validateResponses) return body as T;
    return request.check ? request.check(body, [token]) : validateResponse(request.schema, body, [token]);
  }

  /**
   * The call the limiter let go ended without a rate-limit answer (`error`): the slot
   * it holds (`holdsSlot`) is given back, so it no longer counts as in flight (`how`:
   * whether it may have reached the server). Returns `error`, to throw.
   */
  #releasedSlot(error: unknown, how: RateLimiterReleaseOptions, holdsSlot: boolean): unknown {
    if (holdsSlot) releaseRateLimitSlot(this.#rateLimiter, this.#rateLimitKey, how);
    return error;
  }

  /** `token` and its checked `Authorization` value, kept for the last token. */
  #bearerOf(token: string): Bearer {
    if (this.#bearer?.token !== token)
      this.#bearer = { token, header: checkedHeaders({ authorization: `Bearer ${token}` }).authorization as string, secrets: [token] };
    return this.#bearer;
  }

  /**
   * The ky instance that sends `bearer`'s header by default, made on its first use.
   * None while `Object.prototype` carries enumerable members: ky reads options
   * through the prototype chain, so an instance made then would keep them for the
   * token's lifetime, and a call without headers of its own would take a polluted
   * `headers` over the instance's; such calls send the header as their own.
   */
  #httpOf(bearer: Bearer): KyInstance | undefined {
    if (inheritsEnumerableMembers()) return undefined;
    bearer.http ??= this.#http.extend({ headers: { authorization: bearer.header } });
    return bearer.http;
  }

  /**
   * Waits while the tenant's bucket is known to be empty (before taking a token, which
   * could expire meanwhile), for at most the call's `retry.maxDelayMs`; a limiter that
   * has not answered `timeoutMs` after that lets the call go unpaced.
   */
  #paced(signal: AbortSignal | undefined, waitOptions: RateLimiterWaitOptions, timeoutMs: number): boolean | Promise<boolean> {
    const answerWithinMs = Math.min(MAX_TIMER_MS, waitOptions.maxDelayMs + timeoutMs);
    return waitForRateLimit(this.#rateLimiter, this.#rateLimitKey, signal, waitOptions, answerWithinMs);
  }

  /**
   * Sends `request` with `token` once the token's scopes are known to allow it, then
   * reports the answer's rate limit to the limiter and to the caller's `onResponse`.
   */
  async #send(
    request: ApiRequest<unknown>,
    callerHeaders: Record<string, string> | undefined,
    token: string,
    holdsSlot: boolean,
  ): Promise<Exchange> {
    let answer: Exchange;
    let how = NOT_SENT; // until the exchange starts: a refused scope or header never leaves
    try {
      const checking = this.#checkScope(token, request.scope);
      if (checking) await checking;
      const { options } = request;
      const bearer = this.#bearerOf(token);
      const byInstance = callerHeaders === undefined ? this.#httpOf(bearer) : undefined;
      // The caller's headers (checked in `request`), then the bearer token; names are lower-case,
      // so a caller's `Authorization` is replaced.
      const headers = byInstance ? undefined : { ...callerHeaders, authorization: bearer.header };
      const searchParams = toSearchParams(request.query);
      how = MAYBE_SENT;
      answer = await exchange(byInstance ?? this.#http, {
        method: request.method,
        path: request.path,
        searchParams,
        body: request.body,
        headers,
        timeoutMs: options?.timeoutMs ?? this.#settings.timeoutMs,
        signal: options?.signal,
        secrets: bearer.secrets,
      });
    } catch (error) {
      throw this.#releasedSlot(error, how, holdsSlot); // not sent (scope, headers), or no answer (network, timeout, abort)
    }
    // Reported to the limiter: the answer's rate limit, or, without one, the call's slot given back.
    const rateLimit = parseRateLimit(answer.response.headers);
    reportRateLimit(this.#rateLimiter, this.#rateLimitKey, rateLimit, holdsSlot);
    tellResponse(this.#settings.onResponse, {
      method: request.method,
      path: `/${request.path}`,
      status: answer.response.status,
      rateLimit,
    });
    return answer;
  }
}

/**
 * Builds the `ApiError` of a non-2xx answer from its `{ statusCode, error, message, errorCode }`
 * body; of a redirect (not followed), from its status. A 429 without `X-RateLimit-*`
 * headers gets its `rateLimit` from `Retry-After` on the client's clock.
 */
function toApiError(
  request: ApiRequest<unknown>,
  response: Response,
  receivedBody: unknown,
  secrets: readonly string[],
  { baseUrl, clock }: TransportSettings,
) {
  const read = readFailedResponse(response, receivedBody, secrets);
  const failed =
    read.rateLimit === undefined && read.status === 429
      ? { ...read, rateLimit: rateLimitOfTooManyRequests(read.headers, clock.now()) }
      : read;
  const error = failed.member('error') ?? failed.statusText;
  const { body } = failed;
  // The Management API's `message`; else an OAuth-style `error_description` (a base URL that reaches the
  // Authentication API instead), a short text body, or the error's name.
  const serverMessage =
    failed.member('message') ?? failed.member('error_description') ?? (typeof body === 'string' && body.length <= 200 ? body : error);
  return createApiError({
    ...failed,
    error,
    message: failed.redirected ? REDIRECT_REFUSED : withBaseUrlHint(serverMessage, response.status, baseUrl),
    errorCode: failed.member('errorCode'),
    method: request.method,
    path: `/${request.path}`,
  });
}

function toSearchParams(query: Query | undefined): URLSearchParams | undefined {
  if (!query) return undefined;
  const params = new URLSearchParams();
  for (const [name, value] of Object.entries(query)) if (value !== undefined) params.set(name, String(value));
  return params;
}
