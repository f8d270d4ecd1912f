import type { AuthApiContext } from '../core/auth-request.js';
import type { TokenEndpointAuthMethod } from '../core/client-authentication/types.js';
import type { TokenEndpoint } from '../core/token-endpoint.js';
import type { IdTokenSettings } from './id-token.js';

/** What the namespaces of `AuthenticationClient` share: the HTTP context, the client and its token endpoint. */
export interface AuthSettings extends AuthApiContext {
  readonly clientId: string;
  /** `https://{domain}` (no trailing slash). */
  readonly origin: string;
  readonly method: TokenEndpointAuthMethod;
  /** The token endpoint with the client's authentication. */
  readonly tokenEndpoint: TokenEndpoint;
  /** How ID tokens are checked. */
  readonly idToken: IdTokenSettings;
}
