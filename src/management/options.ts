import { clientSecretBasic, clientSecretPost } from '../auth/client-authentication/client-secret.js';
import { privateKeyJwt } from '../auth/client-authentication/private-key-jwt.js';
import {
  type ClientAssertionSigningAlg,
  type ClientAssertionSigningKey,
  checkSigningKeyOptions,
} from '../auth/client-authentication/signing-key.js';
import type { ClientAuthentication } from '../auth/client-authentication/types.js';
import { requestToken } from '../auth/token-endpoint.js';
import { resolveEndpoint } from '../core/base-url.js';
import type { Clock } from '../core/clock.js';
import { ConfigurationError } from '../core/errors.js';
import { createHttpClient, type FetchLike } from '../core/http.js';
import { resolveCommonOptions } from '../core/options.js';
import type { RateLimiter } from '../core/rate-limiter.js';
import type { RetryOptions } from '../core/retry.js';
import {
  ClientCredentialsTokenProvider,
  callerTokenProvider,
  memoryTokenCache,
  type TokenCache,
  type TokenProvider,
  type TokenSource,
} from '../core/token-provider.js';
import type { ResponseInfo, TransportSettings } from '../core/transport.js';

/** Options of `new ManagementClient(options)`. Give exactly one way to authenticate. */
export interface ManagementClientOptions {
  /** Tenant host name, e.g. `acme.example-tenant.com` (`https://host` also accepted). Requests go to `https://{domain}/api/v2`. */
  domain?: string | undefined;
  /**
   * Instead of `domain`: the API's base URL (an emulator, a proxy). The token endpoint
   * is then `{origin}/oauth/token`. `http:` only for loopback hosts.
   */
  baseUrl?: string | undefined;
  /** A bearer token, or a function returning one (sync or async), called before every request. */
  token?: TokenSource | undefined;
  /** The client id, for the client-credentials grant (with `clientSecret` or `clientAssertionSigningKey`). */
  clientId?: string | undefined;
  /** The client secret, for the client-credentials grant. */
  clientSecret?: string | undefined;
  /** How the secret is sent: `'client_secret_post'` (in the body; default) or `'client_secret_basic'` (Basic header). */
  tokenEndpointAuthMethod?: 'client_secret_post' | 'client_secret_basic' | undefined;
  /** A private key (PKCS#8 PEM, `CryptoKey` or JWK) that signs a client assertion (`private_key_jwt`) instead of a secret. */
  clientAssertionSigningKey?: ClientAssertionSigningKey | undefined;
  /** The assertion's signing algorithm. Default `RS256`. */
  clientAssertionSigningAlg?: ClientAssertionSigningAlg | undefined;
  /** Audience of the client-credentials token. Default `https://{domain}/api/v2/` (with `baseUrl`: `{baseUrl}/`). */
  audience?: string | undefined;
  /** Retries of 429, and of network errors and 502/503/504 for idempotent requests. Default `{ maxRetries: 3, maxDelayMs: 60_000 }`. */
  retry?: RetryOptions | undefined;
  /** Timeout of each attempt, in milliseconds. Default 30 000. */
  timeoutMs?: number | undefined;
  /** Check every response body against its schema. Default `true`. */
  validateResponses?: boolean | undefined;
  /** A custom `fetch` (an mTLS agent, a proxy, tests). Default: the global `fetch`. */
  fetch?: FetchLike | undefined;
  /** Where client-credentials tokens are kept; share one between processes to share tokens (with `lock`, a cold fleet makes one token request). Default: in memory. */
  tokenCache?: TokenCache | undefined;
  /** Paces calls on the tenant's rate-limit bucket; share one between processes to pace a fleet. Default: in memory, per client. */
  rateLimiter?: RateLimiter | undefined;
  /** A cached token is renewed at most this long before it expires (short tokens: a tenth of their life). Default 60 000. */
  tokenRefreshSkewMs?: number | undefined;
  /** Extra headers on every request. */
  headers?: Record<string, string> | undefined;
  /** Called after every response with its method, path, status and rate-limit state. */
  onResponse?: ((info: ResponseInfo) => void) | undefined;
  /** The clock the SDK reads and sleeps with; for tests. Default: the system clock. */
  clock?: Clock | undefined;
}

/** Turns client options into the transport's settings, or throws `ConfigurationError` naming the problem. */
export function resolveManagementOptions(options: ManagementClientOptions): TransportSettings {
  if (typeof options !== 'object' || options === null) throw new ConfigurationError('ManagementClient needs an options object');
  const endpoint = resolveEndpoint(options, '/api/v2');
  const { clock, retry, timeoutMs } = resolveCommonOptions(options);
  if (options.fetch !== undefined && typeof options.fetch !== 'function') throw new ConfigurationError('`fetch` must be a function');
  return {
    baseUrl: endpoint.baseUrl,
    tokens: resolveTokenProvider(options, endpoint, { clock, retry, timeoutMs }),
    retry,
    timeoutMs,
    validateResponses: options.validateResponses ?? true,
    clock,
    fetch: options.fetch,
    headers: options.headers,
    onResponse: options.onResponse,
    rateLimiter: checkRateLimiter(options.rateLimiter),
  };
}

function checkRateLimiter(limiter: RateLimiter | undefined): RateLimiter | undefined {
  if (limiter !== undefined && (typeof limiter?.wait !== 'function' || typeof limiter.update !== 'function')) {
    throw new ConfigurationError('`rateLimiter` must have `wait(key, signal)` and `update(key, rateLimit)` methods');
  }
  return limiter;
}

function resolveTokenProvider(
  options: ManagementClientOptions,
  endpoint: { baseUrl: string; origin: string },
  shared: Pick<TransportSettings, 'clock' | 'retry' | 'timeoutMs'>,
): TokenProvider {
  const { token, clientId, clientSecret, clientAssertionSigningKey } = options;
  const ways = [
    token !== undefined && '`token`',
    clientSecret !== undefined && '`clientSecret`',
    clientAssertionSigningKey !== undefined && '`clientAssertionSigningKey`',
  ].filter(Boolean);
  if (ways.length === 0) {
    throw new ConfigurationError('No credentials: pass `token`, or `clientId` with `clientSecret` or `clientAssertionSigningKey`');
  }
  if (ways.length > 1) throw new ConfigurationError(`Pass only one way to authenticate, not ${ways.join(' and ')}`);

  if (token !== undefined) {
    if (typeof token !== 'function' && (typeof token !== 'string' || token === '')) {
      throw new ConfigurationError('`token` must be a non-empty string or a function returning one');
    }
    const unused = (
      ['clientId', 'audience', 'tokenCache', 'tokenRefreshSkewMs', 'tokenEndpointAuthMethod', 'clientAssertionSigningAlg'] as const
    ).filter((name) => options[name] !== undefined);
    if (unused.length) {
      throw new ConfigurationError(
        `${unused.map((name) => `\`${name}\``).join(', ')} only apply to the client-credentials grant, not to \`token\``,
      );
    }
    return callerTokenProvider(token);
  }
  if (typeof clientId !== 'string' || clientId === '') {
    throw new ConfigurationError('`clientId` is required with `clientSecret` or `clientAssertionSigningKey`');
  }
  const authentication = resolveClientAuthentication(options, clientId, shared.clock);
  const audience = options.audience ?? `${endpoint.baseUrl}/`;
  const http = createHttpClient({ prefixUrl: endpoint.origin, fetch: options.fetch, headers: options.headers });
  const tokenEndpoint = { ...shared, http, issuer: `${endpoint.origin}/`, authentication };
  const maxSkewMs = options.tokenRefreshSkewMs ?? 60_000;
  if (!(maxSkewMs >= 0)) throw new ConfigurationError('`tokenRefreshSkewMs` must be a number >= 0');
  return new ClientCredentialsTokenProvider({
    fetchToken: async () => {
      const response = await requestToken(tokenEndpoint, { grant_type: 'client_credentials', audience });
      return { accessToken: response.access_token, expiresIn: response.expires_in };
    },
    cache: options.tokenCache ?? memoryTokenCache(shared.clock),
    cacheKey: `idplatform:${endpoint.origin}:${clientId}:${audience}`,
    maxSkewMs,
    clock: shared.clock,
  });
}

function resolveClientAuthentication(options: ManagementClientOptions, clientId: string, clock: Clock): ClientAuthentication {
  const { clientSecret, clientAssertionSigningKey, tokenEndpointAuthMethod } = options;
  if (clientSecret !== undefined) {
    if (typeof clientSecret !== 'string' || clientSecret === '') throw new ConfigurationError('`clientSecret` must be a non-empty string');
    if (options.clientAssertionSigningAlg !== undefined) {
      throw new ConfigurationError('`clientAssertionSigningAlg` goes with `clientAssertionSigningKey`, not with `clientSecret`');
    }
    if (tokenEndpointAuthMethod === undefined || tokenEndpointAuthMethod === 'client_secret_post')
      return clientSecretPost(clientId, clientSecret);
    if (tokenEndpointAuthMethod === 'client_secret_basic') return clientSecretBasic(clientId, clientSecret);
    throw new ConfigurationError("`tokenEndpointAuthMethod` must be 'client_secret_post' or 'client_secret_basic' with `clientSecret`");
  }
  if (tokenEndpointAuthMethod !== undefined) {
    throw new ConfigurationError('`tokenEndpointAuthMethod` applies to `clientSecret`; a signing key always uses private_key_jwt');
  }
  const alg = checkSigningKeyOptions(clientAssertionSigningKey, options.clientAssertionSigningAlg);
  return privateKeyJwt(clientId, clientAssertionSigningKey as ClientAssertionSigningKey, alg, () => clock.now());
}
