import { ConfigurationError } from '../core/errors.js';
import type { TokenProvider } from '../core/tokens/provider.js';

/**
 * What `#client-credentials` is in browser builds: a `ManagementClient` there takes a `token` only. A client secret or signing key
 * must never reach a browser, so browser bundles carry none of the grant's code.
 */
export function clientCredentialsTokens(): TokenProvider {
  throw new ConfigurationError(
    'A client secret or signing key must never be shipped to a browser: pass a `token` your backend obtained instead (this is the browser build)',
  );
}
