import type { JSONWebKeySet } from 'jose';
import { type ClientCredentials, type ClientRegistration, type RegisteredClient, registerClient } from './clients.js';
import { type Fault, FaultQueue, type FaultScript, malform } from './faults.js';
import type { EmulatorServer, ListenOptions } from './node-server.js';
import {
  RateLimitBucket,
  type RateLimitOptions,
  type RateLimitSnapshot,
  rateLimitHeaders,
  retryAfterSeconds,
  TOO_MANY_REQUESTS_MESSAGE,
} from './rate-limit.js';
import { type ApiKind, apiOf, authenticationError, errorFor, managementError } from './responses.js';
import { route } from './routes.js';
import { defaultSeed } from './seed.js';
import { sleep } from './sleep.js';
import { type EmulatorData, TenantStore } from './store.js';
import type { TokenEndpointContext } from './token-endpoint.js';
import { AccessTokens } from './tokens.js';

/** The origin msw handlers answer for when no `origin` or `domain` is given. */
export const DEFAULT_EMULATOR_ORIGIN = 'https://tenant.emulator.test';

/** The scopes of the default client: those of the four emulated operations. */
export const DEFAULT_CLIENT_SCOPES: readonly string[] = [
  'read:organization_invitations',
  'read:actions',
  'read:guardian_factors',
  'update:guardian_factors',
];

/** The default client's id and secret (fixed, so example output is stable; not a real secret). */
export const DEFAULT_CLIENT_CREDENTIALS = { clientId: 'emulator-m2m-client', clientSecret: 'emulator-m2m-client-secret' } as const;

/** `expires_in` of issued tokens unless configured: 24 hours, the platform's default for machine-to-machine tokens. */
export const DEFAULT_TOKEN_LIFETIME_SECONDS = 86_400;

/** Options of {@link createTenantEmulator}. */
export interface TenantEmulatorOptions {
  /** The origin the msw handlers answer for, e.g. `https://acme.emulator.test`; default {@link DEFAULT_EMULATOR_ORIGIN}. */
  readonly origin?: string;
  /** Instead of `origin`: a host name, served as `https://{domain}`. */
  readonly domain?: string;
  /** The clock (milliseconds since the epoch) for token times and rate-limit windows; default `Date.now`. */
  readonly now?: () => number;
  /** `'default'`: the records of `SEED_IDS` (see `defaultSeed`); `'empty'`: no records, phone types `[]`. */
  readonly seed?: 'default' | 'empty';
  /**
   * The rate-limit bucket, one per API (Management API `/api/v2/*`; everything else,
   * the token endpoint included, is the Authentication API); default 1000 requests per 60 s.
   */
  readonly rateLimit?: RateLimitOptions;
  /** `expires_in` of issued tokens, in seconds; default 86 400. */
  readonly tokenLifetimeSeconds?: number;
  /** The default client; default {@link DEFAULT_CLIENT_CREDENTIALS} with {@link DEFAULT_CLIENT_SCOPES}, either secret method. */
  readonly defaultClient?: { readonly clientId?: string; readonly clientSecret?: string; readonly scopes?: readonly string[] };
}

/** How many requests `emulator.requests` remembers; older ones are dropped first. */
export const MAX_LOGGED_REQUESTS = 10_000;

/** One request the emulator answered. */
export interface EmulatorRequestRecord {
  readonly method: string;
  /** Path and query as sent, e.g. `/api/v2/organizations/org_big/invitations?page=0`. */
  readonly path: string;
  readonly status: number;
}

/** Options of `emulator.createAccessToken`. */
export interface AccessTokenOptions {
  /** `sub`/`azp`; default the default client. */
  readonly clientId?: string;
  /** The `scope` claim; default the client's scopes (the default client's when the client is unknown). */
  readonly scopes?: readonly string[];
  /** Lifetime; default the emulator's `tokenLifetimeSeconds`. Negative makes an expired token. */
  readonly expiresInSeconds?: number;
  /** The origin the token is for (`iss` `{origin}/`, `aud` `{origin}/api/v2/`); default `emulator.origin`. Use the `url` of `listen()` for the loopback server. */
  readonly origin?: string;
  /** Overrides `aud`, e.g. to test `Bad audience`. */
  readonly audience?: string;
}

/** A tenant emulator; see {@link createTenantEmulator}. */
export interface TenantEmulator {
  /** The origin msw handlers answer for, e.g. `https://tenant.emulator.test`. */
  readonly origin: string;
  /** Its host, e.g. `tenant.emulator.test` (a `ManagementClient`'s `domain`). */
  readonly domain: string;
  /** The default client's `{ clientId, clientSecret }`, ready to spread into a `ManagementClient`'s options. */
  readonly credentials: { readonly clientId: string; readonly clientSecret: string };
  /** The tenant's data: add or remove organizations, invitations, modules, actions; set phone message types. */
  readonly data: EmulatorData;
  /** Scripted faults: `emulator.faults.next(2, { status: 429 })`. */
  readonly faults: FaultScript;
  /** The requests answered so far, oldest first (the last {@link MAX_LOGGED_REQUESTS}). */
  readonly requests: readonly EmulatorRequestRecord[];
  /**
   * The core: answers one request as the tenant would. Requests to any origin are
   * accepted; tokens are issued for, and checked against, the origin of the request.
   */
  handle(request: Request): Promise<Response>;
  /** Serves {@link handle} on a node:http server on `127.0.0.1` and a free port (Node only). */
  listen(options?: ListenOptions): Promise<EmulatorServer>;
  /** Registers (or replaces) a machine-to-machine client; returns its id and secret (generated when needed). */
  registerClient(registration: ClientRegistration): ClientCredentials;
  /** Removes a client; its tokens stay valid until they expire. `false` if there was none. */
  removeClient(clientId: string): boolean;
  /** Signs an access token directly, without the token endpoint (e.g. with too few scopes, or already expired). */
  createAccessToken(options?: AccessTokenOptions): Promise<string>;
  /** The public keys that verify the emulator's tokens (also served at `/.well-known/jwks.json`). */
  jwks(): Promise<JSONWebKeySet>;
  /** Refills the rate-limit buckets. */
  resetRateLimits(): void;
  /** Back to the start: seed data, no faults, full buckets, empty request log. Registered clients stay. */
  reset(): void;
}

/**
 * Creates an emulator of one tenant.
 * It serves the token endpoint: client credentials with `client_secret_post`, `client_secret_basic` or `private_key_jwt`, and RS256 tokens.
 * It also serves `/userinfo`, `/.well-known/jwks.json` and four Management API operations.
 * The operations follow the platform's documented rules.
 * Every answer carries rate-limit headers. The bucket is configurable, faults can be scripted and data seeded.
 * Wrong options throw `TypeError` or `RangeError`, naming the problem.
 * Serve the emulator with msw (`createMswHandlers(emulator)` from `idplatform/testing/msw`), or on a loopback port (`await emulator.listen()`).
 *
 * ```ts
 * const emulator = createTenantEmulator();
 * const { url, close } = await emulator.listen();
 * const management = new ManagementClient({ baseUrl: `${url}/api/v2`, ...emulator.credentials });
 * ```
 */
export function createTenantEmulator(options: TenantEmulatorOptions = {}): TenantEmulator {
  checkOptions(options);
  const origin = resolveOrigin(options);
  const now = options.now ?? Date.now;
  const tokenLifetimeSeconds = options.tokenLifetimeSeconds ?? DEFAULT_TOKEN_LIFETIME_SECONDS;
  if (!Number.isSafeInteger(tokenLifetimeSeconds) || tokenLifetimeSeconds < 1) {
    throw new RangeError('tokenLifetimeSeconds must be a positive integer');
  }
  const rateLimit = options.rateLimit ?? {};
  const buckets: Record<ApiKind, RateLimitBucket> = {
    management: new RateLimitBucket(rateLimit, now),
    authentication: new RateLimitBucket(rateLimit, now),
  };
  const store = new TenantStore({ seeder: options.seed === 'empty' ? undefined : defaultSeed, now });
  const faults = new FaultQueue();
  const tokens = new AccessTokens(now);
  const clients = new Map<string, RegisteredClient>();
  const requests: EmulatorRequestRecord[] = [];
  const tokenEndpoint: TokenEndpointContext = { clients, now, usedAssertions: new Map(), tokens, tokenLifetimeSeconds };

  const defaultClient = registerClient({
    clientId: options.defaultClient?.clientId ?? DEFAULT_CLIENT_CREDENTIALS.clientId,
    clientSecret: options.defaultClient?.clientSecret ?? DEFAULT_CLIENT_CREDENTIALS.clientSecret,
    scopes: options.defaultClient?.scopes ?? DEFAULT_CLIENT_SCOPES,
  });
  clients.set(defaultClient.clientId, defaultClient);
  const credentials = { clientId: defaultClient.clientId, clientSecret: defaultClient.clientSecret ?? '' };

  async function answer(request: Request, url: URL, api: ApiKind, fault: Fault | undefined): Promise<[Response, RateLimitSnapshot?]> {
    if (fault !== undefined && 'delayMs' in fault) await sleep(fault.delayMs, request.signal);
    if (fault !== undefined && 'status' in fault) {
      if (fault.status === 429) {
        const seconds = fault.retryAfterSeconds ?? 1;
        const snapshot = { limit: buckets[api].peek().limit, remaining: 0, resetAtMs: now() + seconds * 1000 };
        return [errorFor(api, 429, TOO_MANY_REQUESTS_MESSAGE, 'too_many_requests', { 'retry-after': String(seconds) }), snapshot];
      }
      return [serverError(api, fault.status)];
    }
    const bucket = buckets[api];
    const taken = bucket.take();
    if (taken === undefined) {
      const empty = bucket.peek();
      const retryAfter = String(retryAfterSeconds(empty.resetAtMs, now()));
      return [errorFor(api, 429, TOO_MANY_REQUESTS_MESSAGE, 'too_many_requests', { 'retry-after': retryAfter }), empty];
    }
    const response = await route({ request, url, api, tokenEndpoint, tokens, store });
    // The bucket as it stood when this request was let through, not as others in flight left it.
    return [fault !== undefined && 'malformed' in fault ? await malformResponse(response, fault.body) : response, taken];
  }

  async function handle(request: Request): Promise<Response> {
    const url = new URL(request.url);
    const api = apiOf(url.pathname);
    const fault = faults.take(request.method, url.pathname);
    let response: Response;
    let snapshot: RateLimitSnapshot | undefined;
    try {
      [response, snapshot] = await answer(request, url, api, fault);
    } catch (error) {
      if (request.signal.aborted) throw error;
      response = errorFor(api, 500, `The emulator failed: ${error instanceof Error ? error.message : String(error)}`, 'internal_error');
    }
    requests.push({ method: request.method, path: url.pathname + url.search, status: response.status });
    if (requests.length > MAX_LOGGED_REQUESTS) requests.splice(0, requests.length - MAX_LOGGED_REQUESTS);
    return withHeaders(response, rateLimitHeaders(snapshot ?? buckets[api].peek()));
  }

  return {
    origin,
    domain: new URL(origin).host,
    credentials,
    data: store,
    faults,
    requests,
    handle,
    listen: async (listenOptions) => {
      // `#node-server` (package.json `imports`): the loopback server under Node, elsewhere a module that says it needs Node.
      const { serve } = await import('#node-server');
      return serve(handle, listenOptions);
    },
    registerClient: (registration) => {
      const client = registerClient(registration);
      clients.set(client.clientId, client);
      return client.clientSecret === undefined
        ? { clientId: client.clientId }
        : { clientId: client.clientId, clientSecret: client.clientSecret };
    },
    removeClient: (clientId) => clients.delete(clientId),
    createAccessToken: (tokenOptions = {}) => {
      const clientId = tokenOptions.clientId ?? credentials.clientId;
      const tokenOrigin = tokenOptions.origin === undefined ? origin : resolveOrigin({ origin: tokenOptions.origin });
      return tokens.issue({
        issuer: `${tokenOrigin}/`,
        audience: tokenOptions.audience ?? `${tokenOrigin}/api/v2/`,
        clientId,
        scopes: tokenOptions.scopes ?? (clients.get(clientId) ?? defaultClient).scopes,
        lifetimeSeconds: tokenOptions.expiresInSeconds ?? tokenLifetimeSeconds,
      });
    },
    jwks: () => tokens.jwks(),
    resetRateLimits: () => {
      buckets.management.reset();
      buckets.authentication.reset();
    },
    reset: () => {
      store.reset();
      faults.clear();
      buckets.management.reset();
      buckets.authentication.reset();
      requests.length = 0;
      tokenEndpoint.usedAssertions.clear();
    },
  };
}

const OPTION_NAMES: readonly (keyof TenantEmulatorOptions)[] = [
  'origin',
  'domain',
  'now',
  'seed',
  'rateLimit',
  'tokenLifetimeSeconds',
  'defaultClient',
];

/** Refuses (`TypeError`) options that are not an object, an option the emulator does not know (a typo), and an unknown seed. */
function checkOptions(options: unknown): asserts options is TenantEmulatorOptions {
  if (typeof options !== 'object' || options === null) throw new TypeError('options must be an object');
  const unknown = Object.keys(options).filter((name) => !(OPTION_NAMES as readonly string[]).includes(name));
  if (unknown.length > 0) throw new TypeError(`unknown option ${unknown.join(', ')}; the options are ${OPTION_NAMES.join(', ')}`);
  const { seed } = options as TenantEmulatorOptions;
  if (seed !== undefined && seed !== 'default' && seed !== 'empty') {
    throw new TypeError(`seed must be 'default' or 'empty', got ${JSON.stringify(seed) ?? String(seed)}`);
  }
}

function resolveOrigin(options: { readonly origin?: string; readonly domain?: string }): string {
  if (options.origin !== undefined && options.domain !== undefined) throw new TypeError('pass origin or domain, not both');
  const text = options.origin ?? (options.domain === undefined ? DEFAULT_EMULATOR_ORIGIN : `https://${options.domain}`);
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new TypeError(`not a valid origin: ${text}`);
  }
  if ((url.protocol !== 'https:' && url.protocol !== 'http:') || url.pathname !== '/' || url.search || url.hash || url.username) {
    throw new TypeError(`origin must be http(s)://host[:port] without a path, got ${text}`);
  }
  return url.origin;
}

function serverError(api: ApiKind, status: 500 | 502 | 503 | 504): Response {
  const message = status === 503 ? 'The service is temporarily unavailable (scripted fault)' : `Scripted fault ${status}`;
  if (api === 'authentication') return authenticationError(status, status === 503 ? 'temporarily_unavailable' : 'server_error', message);
  const codes = { 500: 'internal_error', 502: 'bad_gateway', 503: 'service_unavailable', 504: 'gateway_timeout' } as const;
  return managementError(status, message, codes[status]);
}

/** Replaces a 2xx JSON body with a malformed one (see `malform`), or with `body` when given. */
async function malformResponse(response: Response, body: unknown): Promise<Response> {
  if (!response.ok || !(response.headers.get('content-type') ?? '').includes('json')) return response;
  const original: unknown = await response.json();
  const headers = new Headers(response.headers);
  headers.delete('content-length');
  return new Response(JSON.stringify(body === undefined ? malform(original) : body), {
    status: response.status,
    statusText: response.statusText,
    headers,
  });
}

function withHeaders(response: Response, extra: Readonly<Record<string, string>>): Response {
  const headers = new Headers(response.headers);
  for (const [name, value] of Object.entries(extra)) headers.set(name, value);
  return new Response(response.body, { status: response.status, statusText: response.statusText, headers });
}
