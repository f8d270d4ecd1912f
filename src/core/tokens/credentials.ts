import { ConfigurationError } from '../errors.js';
import { isSendableHeaderValue } from '../http/headers.js';
import type { FetchLike } from '../options.js';
import { isRealBrowser } from '../options.js';
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

const CREDENTIAL_NAMES = ['clientSecret', 'clientAssertionSigningKey', 'mtls'] as const;

/**
 * Decides the client's token-endpoint authentication among the `accepted` methods, from `clientId`, its one credential and the method
 * (inferred from the credential). Throws `ConfigurationError`, also in a real browser for a secret, a signing key or mTLS edge API key.
 */
export function resolveCredentials(options: CredentialOptions, accepted: readonly TokenEndpointAuthMethod[]): ClientCredentials {
  const credentials = decideCredentials(options, accepted);
  if (holdsSecret(credentials) && isRealBrowser()) {
    const instead = accepted.includes('none')
      ? 'use a public client (client id only, with PKCE) in browser apps'
      : 'pass a `token` your backend obtained instead';
    throw new ConfigurationError(`A client secret, signing key or mTLS edge API key must never be shipped to a browser: ${instead}`);
  }
  return credentials;
}

/** Whether the credentials hold a secret: anything but a client id alone or a certificate-presenting `fetch`. */
function holdsSecret(credentials: ClientCredentials): boolean {
  if (credentials.method === 'tls_client_auth') return credentials.mtls.edgeHeaders !== undefined;
  return credentials.method !== 'none';
}

/** {@link resolveCredentials} without the browser rule: the method and its one credential, checked. */
function decideCredentials(options: CredentialOptions, accepted: readonly TokenEndpointAuthMethod[]): ClientCredentials {
  const { clientId } = options;
  if (typeof clientId !== 'string' || clientId === '') throw new ConfigurationError('`clientId` is required');
  const given = CREDENTIAL_NAMES.filter((name) => options[name] !== undefined);
  const method = options.tokenEndpointAuthMethod ?? inferMethod(given);
  if (!isOneOf(method, accepted)) {
    throw new ConfigurationError(`\`tokenEndpointAuthMethod\` must be one of ${accepted.join(', ')}`);
  }
  const needed = CREDENTIAL_OF[method];
  const unused = given.filter((name) => name !== needed);
  if (unused.length > 0) {
    throw new ConfigurationError(
      `${unused.map((name) => `\`${name}\``).join(' and ')} cannot be used with tokenEndpointAuthMethod '${method}'`,
    );
  }
  if (options.clientAssertionSigningAlg !== undefined && needed !== 'clientAssertionSigningKey') {
    throw new ConfigurationError('`clientAssertionSigningAlg` goes with `clientAssertionSigningKey`');
  }
  switch (method) {
    case 'client_secret_post':
    case 'client_secret_basic': {
      const { clientSecret } = options;
      if (clientSecret === undefined) throw new ConfigurationError(`tokenEndpointAuthMethod '${method}' needs \`clientSecret\``);
      if (typeof clientSecret !== 'string' || clientSecret === '')
        throw new ConfigurationError('`clientSecret` must be a non-empty string');
      return { method, clientId, clientSecret };
    }
    case 'private_key_jwt': {
      if (options.clientAssertionSigningKey === undefined) {
        throw new ConfigurationError("tokenEndpointAuthMethod 'private_key_jwt' needs `clientAssertionSigningKey`");
      }
      const { key, alg } = checkSigningKeyOptions(options.clientAssertionSigningKey, options.clientAssertionSigningAlg);
      return { method: 'private_key_jwt', clientId, signingKey: key, alg };
    }
    case 'tls_client_auth':
      return { method: 'tls_client_auth', clientId, mtls: checkMtls(options.mtls) };
    case 'none':
      return { method: 'none', clientId };
  }
}

function isOneOf(value: unknown, methods: readonly TokenEndpointAuthMethod[]): value is TokenEndpointAuthMethod {
  return methods.some((method) => method === value);
}

function inferMethod(given: readonly (typeof CREDENTIAL_NAMES)[number][]): TokenEndpointAuthMethod {
  if (given.length > 1) {
    throw new ConfigurationError(
      `${given.map((name) => `\`${name}\``).join(' and ')} were both given: pass the credential of the one method the application uses`,
    );
  }
  switch (given[0]) {
    case 'clientSecret':
      return 'client_secret_post';
    case 'clientAssertionSigningKey':
      return 'private_key_jwt';
    case 'mtls':
      return 'tls_client_auth';
    default:
      return 'none';
  }
}

function checkMtls(mtls: unknown): MtlsOptions {
  if (mtls === undefined) {
    throw new ConfigurationError(
      "tokenEndpointAuthMethod 'tls_client_auth' needs `mtls` (a certificate-presenting `fetch` or `edgeHeaders`)",
    );
  }
  const { fetch, edgeHeaders } = (typeof mtls === 'object' && mtls !== null ? mtls : {}) as {
    fetch?: unknown;
    edgeHeaders?: unknown;
  };
  if (typeof fetch === 'function' && edgeHeaders === undefined) return { fetch: fetch as FetchLike };
  if (fetch === undefined && isEdgeHeaders(edgeHeaders)) {
    // Sent as they are, unlike the certificate (URL-encoded): a header must be able to carry them. Named, never quoted.
    for (const name of ['cnameApiKey', 'clientCertificateCaVerified'] as const) {
      if (!isSendableHeaderValue(edgeHeaders[name])) {
        throw new ConfigurationError(
          `\`mtls.edgeHeaders.${name}\` holds a character a header cannot carry (a newline, say, read from a file, or one above U+00FF)`,
        );
      }
    }
    // A frozen copy of the checked strings: what is sent (and kept out of errors) never changes after the check.
    const { cnameApiKey, clientCertificate, clientCertificateCaVerified } = edgeHeaders;
    return { edgeHeaders: Object.freeze({ cnameApiKey, clientCertificate, clientCertificateCaVerified }) };
  }
  throw new ConfigurationError(
    '`mtls` takes either `fetch` (a function presenting the client certificate) or `edgeHeaders` ({ cnameApiKey, clientCertificate, clientCertificateCaVerified }), not both or neither',
  );
}

function isEdgeHeaders(value: unknown): value is MtlsEdgeHeaders {
  if (typeof value !== 'object' || value === null) return false;
  const { cnameApiKey, clientCertificate, clientCertificateCaVerified } = value as Record<string, unknown>;
  return [cnameApiKey, clientCertificate, clientCertificateCaVerified].every((part) => typeof part === 'string' && part !== '');
}
