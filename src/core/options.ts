import { resolveEndpoint } from './base-url.js';
import { type Clock, MAX_TIMER_MS, systemClock } from './clock.js';
import { ConfigurationError, RequestValidationError } from './errors.js';
import { checkedClientHeaders } from './header-values.js';
import type { FetchLike } from './http.js';
import type { RateLimit } from './rate-limit.js';
import { type RetryOptions, type RetryPolicy, resolveRetryPolicy } from './retry-policy.js';

/** The longest timeout timers can hold (2^31 − 1 ms, about 24.8 days). */
export const MAX_TIMEOUT_MS = MAX_TIMER_MS;

/** Whether `value` is a usable timeout: more than 0 and at most {@link MAX_TIMEOUT_MS} milliseconds. */
export function isValidTimeout(value: unknown): value is number {
  return typeof value === 'number' && value > 0 && value <= MAX_TIMEOUT_MS;
}

/** Throws `RequestValidationError` (nothing is sent) when a call's `timeoutMs` is not a {@link isValidTimeout | usable timeout}. */
export function checkCallTimeout(timeoutMs: unknown): asserts timeoutMs is number {
  if (!isValidTimeout(timeoutMs)) {
    throw new RequestValidationError([
      { code: 'invalid_timeout', path: ['timeoutMs'], message: `timeoutMs must be a number of milliseconds from 1 to ${MAX_TIMEOUT_MS}` },
    ]);
  }
}

/** Where the tenant is: its host name (`domain`) or, instead, a base URL (an emulator, a proxy). */
export type TenantLocation =
  | {
      /** Tenant host name, e.g. `acme.example-tenant.com` (`https://host` also accepted). */
      domain: string;
      baseUrl?: undefined;
    }
  | {
      /** Instead of `domain`: the API's base URL. `http:` only for loopback hosts (`localhost`, `127.0.0.0/8`, `[::1]`). */
      baseUrl: string;
      domain?: undefined;
    };

/** What `onResponse` is told after every response (each attempt, retries included). */
export interface ResponseInfo {
  readonly method: string;
  /** Path below the client's base URL, without the query, e.g. `/organizations/org_1/invitations`. */
  readonly path: string;
  readonly status: number;
  /** `X-RateLimit-*` of the response, when present: pace yourself on `remaining`. */
  readonly rateLimit: RateLimit | undefined;
}

/** The options both clients take besides where the tenant is and how to authenticate. */
export interface CommonClientOptions {
  /** Retries of 429 (and, for idempotent requests, of network errors and 502/503/504). Default `{ maxRetries: 3, maxDelayMs: 60_000 }`. */
  retry?: RetryOptions | undefined;
  /** Timeout of each attempt, in milliseconds (1 to 2^31 − 1). Default 30 000. */
  timeoutMs?: number | undefined;
  /** A custom `fetch` (an mTLS agent, a proxy, tests). Default: the global `fetch`. */
  fetch?: FetchLike | undefined;
  /** Extra headers on every request. */
  headers?: Readonly<Record<string, string>> | undefined;
  /**
   * Called after every API response with its method, path, status and rate-limit
   * state: each Management API response (not the token requests of a
   * `ManagementClient`'s client-credentials grant), or each Authentication API one.
   */
  onResponse?: ((info: ResponseInfo) => void) | undefined;
  /** The clock the SDK reads and sleeps with; for tests. Default: the system clock. */
  clock?: Clock | undefined;
}

/** Options every method takes as its last argument. */
export interface RequestOptions {
  /** Aborts the request, including a wait between retries. */
  readonly signal?: AbortSignal | undefined;
  /** Per-attempt timeout for this call, overriding the client's `timeoutMs`. */
  readonly timeoutMs?: number | undefined;
  /** Extra headers for this call. */
  readonly headers?: Readonly<Record<string, string>> | undefined;
  /**
   * Retries of this call, replacing the client's `retry` (e.g. `false` for a call that
   * must not wait); members left out take the defaults (`maxRetries` 3, `maxDelayMs`
   * 60 000). Checked like the client's option: `RequestValidationError` when invalid.
   */
  readonly retry?: RetryOptions | undefined;
}

/** The retry policy of one call: its own `retry`, checked, or else the client's policy. */
export function retryPolicyFor(options: RequestOptions | undefined, clientPolicy: RetryPolicy): RetryPolicy {
  if (options?.retry === undefined) return clientPolicy;
  try {
    return resolveRetryPolicy(options.retry);
  } catch (error) {
    throw new RequestValidationError([{ code: 'invalid_retry', path: ['retry'], message: (error as Error).message }]);
  }
}

/** {@link CommonClientOptions} checked, with defaults applied, and the tenant's endpoint. */
export interface CommonSettings {
  /** e.g. `https://acme.example.com/api/v2` (no trailing slash). */
  readonly baseUrl: string;
  /** e.g. `https://acme.example.com`: where the Authentication API and `/oauth/token` live. */
  readonly origin: string;
  readonly retry: RetryPolicy;
  readonly timeoutMs: number;
  readonly clock: Clock;
  readonly fetch: FetchLike | undefined;
  readonly headers: Readonly<Record<string, string>> | undefined;
  readonly onResponse: ((info: ResponseInfo) => void) | undefined;
}

/**
 * Checks and completes the options both clients share: where the tenant is
 * (`apiPath` is appended to a `domain`'s origin), `retry`, `timeoutMs` (default
 * 30 000), `fetch`, `headers`, `onResponse` and `clock`. Throws
 * `ConfigurationError` naming the problem.
 */
export function resolveCommonOptions(
  options: CommonClientOptions & { domain?: unknown; baseUrl?: unknown },
  apiPath: string,
): CommonSettings {
  const { baseUrl, origin } = resolveEndpoint(options, apiPath);
  const timeoutMs = options.timeoutMs ?? 30_000;
  if (!isValidTimeout(timeoutMs)) {
    throw new ConfigurationError(`\`timeoutMs\` must be a number of milliseconds from 1 to ${MAX_TIMEOUT_MS}`);
  }
  let retry: RetryPolicy;
  try {
    retry = resolveRetryPolicy(options.retry);
  } catch (error) {
    throw new ConfigurationError((error as Error).message);
  }
  if (options.fetch !== undefined && typeof options.fetch !== 'function') throw new ConfigurationError('`fetch` must be a function');
  if (options.onResponse !== undefined && typeof options.onResponse !== 'function') {
    throw new ConfigurationError('`onResponse` must be a function');
  }
  return {
    baseUrl,
    origin,
    retry,
    timeoutMs,
    clock: options.clock ?? systemClock,
    fetch: options.fetch,
    // Checked here, so that both clients refuse a bad header when they are built, not at their first call.
    headers: options.headers === undefined ? undefined : checkedClientHeaders(options.headers),
    onResponse: options.onResponse,
  };
}

/**
 * The user agent of a DOM simulated on a server runtime: jsdom's (`… jsdom/22.1.0`),
 * happy-dom's (`… HappyDOM/15.0.0`), or the runtime's own, which a DOM registered on
 * its globals leaves in place (Node 21+ `Node.js/22`, `Deno/2.1.4`, `Bun/1.2.3`).
 */
const SIMULATED_DOM = /\b(?:jsdom|HappyDOM)\/|^(?:Node\.js|Deno|Bun)\//;

/**
 * Whether the code runs in a real browser: a page (a `document` exists) or a browser's
 * dedicated, shared or service worker (`importScripts` exists, which the workers of
 * server runtimes, Node, Deno, Bun and workerd, do not have), and not a DOM simulated
 * on a server runtime (jsdom, happy-dom: tests, or a server that registers one
 * globally). What browsers get by default (a public client, ID tokens checked
 * without their signature, no `User-Agent` of the SDK's) is decided on this.
 */
export function isRealBrowser(): boolean {
  const globals = globalThis as { document?: unknown; importScripts?: unknown; navigator?: { userAgent?: unknown } };
  if (typeof globals.document === 'undefined' && typeof globals.importScripts !== 'function') return false;
  // Every page and worker of a browser has a navigator; Node 20 has none, which a DOM registered on its
  // globals without one (`globalThis.document = dom.window.document`) leaves so.
  const userAgent = globals.navigator?.userAgent;
  return typeof userAgent === 'string' && !SIMULATED_DOM.test(userAgent);
}
