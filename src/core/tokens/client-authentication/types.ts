/** A token-endpoint request being prepared: its form body and headers. */
export interface TokenEndpointRequest {
  readonly body: URLSearchParams;
  readonly headers: Record<string, string>;
}

/**
 * One way a client proves who it is to the token endpoint.
 * `apply` runs once per attempt, so a client assertion is fresh on every retry.
 */
export interface ClientAuthentication {
  /** The OAuth name of the method, e.g. `client_secret_post`. */
  readonly method: TokenEndpointAuthMethod;
  /**
   * Adds the client's credentials to the request (`issuer` is `https://{domain}/`)
   * and returns the secrets it added, so that error text can be scrubbed of them.
   */
  apply(request: TokenEndpointRequest, issuer: string): readonly string[] | Promise<readonly string[]>;
}

/**
 * How a client authenticates at the token endpoint: `client_secret_post` (the secret in the body), `client_secret_basic` (a Basic header),
 * `private_key_jwt` (a signed JWT), `none` (the client id only) or `tls_client_auth` (mTLS).
 */
export type TokenEndpointAuthMethod = 'client_secret_post' | 'client_secret_basic' | 'private_key_jwt' | 'none' | 'tls_client_auth';
