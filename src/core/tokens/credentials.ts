import { ConfigurationError } from '../errors.js';
import { type FetchLike, isRealBrowser } from '../options.js';
import {
  type ClientAssertionSigningAlg,
  type ClientAssertionSigningKey,
  checkSigningKeyOptions,
} from './client-authentication/signing-key.js';
import type { MtlsEdgeHeaders } from './client-authentication/tls-client-auth.js';
import type { TokenEndpointAuthMethod } from './client-authentication/types.js';

/** How a `tls_client_auth` client presents its certificate: a certificate-presenting `fetch`, or the edge headers. */
export type MtlsOptions =
  | {
      /** A `fetch` that presents the client certificate in the TLS handshake (e.g. Node's fetch with an undici `Agent`). */
      readonly fetch: FetchLike;
      readonly edgeHeaders?: undefined;
    }
  | {
      /** The headers an edge network forwards after doing the handshake itself. */
      readonly edgeHeaders: MtlsEdgeHeaders;
      readonly fetch?: undefined;
    };

/** The client's credentials, decided once from its options: one variant per token-endpoint authentication method of the platform. */
export type ClientCredentials =
  | { readonly method: 'client_secret_post' | 'client_secret_basic'; readonly clientId: string; readonly clientSecret: string }
  | {
      readonly method: 'private_key_jwt';
      readonly clientId: string;
      readonly signingKey: ClientAssertionSigningKey;
      readonly alg: ClientAssertionSigningAlg;
    }
  | { readonly method: 'tls_client_auth'; readonly clientId: string; readonly mtls: MtlsOptions }
  | { readonly method: 'none'; readonly clientId: string };

/** The credential options of either client, as plain JavaScript may pass them (checked by {@link resolveCredentials}). */
export interface CredentialOptions {
  readonly clientId?: unknown;
  readonly clientSecret?: unknown;
  readonly clientAssertionSigningKey?: unknown;
  readonly clientAssertionSigningAlg?: unknown;
  readonly tokenEndpointAuthMethod?: unknown;
  readonly mtls?: unknown;
}

/** The option that carries each method's credential. */
const CREDENTIAL_OF = {
  client_secret_post: 'clientSecret',
  client_secret_basic: 'clientSecret',
  private_key_jwt: 'clientAssertionSigningKey',
  tls_client_auth: 'mtls',
  none: undefined,
} as const satisfies Record<TokenEndpointAuthMethod, keyof CredentialOptions | undefined>;

/** The method each credential option implies when `tokenEndpointAuthMethod` is not given. */
const METHOD_OF = {
  clientSecret: 'client_secret_post',
  clientAssertionSigningKey: 'private_key_jwt',
  mtls: 'tls_client_auth',
} as const satisfies Partial<Record<keyof CredentialOptions, TokenEndpointAuthMethod>>;
const CREDENTIAL_NAMES = Object.keys(METHOD_OF) as (keyof typeof METHOD_OF)[];

/** Reads the credential of `method` from the options, checked: `ConfigurationError` names what is wrong. */
export type CredentialCheck = (options: CredentialOptions, clientId: string, method: TokenEndpointAuthMethod) => ClientCredentials;

/** The methods a client accepts, each with the check of its credential; a client bundles only the checks it passes. */
export type CredentialChecks = Partial<Record<TokenEndpointAuthMethod, CredentialCheck>>;

/**
 * Decides the client's token-endpoint authentication among the methods of `checks`, from `clientId`, its one credential and the method
 * (inferred from the credential). Throws `ConfigurationError`, also in a real browser for a secret, a signing key or mTLS edge API key.
 */
export function resolveCredentials(options: CredentialOptions, checks: CredentialChecks): ClientCredentials {
  const credentials = decideCredentials(options, checks);
  // A secret is anything but a client id alone or a certificate-presenting `fetch`.
  const holdsSecret = credentials.method === 'tls_client_auth' ? credentials.mtls.edgeHeaders !== undefined : credentials.method !== 'none';
  if (holdsSecret && isRealBrowser()) {
    const instead = checks.none
      ? 'use a public client (client id only, with PKCE) in browser apps'
      : 'pass a `token` your backend obtained instead';
    throw new ConfigurationError(`A client secret, signing key or mTLS edge API key must never be shipped to a browser: ${instead}`);
  }
  return credentials;
}

/** {@link resolveCredentials} without the browser rule: the method and its one credential, checked. */
function decideCredentials(options: CredentialOptions, checks: CredentialChecks): ClientCredentials {
  const accepted = Object.keys(checks) as TokenEndpointAuthMethod[];
  const { clientId } = options;
  if (typeof clientId !== 'string' || clientId === '') throw new ConfigurationError('`clientId` is required');
  const given = CREDENTIAL_NAMES.filter((name) => options[name] !== undefined);
  const method = options.tokenEndpointAuthMethod ?? inferMethod(given);
  const check = accepted.find((known) => known === method) && checks[method as TokenEndpointAuthMethod];
  if (!check) throw new ConfigurationError(`\`tokenEndpointAuthMethod\` must be one of ${accepted.join(', ')}`);
  const needed = CREDENTIAL_OF[method as TokenEndpointAuthMethod];
  const unused = given.filter((name) => name !== needed);
  if (unused.length > 0) {
    throw new ConfigurationError(
      `${unused.map((name) => `\`${name}\``).join(' and ')} cannot be used with tokenEndpointAuthMethod '${method}'`,
    );
  }
  if (options.clientAssertionSigningAlg !== undefined && needed !== 'clientAssertionSigningKey') {
    throw new ConfigurationError('`clientAssertionSigningAlg` goes with `clientAssertionSigningKey`');
  }
  return check(options, clientId, method as TokenEndpointAuthMethod);
}

/** `client_secret_post` and `client_secret_basic`: a non-empty `clientSecret`. */
export const clientSecretCredentials: CredentialCheck = ({ clientSecret }, clientId, method) => {
  if (clientSecret === undefined) throw new ConfigurationError(`tokenEndpointAuthMethod '${method}' needs \`clientSecret\``);
  if (typeof clientSecret !== 'string' || clientSecret === '') throw new ConfigurationError('`clientSecret` must be a non-empty string');
  return { method: method as 'client_secret_post' | 'client_secret_basic', clientId, clientSecret };
};

/** `private_key_jwt`: a `clientAssertionSigningKey`, and its algorithm (`RS256` by default). */
export const signingKeyCredentials: CredentialCheck = (options, clientId) => {
  if (options.clientAssertionSigningKey === undefined) {
    throw new ConfigurationError("tokenEndpointAuthMethod 'private_key_jwt' needs `clientAssertionSigningKey`");
  }
  const { key, alg } = checkSigningKeyOptions(options.clientAssertionSigningKey, options.clientAssertionSigningAlg);
  return { method: 'private_key_jwt', clientId, signingKey: key, alg };
};

/** `none`: the client id alone (a public client). */
export const clientIdOnlyCredentials: CredentialCheck = (_options, clientId) => ({ method: 'none', clientId });

function inferMethod(given: readonly (keyof typeof METHOD_OF)[]): TokenEndpointAuthMethod {
  if (given.length > 1) {
    throw new ConfigurationError(
      `${given.map((name) => `\`${name}\``).join(' and ')} were both given: pass the credential of the one method the application uses`,
    );
  }
  return given[0] === undefined ? 'none' : METHOD_OF[given[0]];
}
