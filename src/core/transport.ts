import { withBaseUrlHint } from './base-url.js';
import { type Clock, MAX_TIMER_MS } from './clock.js';
import { type ApiError, createApiError, type ScopeName } from './errors.js';
import { REDIRECT_REFUSED, readFailed } from './http/failures.js';
import { rateLimitOfTooManyRequests } from './http/rate-limit.js';
import { type Answer, type Prepared, SEND_AGAIN, Sender, type SenderSettings } from './http/sender.js';
import type { RequestOptions } from './options.js';
import { memoryRateLimiter, type RateLimiter, rateLimitKey, reportRateLimit, waitForRateLimit } from './pacing.js';
import type { TokenProvider } from './tokens/provider.js';
import { createScopeCheck } from './tokens/scope-check.js';
import { parseWithCallerSchema, type Schema, validateResponse } from './validation.js';

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
  /** `schema` is the caller's own (`management.request()`): its own `safeParse` reads the 2xx body, and its output is the result. */
  readonly callersSchema?: boolean | undefined;
  /** The scope the operation documents, checked against JWT tokens before sending. */
  readonly scope?: ScopeName | undefined;
  readonly options?: RequestOptions | undefined;
}

/** Settings of a {@link Transport}, resolved from the client's options. */
export interface TransportSettings extends Omit<SenderSettings, 'prefixUrl'> {
  readonly baseUrl: string;
  readonly tokens: TokenProvider;
  readonly validateResponses: boolean;
  readonly clock: Clock;
  /** Paces calls on the tenant's bucket; default: in memory, per client. */
  readonly rateLimiter?: RateLimiter | undefined;
}

/** Every Management API call: pacing → token → scope check → sender → error or schema check; a 401 is replayed once with a fresh token. */
export class Transport {
  readonly #settings: TransportSettings;
  readonly #sender: Sender;
  readonly #checkScope = createScopeCheck();
  readonly #rateLimiter: RateLimiter;
  readonly #rateLimitKey: string;

  constructor(settings: TransportSettings) {
    this.#settings = settings;
    this.#sender = new Sender({ ...settings, prefixUrl: settings.baseUrl });
    this.#rateLimiter = settings.rateLimiter ?? memoryRateLimiter(settings.clock);
    this.#rateLimitKey = rateLimitKey(settings.baseUrl);
  }

  /** Sends `request` and resolves with its body, checked against `request.schema`. */
  request<T>(request: ApiRequest<T>): Promise<T> {
    const { tokens, validateResponses, clock, baseUrl } = this.#settings;
    const { method, path, options } = request;
    let replayed = false;
    return this.#sender.send<T>({
      method,
      path,
      query: toSearchParams(request.query),
      options,
      // Waits for the bucket before taking a token, which could expire meanwhile.
      before: ({ signal, policy: { maxDelayMs }, timeoutMs }) =>
        waitForRateLimit(this.#rateLimiter, this.#rateLimitKey, signal, { maxDelayMs }, Math.min(MAX_TIMER_MS, maxDelayMs + timeoutMs)),
      prepare: async (): Promise<Prepared> => {
        const token = await tokens.getToken();
        const checking = this.#checkScope(token, request.scope);
        if (checking) await checking; // a token read before is checked at once
        return { headers: { authorization: `Bearer ${token}` }, body: request.body, secrets: [token] };
      },
      read: (answer, { secrets }) => {
        const { response, body } = answer;
        reportRateLimit(this.#rateLimiter, this.#rateLimitKey, answer.rateLimit);
        const token = secrets[0] as string;
        // The refused token is never handed out again; one replay per call (each token request counts against the quota).
        if (response.status === 401 && !replayed && tokens.reject(token)) {
          replayed = true;
          return SEND_AGAIN;
        }
        if (!response.ok) throw apiErrorOf(answer, secrets, { method, path, baseUrl, now: clock.now() });
        if (!validateResponses) return body as T;
        const { schema } = request;
        return request.callersSchema ? parseWithCallerSchema(schema, body, secrets) : validateResponse(schema, body, secrets);
      },
    });
  }
}

function toSearchParams(query: Query | undefined): URLSearchParams | undefined {
  if (!query) return undefined;
  const params = new URLSearchParams();
  for (const [name, value] of Object.entries(query)) if (value !== undefined) params.set(name, String(value));
  return params;
}

/** The `ApiError` of a non-2xx answer: a 404 that points at a wrong base URL says so; a 429 without `X-RateLimit-*` reads `Retry-After`. */
function apiErrorOf(
  answer: Answer,
  secrets: readonly string[],
  call: { method: string; path: string; baseUrl: string; now: number },
): ApiError {
  const failed = readFailed(answer, secrets);
  const { details } = failed;
  const rateLimit = details.rateLimit ?? (details.status === 429 ? rateLimitOfTooManyRequests(details.headers, call.now) : undefined);
  const error = failed.member('error') ?? failed.statusText;
  const { body } = details;
  // Else an OAuth-style `error_description` (a base URL that reaches the Authentication API), a short text body, or the name.
  const serverMessage =
    failed.member('message') ?? failed.member('error_description') ?? (typeof body === 'string' && body.length <= 200 ? body : error);
  return createApiError({
    ...details,
    rateLimit,
    error,
    message: failed.redirected ? REDIRECT_REFUSED : withBaseUrlHint(serverMessage, details.status, call.baseUrl),
    errorCode: failed.member('errorCode'),
    method: call.method,
    path: `/${call.path}`,
  });
}
