import { ConfigurationError } from '../core/errors.js';
import type { CommonSettings } from '../core/options.js';
import { type CredentialChecks, clientSecretCredentials, resolveCredentials, signingKeyCredentials } from '../core/tokens/credentials.js';
import { lazyTokenProvider, type TokenCache, type TokenProvider } from '../core/tokens/provider.js';
import type { ClientCredentialsGrant } from './client-credentials.js';
import type { ClientAssertionGrantOptions, ClientSecretGrantOptions } from './options.js';

/**
 * The tokens of a `ManagementClient` with client credentials (`#client-credentials`, for servers and workers): its options checked at
 * once (`ConfigurationError`), the grant's code loaded with the first request.
 */
export function clientCredentialsTokens(
  options: ClientSecretGrantOptions | ClientAssertionGrantOptions,
  common: CommonSettings,
  tokenCache: TokenCache | undefined,
): TokenProvider {
  if (typeof options.clientId !== 'string' || options.clientId === '') {
    throw new ConfigurationError('`clientId` is required with `clientSecret` or `clientAssertionSigningKey`');
  }
  const checks: CredentialChecks =
    options.clientSecret !== undefined
      ? { client_secret_post: clientSecretCredentials, client_secret_basic: clientSecretCredentials }
      : { private_key_jwt: signingKeyCredentials };
  const credentials = resolveCredentials(options, checks);
  if (options.audience !== undefined && (typeof options.audience !== 'string' || options.audience.trim() === '')) {
    throw new ConfigurationError(
      '`audience` must be a non-empty string (the API identifier of the token, default `https://{domain}/api/v2/`)',
    );
  }
  const audience = options.audience ?? `${common.baseUrl}/`;
  const maxSkewMs = options.tokenRefreshSkewMs ?? 60_000;
  if (!(maxSkewMs >= 0)) throw new ConfigurationError('`tokenRefreshSkewMs` must be a number >= 0');
  const grant: ClientCredentialsGrant = { common, credentials, audience, maxSkewMs, tokenCache };
  return lazyTokenProvider(() => import('./client-credentials.js').then((module) => module.createClientCredentialsTokenProvider(grant)));
}
