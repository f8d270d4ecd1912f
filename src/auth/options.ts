import type { AuthApiContext } from '../core/auth-request.js';
import type { ClientAssertionSigningAlg, ClientAssertionSigningKey } from '../core/client-authentication/signing-key.js';
import type { TokenEndpointAuthMethod } from '../core/client-authentication/types.js';
import { type MtlsOptions, resolveCredentials } from '../core/credentials.js';
import { ConfigurationError } from '../core/errors.js';
import { createHttpClient } from '../core/http.js';
import { type CommonClientOptions, isBrowser, resolveCommonOptions, type TenantLocation } from '../core/options.js';
import { createTokenEndpoint, type TokenEndpoint } from '../core/token-endpoint.js';

/** A public application (SPA, mobile app): client id only, no secret; code exchanges use PKCE. */
export interface PublicClientOptions {
  tokenEndpointAuthMethod?: 'none' | undefined;
  clientSecret?: undefined;
  clientAssertionSigningKey?: undefined;
  clientAssertionSigningAlg?: undefined;
  mtls?: undefined;
}

/** A confidential application with a client secret, sent in the body (`client_secret_post`, default) or as Basic (`client_secret_basic`). */
export interface ClientSecretOptions {
  /** The client secret (never in a browser). */
  clientSecret: string;
  tokenEndpointAuthMethod?: 'client_secret_post' | 'client_secret_basic' | undefined;
  clientAssertionSigningKey?: undefined;
  clientAssertionSigningAlg?: undefined;
  mtls?: undefined;
}

/** A confidential application that signs client assertions with its private key (`private_key_jwt`). */
export interface ClientAssertionOptions {
  /** A private key (PKCS#8 PEM, `CryptoKey` or JWK) that signs client assertions. */
  clientAssertionSigningKey: ClientAssertionSigningKey;
  /** The assertion's algorithm. Default `RS256`. */
  clientAssertionSigningAlg?: ClientAssertionSigningAlg | undefined;
  tokenEndpointAuthMethod?: 'private_key_jwt' | undefined;
  clientSecret?: undefined;
  mtls?: undefined;
}

/** A confidential application authenticated by its TLS client certificate (`tls_client_auth`). */
export interface MutualTlsOptions {
  /** A certificate-presenting `fetch`, or the headers an edge network forwards after the handshake. */
  mtls: MtlsOptions;
  tokenEndpointAuthMethod?: 'tls_client_auth' | undefined;
  clientSecret?: undefined;
  clientAssertionSigningKey?: undefined;
  clientAssertionSigningAlg?: undefined;
}

/**
 * Options of `new AuthenticationClient(options)`: where the tenant is (`domain` or
 * `baseUrl`), the `clientId`, at most one credential (none for a public
 * application), and the options both clients share.
 */
export type AuthenticationClientOptions = CommonClientOptions &
  TenantLocation & {
    /** The application's client id. */
    clientId: string;
  } & (PublicClientOptions | ClientSecretOptions | ClientAssertionOptions | MutualTlsOptions);

/** What the namespaces of `AuthenticationClient` share, resolved from its options. */
export interface AuthSettings extends AuthApiContext {
  readonly clientId: string;
  /** `https://{domain}` (no trailing slash). */
  readonly origin: string;
  readonly method: TokenEndpointAuthMethod;
  /** The token endpoint with the client's authentication. */
  readonly tokenEndpoint: TokenEndpoint;
}

const AUTH_METHODS: readonly TokenEndpointAuthMethod[] = [
  'client_secret_post',
  'client_secret_basic',
  'private_key_jwt',
  'none',
  'tls_client_auth',
];

/** Checks the options and decides the authentication method; throws `ConfigurationError` naming the problem. */
export function resolveAuthOptions(options: AuthenticationClientOptions): AuthSettings {
  if (typeof options !== 'object' || options === null) throw new ConfigurationError('AuthenticationClient needs an options object');
  const credentials = resolveCredentials(options, AUTH_METHODS);
  const common = resolveCommonOptions(options, '');
  if (
    isBrowser() &&
    (credentials.method === 'client_secret_post' ||
      credentials.method === 'client_secret_basic' ||
      credentials.method === 'private_key_jwt')
  ) {
    throw new ConfigurationError(
      'A client secret or signing key must never be shipped to a browser: use a public client (client id only, with PKCE) in browser apps',
    );
  }
  const fetch = credentials.method === 'tls_client_auth' ? (credentials.mtls.fetch ?? common.fetch) : common.fetch;
  const context: AuthApiContext = {
    http: createHttpClient({ prefixUrl: common.origin, fetch, headers: common.headers }),
    retry: common.retry,
    clock: common.clock,
    timeoutMs: common.timeoutMs,
    onResponse: common.onResponse,
  };
  return {
    ...context,
    clientId: credentials.clientId,
    origin: common.origin,
    method: credentials.method,
    tokenEndpoint: createTokenEndpoint(context, common.origin, credentials, common.clock),
  };
}
