/** A token-endpoint request being prepared: its form body and headers. */
export interface TokenEndpointRequest {
  readonly body: URLSearchParams;
  readonly headers: Record<string, string>;
}

/**
 * One way a client proves who it is to the token endpoint (spec section 5.2).
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

/** The token endpoint authentication methods of spec section 5.2. */
export type TokenEndpointAuthMethod = 'client_secret_post' | 'client_secret_basic' | 'private_key_jwt' | 'none' | 'tls_client_auth';
