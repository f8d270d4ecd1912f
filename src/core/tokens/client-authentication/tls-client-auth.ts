import type { ClientAuthentication } from './types.js';

/**
 * The headers the platform's edge network forwards after it has done the mTLS handshake itself.
 * Use these when your own proxy terminates TLS and forwards the client certificate to the platform's custom domain.
 */
export interface MtlsEdgeHeaders {
  /** The custom domain's API key, sent as `cname-api-key`. */
  readonly cnameApiKey: string;
  /** The client certificate as PEM; sent URL-encoded as `client-certificate`. */
  readonly clientCertificate: string;
  /** The CA verification status of the certificate (e.g. `SUCCESS`), sent as `client-certificate-ca-verified`. */
  readonly clientCertificateCaVerified: string;
}

/**
 * mTLS (`tls_client_auth`): sends the client id in the body.
 * The client certificate is either presented by the `fetch` given in `mtls.fetch` (nothing to add here), or forwarded in the edge headers.
 */
export function tlsClientAuth(clientId: string, edgeHeaders?: MtlsEdgeHeaders): ClientAuthentication {
  const headers = edgeHeaders && {
    'cname-api-key': edgeHeaders.cnameApiKey,
    'client-certificate': encodeURIComponent(edgeHeaders.clientCertificate),
    'client-certificate-ca-verified': edgeHeaders.clientCertificateCaVerified,
  };
  // The key that is sent is the one kept out of errors: both read once, here.
  const secrets = headers ? [headers['cname-api-key']] : [];
  return {
    method: 'tls_client_auth',
    apply: (request) => {
      request.body.set('client_id', clientId);
      if (headers) Object.assign(request.headers, headers);
      return secrets;
    },
  };
}
