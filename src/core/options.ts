import { resolveEndpoint } from './base-url.js';
import { type Clock, MAX_TIMER_MS, systemClock } from './clock.js';
import { ConfigurationError } from './errors.js';
import { checkedClientHeaders } from './http/headers.js';
import type { RateLimit } from './http/rate-limit.js';

/** How failed requests are retried. `false` turns retries off. */
export type RetryOptions =
  | {
      /** Retries after the first attempt. Default 3. */
      readonly maxRetries?: number | undefined;
      /** The longest wait the SDK will sleep; a server asking for longer gets its error thrown at once. Default 60 000. */
      readonly maxDelayMs?: number | undefined;
    }
  | false;

/** {@link RetryOptions} with defaults applied. */
export interface RetryPolicy {
  readonly maxRetries: number;
  readonly maxDelayMs: number;
}

/** Applies the defaults `{ maxRetries: 3, maxDelayMs: 60_000 }`; `false` means no retries; anything else throws `fail(message)`. */
export function resolveRetryPolicy(
  given: RetryOptions | undefined,
  fail: (message: string) => Error = (message) => new ConfigurationError(message),
): RetryPolicy {
  if (given === false) return { maxRetries: 0, maxDelayMs: 0 };
  // `retry: 0` (or `true`) from plain JavaScript must not quietly mean the defaults, three retries.
  if (given !== undefined && (typeof given !== 'object' || given === null || Array.isArray(given))) {
    throw fail('retry must be { maxRetries?, maxDelayMs? } or false');
  }
  const { maxRetries = 3, maxDelayMs = 60_000 } = given ?? {};
  if (!Number.isInteger(maxRetries) || maxRetries < 0) throw fail('retry.maxRetries must be an integer >= 0');
  // A longer timer fires at once: a 429 with a reset weeks away would be retried at once.
  if (!(maxDelayMs >= 0 && maxDelayMs <= MAX_TIMER_MS)) {
    throw fail(`retry.maxDelayMs must be a number of milliseconds from 0 to ${MAX_TIMER_MS}`);
  }
  return { maxRetries, maxDelayMs };
}

/** A `fetch`-compatible function (the global one, an mTLS-aware one, or a test's), called as `fetch(request, init)`: `init.signal` aborts. */
export type FetchLike = (input: Request, init?: RequestInit) => Promise<Response>;

/** Whether `value` is a usable timeout: more than 0 and at most {@link MAX_TIMER_MS} milliseconds. */
export function isValidTimeout(value: unknown): value is number {
  return typeof value === 'number' && value > 0 && value <= MAX_TIMER_MS;
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
  /** Timeout of each attempt, in milliseconds (1 to 2^31 − 1), the response's body included. Default 30 000. */
  timeoutMs?: number | undefined;
  /** A custom `fetch` (an mTLS agent, a proxy, tests). Default: the global `fetch`. */
  fetch?: FetchLike | undefined;
  /** Extra headers on every request. */
  headers?: Readonly<Record<string, string>> | undefined;
  /** Called after every API response with its method, path, status and rate limit (not for a `ManagementClient`'s token requests). */
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
  /** Retries of this call, replacing the client's `retry` (`false` for a call that must not wait); members left out take the defaults. */
  readonly retry?: RetryOptions | undefined;
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

/** Checks the options both clients share and applies defaults (`apiPath` goes after a `domain`'s origin); throws `ConfigurationError`. */
export function resolveCommonOptions(
  options: CommonClientOptions & { domain?: unknown; baseUrl?: unknown },
  apiPath: string,
): CommonSettings {
  const { baseUrl, origin } = resolveEndpoint(options, apiPath);
  const { timeoutMs = 30_000, fetch, onResponse, headers } = options;
  if (!isValidTimeout(timeoutMs)) throw new ConfigurationError(`\`timeoutMs\` must be a number of milliseconds from 1 to ${MAX_TIMER_MS}`);
  if (fetch !== undefined && typeof fetch !== 'function') throw new ConfigurationError('`fetch` must be a function');
  if (onResponse !== undefined && typeof onResponse !== 'function') throw new ConfigurationError('`onResponse` must be a function');
  return {
    baseUrl,
    origin,
    retry: resolveRetryPolicy(options.retry),
    timeoutMs,
    clock: options.clock ?? systemClock,
    fetch,
    headers: headers === undefined ? undefined : checkedClientHeaders(headers),
    onResponse,
  };
}

/** What the SDK reads of the runtime's globals. */
interface RuntimeGlobals {
  readonly document?: unknown;
  readonly importScripts?: unknown;
  readonly Bun?: { readonly version?: string };
  readonly Deno?: { readonly version?: { readonly deno?: string } };
  readonly navigator?: { readonly userAgent?: unknown };
  readonly process?: { readonly versions?: { readonly node?: string } };
}

/** User agents of a DOM simulated on a server: jsdom's, happy-dom's, or the runtime's own (`Node.js/22`), which such a DOM keeps. */
const SIMULATED_DOM = /\b(?:jsdom|HappyDOM)\/|^(?:Node\.js|Deno|Bun)\//;

/**
 * Whether the code runs in a real browser (a page or a worker, not jsdom or happy-dom), which decides the browser defaults:
 * a public client, ID tokens checked without their signature, no `User-Agent` of the SDK's.
 */
export function isRealBrowser(globals: RuntimeGlobals = globalThis as RuntimeGlobals): boolean {
  if (typeof globals.document === 'undefined' && typeof globals.importScripts !== 'function') return false;
  const userAgent = globals.navigator?.userAgent;
  return typeof userAgent === 'string' && !SIMULATED_DOM.test(userAgent);
}

/** Whether the code runs in workerd (Cloudflare Workers), where I/O started for one request cannot be awaited by another. */
export function isWorkerd(globals: RuntimeGlobals = globalThis as RuntimeGlobals): boolean {
  return globals.navigator?.userAgent === 'Cloudflare-Workers';
}

/** The runtime for `User-Agent`: `bun/…`, `deno/…`, `workerd` or `node/…` (Bun and Deno fake it); none in browsers, which forbid it. */
export function runtimeName(globals: RuntimeGlobals = globalThis as RuntimeGlobals): string | undefined {
  if (isRealBrowser(globals)) return undefined;
  if (typeof globals.Bun?.version === 'string') return `bun/${globals.Bun.version}`;
  if (typeof globals.Deno?.version?.deno === 'string') return `deno/${globals.Deno.version.deno}`;
  if (isWorkerd(globals)) return 'workerd';
  if (typeof globals.process?.versions?.node === 'string') return `node/${globals.process.versions.node}`;
  return undefined;
}
