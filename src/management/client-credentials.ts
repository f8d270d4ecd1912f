import { Sender } from '../core/http/sender.js';
import type { CommonSettings } from '../core/options.js';
import { ClientCredentialsTokenProvider } from '../core/tokens/client-credentials.js';
import type { ClientCredentials } from '../core/tokens/credentials.js';
import { createTokenEndpoint, requestToken } from '../core/tokens/endpoint.js';
import { memoryTokenCache } from '../core/tokens/memory-cache.js';
import type { TokenCache, TokenProvider } from '../core/tokens/provider.js';

/** What the client-credentials grant of a `ManagementClient` needs, checked by `resolveManagementOptions`. */
export interface ClientCredentialsGrant {
  readonly common: CommonSettings;
  readonly credentials: ClientCredentials;
  readonly audience: string;
  readonly maxSkewMs: number;
  readonly tokenCache?: TokenCache | undefined;
}

/**
 * The token provider of a `ManagementClient` that has client credentials: the
 * client-credentials grant at `{origin}/oauth/token`, its tokens cached (in
 * `tokenCache`, default in memory). Loaded as a chunk of its own on the first
 * request, so that an app with a `token` never loads the grant's code.
 */
export function createClientCredentialsTokenProvider(grant: ClientCredentialsGrant): TokenProvider {
  const { common, credentials, audience } = grant;
  // No `onResponse`: the hook is told of Management API responses only.
  const sender = new Sender({ ...common, prefixUrl: common.origin, onResponse: undefined });
  const tokenEndpoint = createTokenEndpoint({ sender }, common.origin, credentials, common.clock);
  return new ClientCredentialsTokenProvider({
    fetchToken: async () => {
      const response = await requestToken(tokenEndpoint, { grant_type: 'client_credentials', audience });
      return { accessToken: response.access_token, expiresIn: response.expires_in };
    },
    cache: grant.tokenCache ?? memoryTokenCache(common.clock),
    cacheKey: tokenCacheKey(common.origin, credentials.clientId, audience),
    maxSkewMs: grant.maxSkewMs,
    clock: common.clock,
    timeoutMs: common.timeoutMs,
  });
}

/**
 * The name of a client's token in the `tokenCache`:
 * `idplatform:{origin}:{clientId}:{audience}`, each part URI-encoded so that no two
 * configurations share a name (a client id or audience may hold `:`).
 */
export function tokenCacheKey(origin: string, clientId: string, audience: string): string {
  return `idplatform:${[origin, clientId, audience].map(encodeURIComponent).join(':')}`;
}
