import { ConfigurationError } from '../errors.js';
import { isSendableHeaderValue } from '../http/headers.js';
import type { FetchLike } from '../options.js';
import type { MtlsEdgeHeaders } from './client-authentication/tls-client-auth.js';
import type { CredentialCheck, MtlsOptions } from './credentials.js';

/** `tls_client_auth`: `mtls`, a certificate-presenting `fetch` or the edge network's headers. Only the Authentication API takes it. */
export const mtlsCredentials: CredentialCheck = (options, clientId) => ({
  method: 'tls_client_auth',
  clientId,
  mtls: checkMtls(options.mtls),
});

function checkMtls(mtls: unknown): MtlsOptions {
  if (mtls === undefined) {
    throw new ConfigurationError(
      "tokenEndpointAuthMethod 'tls_client_auth' needs `mtls` (a certificate-presenting `fetch` or `edgeHeaders`)",
    );
  }
  const { fetch, edgeHeaders } = (typeof mtls === 'object' && mtls !== null ? mtls : {}) as Record<string, unknown>;
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
