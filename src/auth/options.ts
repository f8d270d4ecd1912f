import { resolveEndpoint } from '../core/base-url.js';
import type { Clock } from '../core/clock.js';
import { ConfigurationError } from '../core/errors.js';
import { createHttpClient, type FetchLike } from '../core/http.js';
import { isBrowser, resolveCommonOptions } from '../core/options.js';
import type { RetryOptions } from '../core/retry.js';
import type { AuthApiContext } from './auth-request.js';
import { clientSecretBasic, clientSecretPost } from './client-authentication/client-secret.js';
import { clientIdOnly } from './client-authentication/none.js';
import {
  type ClientAssertionSigningAlg,
  type ClientAssertionSigningKey,
  checkSigningKeyOptions,
} from './client-authentication/signing-key.js';
import { type MtlsEdgeHeaders, tlsClientAuth } from './client-authentication/tls-client-auth.js';
import type { ClientAuthentication, TokenEndpointAuthMethod } from './client-authentication/types.js';
import { type IdTokenSettings, type IdTokenSigningAlg, type IdTokenVerification, resolveIdTokenSettings } from './id-token.js';
import type { TokenEndpoint } from './token-endpoint.js';

/** How a `tls_client_auth` client presents its certificate: one of the two. */
export interface MtlsOptions {
  /** A `fetch` that presents the client certificate in the TLS handshake (e.g. Node's fetch with an undici `Agent`). */
  readonly fetch?: FetchLike | undefined;
  /** Or: the headers an edge network forwards after doing the handshake itself. */
  readonly edgeHeaders?: MtlsEdgeHeaders | undefined;
}

/** Options of `new AuthenticationClient(options)`. */
export interface AuthenticationClientOptions {
  /** Tenant host name, e.g. `acme.example-tenant.com`; the API is at `https://{domain}/`. */
  domain?: string | undefined;
  /** Instead of `domain`: the API's origin (an emulator, a proxy). `http:` only for loopback hosts. */
  baseUrl?: string | undefined;
  /** The application's client id. Required. */
  clientId: string;
  /** The client secret of a confidential application (never in a browser). */
  clientSecret?: string | undefined;
  /** A private key (PKCS#8 PEM, `CryptoKey` or JWK) that signs client assertions (`private_key_jwt`). */
  clientAssertionSigningKey?: ClientAssertionSigningKey | undefined;
  /** The assertion's algorithm. Default `RS256`. */
  clientAssertionSigningAlg?: ClientAssertionSigningAlg | undefined;
  /**
   * How the client authenticates at the token endpoint. Inferred when unambiguous:
   * a secret → `client_secret_post`, a signing key → `private_key_jwt`, `mtls` →
   * `tls_client_auth`, none of them → `none` (client id only, public applications).
   */
  tokenEndpointAuthMethod?: TokenEndpointAuthMethod | undefined;
  /** For `tls_client_auth`: a certificate-presenting `fetch` or the edge headers. */
  mtls?: MtlsOptions | undefined;
  /** Retries of 429 (and, for GET, network errors and 502/503/504). Default `{ maxRetries: 3, maxDelayMs: 60_000 }`. */
  retry?: RetryOptions | undefined;
  /** Timeout of each attempt, in milliseconds. Default 30 000. */
  timeoutMs?: number | undefined;
  /** A custom `fetch`. Default: the global `fetch`. */
  fetch?: FetchLike | undefined;
  /** The clock the SDK reads and sleeps with; for tests. */
  clock?: Clock | undefined;
  /** How far an ID token's `exp`, `iat` and `auth_time` may be off the local clock, in seconds. Default 60. */
  clockToleranceSec?: number | undefined;
  /** The algorithm ID tokens must be signed with. Default `RS256`. */
  idTokenSigningAlg?: IdTokenSigningAlg | undefined;
  /**
   * `'signature'`: check an ID token's claims and its signature against the tenant's
   * `/.well-known/jwks.json` (default in Node and other server runtimes); `'claims'`:
   * the claims only (default in browsers, where the token came straight from the
   * token endpoint over TLS).
   */
  idTokenVerification?: IdTokenVerification | undefined;
}

/** What the namespaces of `AuthenticationClient` share, resolved from its options. */
export interface AuthSettings extends AuthApiContext {
  readonly clientId: string;
  /** `https://{domain}` (no trailing slash). */
  readonly origin: string;
  readonly method: TokenEndpointAuthMethod;
  /** How ID tokens are validated. */
  readonly idToken: IdTokenSettings;
  /** The token endpoint with the client's authentication; `private_key_jwt` loads jose on first use only. */
  tokenEndpoint(): Promise<TokenEndpoint>;
}

const METHODS: readonly TokenEndpointAuthMethod[] = [
  'client_secret_post',
  'client_secret_basic',
  'private_key_jwt',
  'none',
  'tls_client_auth',
];

/** Checks the options and infers the authentication method; throws `ConfigurationError` naming the problem. */
export function resolveAuthOptions(options: AuthenticationClientOptions): AuthSettings {
  if (typeof options !== 'object' || options === null) throw new ConfigurationError('AuthenticationClient needs an options object');
  const { clientId } = options;
  if (typeof clientId !== 'string' || clientId === '') throw new ConfigurationError('`clientId` is required');
  const { origin } = resolveEndpoint(options, '');
  const method = inferMethod(options);
  if (method === 'private_key_jwt') checkSigningKeyOptions(options.clientAssertionSigningKey, options.clientAssertionSigningAlg);
  if (isBrowser() && (options.clientSecret !== undefined || options.clientAssertionSigningKey !== undefined)) {
    throw new ConfigurationError(
      'A client secret or signing key must never be shipped to a browser: use a public client (client id only, with PKCE) in browser apps',
    );
  }
  const { clock, retry, timeoutMs } = resolveCommonOptions(options);
  const context: AuthApiContext = {
    http: createHttpClient({ prefixUrl: origin, fetch: options.mtls?.fetch ?? options.fetch }),
    retry,
    clock,
    timeoutMs,
  };
  let endpoint: Promise<TokenEndpoint> | undefined;
  return {
    ...context,
    clientId,
    origin,
    method,
    idToken: resolveIdTokenSettings(options, origin, clientId, isBrowser()),
    tokenEndpoint: () => {
      endpoint ??= authenticationFor(options, clientId, method, clock).then((authentication) => ({
        ...context,
        issuer: `${origin}/`,
        authentication,
      }));
      return endpoint;
    },
  };
}

function inferMethod(options: AuthenticationClientOptions): TokenEndpointAuthMethod {
  const { clientSecret, clientAssertionSigningKey, mtls, tokenEndpointAuthMethod: method } = options;
  if (clientSecret !== undefined && (typeof clientSecret !== 'string' || clientSecret === '')) {
    throw new ConfigurationError('`clientSecret` must be a non-empty string');
  }
  if (mtls !== undefined && (mtls.fetch === undefined) === (mtls.edgeHeaders === undefined)) {
    throw new ConfigurationError('`mtls` takes either `fetch` (presenting the client certificate) or `edgeHeaders`, not both or neither');
  }
  const given = [
    clientSecret !== undefined && '`clientSecret`',
    clientAssertionSigningKey !== undefined && '`clientAssertionSigningKey`',
    mtls !== undefined && '`mtls`',
  ].filter((name): name is string => Boolean(name));
  if (method === undefined) {
    if (given.length > 1) {
      throw new ConfigurationError(
        `${given.join(' and ')} were both given: set \`tokenEndpointAuthMethod\` to one of ${METHODS.join(', ')}`,
      );
    }
    if (clientSecret !== undefined) return 'client_secret_post';
    if (clientAssertionSigningKey !== undefined) return 'private_key_jwt';
    return mtls !== undefined ? 'tls_client_auth' : 'none';
  }
  if (!METHODS.includes(method)) throw new ConfigurationError(`\`tokenEndpointAuthMethod\` must be one of ${METHODS.join(', ')}`);
  const needs: Record<TokenEndpointAuthMethod, string | undefined> = {
    client_secret_post: clientSecret === undefined ? '`clientSecret`' : undefined,
    client_secret_basic: clientSecret === undefined ? '`clientSecret`' : undefined,
    private_key_jwt: clientAssertionSigningKey === undefined ? '`clientAssertionSigningKey`' : undefined,
    tls_client_auth: mtls === undefined ? '`mtls` (a certificate-presenting `fetch` or `edgeHeaders`)' : undefined,
    none: undefined,
  };
  if (needs[method]) throw new ConfigurationError(`tokenEndpointAuthMethod '${method}' needs ${needs[method]}`);
  return method;
}

async function authenticationFor(
  options: AuthenticationClientOptions,
  clientId: string,
  method: TokenEndpointAuthMethod,
  clock: Clock,
): Promise<ClientAuthentication> {
  switch (method) {
    case 'client_secret_post':
      return clientSecretPost(clientId, options.clientSecret as string);
    case 'client_secret_basic':
      return clientSecretBasic(clientId, options.clientSecret as string);
    case 'tls_client_auth':
      return tlsClientAuth(clientId, options.mtls?.edgeHeaders);
    case 'none':
      return clientIdOnly(clientId);
    case 'private_key_jwt': {
      // Loaded on demand, so that browser bundles of public clients never include jose.
      const { privateKeyJwt } = await import('./client-authentication/private-key-jwt.js');
      const key = options.clientAssertionSigningKey as ClientAssertionSigningKey;
      return privateKeyJwt(clientId, key, options.clientAssertionSigningAlg, () => clock.now());
    }
  }
}
