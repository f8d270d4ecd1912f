import type { Clock } from '../core/clock.js';
import type { AuthApiContext } from '../core/http/auth-api.js';
import type { TokenEndpointAuthMethod } from '../core/tokens/client-authentication/types.js';
import type { TokenEndpoint } from '../core/tokens/endpoint.js';
import type { IdTokenSettings } from './id-token.js';

/** What the namespaces of `AuthenticationClient` share: the sender, the client and its token endpoint. */
export interface AuthSettings extends AuthApiContext {
  readonly clock: Clock;
  /** The client's `timeoutMs`. */
  readonly timeoutMs: number;
  readonly clientId: string;
  /** `https://{domain}` (no trailing slash). */
  readonly origin: string;
  readonly method: TokenEndpointAuthMethod;
  /** The token endpoint with the client's authentication. */
  readonly tokenEndpoint: TokenEndpoint;
  /** How ID tokens are checked. */
  readonly idToken: IdTokenSettings;
}
