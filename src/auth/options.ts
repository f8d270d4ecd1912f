import { ConfigurationError } from '../core/errors.js';
import {
  type CommonClientOptions,
  type CommonSettings,
  isRealBrowser,
  resolveCommonOptions,
  type TenantLocation,
} from '../core/options.js';
import type { ClientAssertionSigningAlg, ClientAssertionSigningKey } from '../core/tokens/client-authentication/signing-key.js';
import type { TokenEndpointAuthMethod } from '../core/tokens/client-authentication/types.js';
import {
  type ClientCredentials,
  type CredentialChecks,
  clientIdOnlyCredentials,
  clientSecretCredentials,
  type MtlsOptions,
  resolveCredentials,
  signingKeyCredentials,
} from '../core/tokens/credentials.js';
import { mtlsCredentials } from '../core/tokens/mtls-options.js';
import { type IdTokenSettings, type IdTokenSigningAlg, type IdTokenVerification, resolveIdTokenSettings } from './id-token.js';

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
  /** Not with `clientSecret`: pass only one way to authenticate. */
  clientAssertionSigningKey?: 'pass only one way to authenticate' | undefined;
  clientAssertionSigningAlg?: undefined;
  /** Not with `clientSecret`: pass only one way to authenticate. */
  mtls?: 'pass only one way to authenticate' | undefined;
}

/** A confidential application that signs client assertions with its private key (`private_key_jwt`). */
export interface ClientAssertionOptions {
  /** A private key (PKCS#8 PEM, `CryptoKey` or JWK) that signs client assertions. */
  clientAssertionSigningKey: ClientAssertionSigningKey;
  /** The assertion's algorithm. Default `RS256`. */
  clientAssertionSigningAlg?: ClientAssertionSigningAlg | undefined;
  tokenEndpointAuthMethod?: 'private_key_jwt' | undefined;
  /** Not with `clientAssertionSigningKey`: pass only one way to authenticate. */
  clientSecret?: 'pass only one way to authenticate' | undefined;
  /** Not with `clientAssertionSigningKey`: pass only one way to authenticate. */
  mtls?: 'pass only one way to authenticate' | undefined;
}

/** A confidential application authenticated by its TLS client certificate (`tls_client_auth`). */
export interface MutualTlsOptions {
  /** A certificate-presenting `fetch`, or the headers an edge network forwards after the handshake. */
  mtls: MtlsOptions;
  tokenEndpointAuthMethod?: 'tls_client_auth' | undefined;
  /** Not with `mtls`: pass only one way to authenticate. */
  clientSecret?: 'pass only one way to authenticate' | undefined;
  /** Not with `mtls`: pass only one way to authenticate. */
  clientAssertionSigningKey?: 'pass only one way to authenticate' | undefined;
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
    /** How far the clocks of this machine and the tenant may disagree when ID token times are checked, in seconds. Default 60. */
    clockToleranceSec?: number | undefined;
    /** The algorithm ID tokens must be signed with (asymmetric only). Default `RS256`. */
    idTokenSigningAlg?: IdTokenSigningAlg | undefined;
    /**
     * `'signature'`: check ID token claims and the signature against the tenant's
     * `/.well-known/jwks.json` (jose, loaded on the first ID token); `'claims'`: the
     * claims only, trusting the token endpoint's TLS. Default `'signature'`, and
     * `'claims'` in browsers.
     */
    idTokenVerification?: IdTokenVerification | undefined;
  } & (PublicClientOptions | ClientSecretOptions | ClientAssertionOptions | MutualTlsOptions);

/** What `AuthenticationClient` decides from its options, without loading any HTTP code. */
export interface AuthClientSettings {
  readonly clientId: string;
  /** `https://{domain}` (no trailing slash). */
  readonly origin: string;
  readonly method: TokenEndpointAuthMethod;
  readonly credentials: ClientCredentials;
  readonly common: CommonSettings;
  /** How ID tokens are checked. */
  readonly idToken: IdTokenSettings;
}

/** Every method the Authentication API takes, with the check of its credential. */
const AUTH_CREDENTIALS: CredentialChecks = {
  client_secret_post: clientSecretCredentials,
  client_secret_basic: clientSecretCredentials,
  private_key_jwt: signingKeyCredentials,
  none: clientIdOnlyCredentials,
  tls_client_auth: mtlsCredentials,
};

/**
 * Checks the options and decides the authentication method; throws
 * `ConfigurationError` naming the problem (in a browser, also for a secret: see
 * `resolveCredentials`).
 */
export function resolveAuthOptions(options: AuthenticationClientOptions): AuthClientSettings {
  if (typeof options !== 'object' || options === null) throw new ConfigurationError('AuthenticationClient needs an options object');
  const credentials = resolveCredentials(options, AUTH_CREDENTIALS);
  const common = resolveCommonOptions(options, '');
  // The Authentication API lives at the tenant's root (its issuer is the origin): a path would be dropped unsaid.
  if (common.baseUrl !== common.origin) {
    throw new ConfigurationError('AuthenticationClient takes an origin as `baseUrl` (scheme, host and port), without a path');
  }
  // Every request goes through one fetch: with two, one would be dropped unsaid.
  if (credentials.method === 'tls_client_auth' && credentials.mtls.fetch !== undefined && common.fetch !== undefined) {
    throw new ConfigurationError(
      'Pass the certificate-presenting fetch once, as `mtls.fetch` (every request of the client goes through it), not also as `fetch`',
    );
  }
  const idToken = resolveIdTokenSettings(options, common.origin, credentials.clientId, isRealBrowser());
  return { clientId: credentials.clientId, origin: common.origin, method: credentials.method, credentials, common, idToken };
}
