import { clientCredentialsTokens } from '#client-credentials';
import { ConfigurationError } from '../core/errors.js';
import { isSendableHeaderValue } from '../core/http/headers.js';
import { type CommonClientOptions, type CommonSettings, resolveCommonOptions } from '../core/options.js';
import type { RateLimiter } from '../core/pacing.js';
import type { ClientAssertionSigningAlg, ClientAssertionSigningKey } from '../core/tokens/client-authentication/signing-key.js';
import { callerTokenProvider, type TokenCache, type TokenProvider, type TokenSource } from '../core/tokens/provider.js';
import type { TransportSettings } from '../core/transport.js';

// The members a way to authenticate rules out are typed with the fix as their type, so that a wrong
// mix fails with an error saying what to do: a string naming it, or, where the member must not
// discriminate the union (`clientId`, and `domain` next to `baseUrl`), an object type whose member
// names it. With nothing to discriminate by, TypeScript reports a missing credential against the last
// member of `ManagementClientOptions` (`domain` + `clientSecret`): "Property 'clientSecret' is missing".

/** Authenticate with a bearer token you already have (or a function that returns one before every request). */
export interface BearerTokenOptions {
  /** A bearer token, or a function returning one (sync or async), called before every request. */
  token: TokenSource;
  /** Not with `token`: `clientId` goes with `clientSecret` or `clientAssertionSigningKey`. */
  clientId?: { readonly 'clientId goes with clientSecret or clientAssertionSigningKey, not with token': never } | undefined;
  /** Not with `token`: pass only one way to authenticate. */
  clientSecret?: 'pass only one way to authenticate' | undefined;
  /** Not with `token`: pass only one way to authenticate. */
  clientAssertionSigningKey?: 'pass only one way to authenticate' | undefined;
  clientAssertionSigningAlg?: undefined;
  tokenEndpointAuthMethod?: undefined;
  audience?: undefined;
  tokenCache?: undefined;
  tokenRefreshSkewMs?: undefined;
}

/** What the client-credentials grant takes besides the client's credentials. */
export interface ClientCredentialsGrantOptions {
  /** The client id, for the client-credentials grant. */
  clientId: string;
  /** Audience of the client-credentials token. Default `https://{domain}/api/v2/` (with `baseUrl`: `{baseUrl}/`). */
  audience?: string | undefined;
  /** Where client-credentials tokens are kept; default in memory. Share one between processes to share tokens; with `lock`, a cold fleet makes one token request. */
  tokenCache?: TokenCache | undefined;
  /** How long before it expires a cached token is renewed, in ms, at least 0; default 60 000. A shorter-lived token renews a tenth of its life early, when that is less. A second is added for `exp` rounding. */
  tokenRefreshSkewMs?: number | undefined;
  /** Not with `clientId`: pass only one way to authenticate. */
  token?: 'pass only one way to authenticate' | undefined;
}

/** Client-credentials grant with a client secret. */
export interface ClientSecretGrantOptions extends ClientCredentialsGrantOptions {
  /** The client secret. */
  clientSecret: string;
  /** How the secret is sent: `'client_secret_post'` (in the body; default) or `'client_secret_basic'` (Basic header). */
  tokenEndpointAuthMethod?: 'client_secret_post' | 'client_secret_basic' | undefined;
  /** Not with `clientSecret`: pass only one way to authenticate. */
  clientAssertionSigningKey?: 'pass only one way to authenticate' | undefined;
  clientAssertionSigningAlg?: undefined;
}

/** Client-credentials grant with a signed JWT client assertion (`private_key_jwt`). */
export interface ClientAssertionGrantOptions extends ClientCredentialsGrantOptions {
  /** A private key (PKCS#8 PEM, `CryptoKey` or JWK) that signs the client assertion. */
  clientAssertionSigningKey: ClientAssertionSigningKey;
  /** The assertion's signing algorithm. Default `RS256`. */
  clientAssertionSigningAlg?: ClientAssertionSigningAlg | undefined;
  tokenEndpointAuthMethod?: 'private_key_jwt' | undefined;
  /** Not with `clientAssertionSigningKey`: pass only one way to authenticate. */
  clientSecret?: 'pass only one way to authenticate' | undefined;
}

/** The options of `new ManagementClient(options)` besides where the tenant is and how to authenticate. */
export interface ManagementClientBaseOptions extends CommonClientOptions {
  /** Check every response body against its schema. Default `true`. */
  validateResponses?: boolean | undefined;
  /** Paces calls on the tenant's rate-limit bucket; share one between processes to pace a fleet. Default: in memory, per client. */
  rateLimiter?: RateLimiter | undefined;
}

// One interface per location and way to authenticate (not intersections): an error then names one
// short type. `baseUrl?: undefined` makes `baseUrl` a discriminant; `domain` is not one (see above).

/** `ManagementClient` options with `domain` and a bearer `token`. */
export interface DomainAndTokenOptions extends ManagementClientBaseOptions, BearerTokenOptions {
  /** Tenant host name, e.g. `acme.example-tenant.com` (`https://host` also accepted). */
  domain: string;
  /** Not with `domain`. */
  baseUrl?: undefined;
}
/** `ManagementClient` options with `domain`, `clientId` and `clientSecret`. */
export interface DomainAndClientSecretOptions extends ManagementClientBaseOptions, ClientSecretGrantOptions {
  /** Tenant host name, e.g. `acme.example-tenant.com` (`https://host` also accepted). */
  domain: string;
  /** Not with `domain`. */
  baseUrl?: undefined;
}
/** `ManagementClient` options with `domain`, `clientId` and `clientAssertionSigningKey`. */
export interface DomainAndClientAssertionOptions extends ManagementClientBaseOptions, ClientAssertionGrantOptions {
  /** Tenant host name, e.g. `acme.example-tenant.com` (`https://host` also accepted). */
  domain: string;
  /** Not with `domain`. */
  baseUrl?: undefined;
}
/** `ManagementClient` options with `baseUrl` and a bearer `token`. */
export interface BaseUrlAndTokenOptions extends ManagementClientBaseOptions, BearerTokenOptions {
  /** Instead of `domain`: the API's base URL. `http:` only for loopback hosts (`localhost`, `127.0.0.0/8`, `[::1]`). */
  baseUrl: string;
  /** Not with `baseUrl`. */
  domain?: { readonly 'pass domain or baseUrl, not both': never } | undefined;
}
/** `ManagementClient` options with `baseUrl`, `clientId` and `clientSecret`. */
export interface BaseUrlAndClientSecretOptions extends ManagementClientBaseOptions, ClientSecretGrantOptions {
  /** Instead of `domain`: the API's base URL. `http:` only for loopback hosts (`localhost`, `127.0.0.0/8`, `[::1]`). */
  baseUrl: string;
  /** Not with `baseUrl`. */
  domain?: { readonly 'pass domain or baseUrl, not both': never } | undefined;
}
/** `ManagementClient` options with `baseUrl`, `clientId` and `clientAssertionSigningKey`. */
export interface BaseUrlAndClientAssertionOptions extends ManagementClientBaseOptions, ClientAssertionGrantOptions {
  /** Instead of `domain`: the API's base URL. `http:` only for loopback hosts (`localhost`, `127.0.0.0/8`, `[::1]`). */
  baseUrl: string;
  /** Not with `baseUrl`. */
  domain?: { readonly 'pass domain or baseUrl, not both': never } | undefined;
}

/**
 * Options of `new ManagementClient(options)`: where the tenant is (`domain` or
 * `baseUrl`), exactly one way to authenticate (a `token`, or `clientId` with
 * `clientSecret` or `clientAssertionSigningKey`), and the options both clients share.
 */
export type ManagementClientOptions =
  | BaseUrlAndTokenOptions
  | BaseUrlAndClientAssertionOptions
  | BaseUrlAndClientSecretOptions
  | DomainAndTokenOptions
  | DomainAndClientAssertionOptions
  // Last: what a missing credential is reported against.
  | DomainAndClientSecretOptions;

/** The options of the client-credentials grant that make no sense with `token`. */
const GRANT_ONLY_OPTIONS = [
  'clientId',
  'audience',
  'tokenCache',
  'tokenRefreshSkewMs',
  'tokenEndpointAuthMethod',
  'clientAssertionSigningAlg',
] as const;

/** Turns client options into the transport's settings, or throws `ConfigurationError` naming the problem. */
export function resolveManagementOptions(options: ManagementClientOptions): TransportSettings {
  if (typeof options !== 'object' || options === null) throw new ConfigurationError('ManagementClient needs an options object');
  const common = resolveCommonOptions(options, '/api/v2');
  return {
    ...common,
    tokens: resolveTokenProvider(options, common),
    validateResponses: checkValidateResponses(options.validateResponses),
    rateLimiter: checkRateLimiter(options.rateLimiter),
  };
}

/** `validateResponses`: a boolean, default `true` (from plain JavaScript, `0` or `'no'` would be read as one or the other). */
function checkValidateResponses(value: unknown): boolean {
  if (value === undefined) return true;
  if (typeof value !== 'boolean') throw new ConfigurationError('`validateResponses` must be true or false');
  return value;
}

/** Whether `value` is an object with the `required` methods, and the `optional` ones when it has them. */
function hasMethods(value: unknown, required: readonly string[], optional: readonly string[] = []): boolean {
  if ((typeof value !== 'object' && typeof value !== 'function') || value === null) return false;
  const members = value as Record<string, unknown>;
  return (
    required.every((name) => typeof members[name] === 'function') &&
    optional.every((name) => members[name] === undefined || typeof members[name] === 'function')
  );
}

function checkRateLimiter(limiter: RateLimiter | undefined): RateLimiter | undefined {
  if (limiter !== undefined && !hasMethods(limiter, ['wait', 'update'])) {
    throw new ConfigurationError('`rateLimiter` must have `wait(key, signal)` and `update(key, rateLimit)` methods');
  }
  return limiter;
}

/** A `tokenCache` option: `get` and `set` methods, and `lock`/`unlock` methods when given. */
function checkTokenCache(cache: TokenCache | undefined): TokenCache | undefined {
  if (cache !== undefined && !hasMethods(cache, ['get', 'set'], ['lock', 'unlock'])) {
    throw new ConfigurationError(
      '`tokenCache` must have `get(key)` and `set(key, token, ttlMs)` methods (and `lock`/`unlock` methods, when given)',
    );
  }
  return cache;
}

function resolveTokenProvider(options: ManagementClientOptions, common: CommonSettings): TokenProvider {
  const { token, clientSecret, clientAssertionSigningKey } = options;
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
    if (typeof token === 'string' && !isSendableHeaderValue(token)) {
      throw new ConfigurationError(
        '`token` holds a character an Authorization header cannot carry (CR, LF, NUL or above U+00FF; a newline from a file?); the token is not shown',
      );
    }
    const unused = GRANT_ONLY_OPTIONS.filter((name) => options[name] !== undefined);
    if (unused.length) {
      throw new ConfigurationError(
        `${unused.map((name) => `\`${name}\``).join(', ')} only apply to the client-credentials grant, not to \`token\``,
      );
    }
    return callerTokenProvider(token);
  }
  return clientCredentialsTokens(options, common, checkTokenCache(options.tokenCache));
}
