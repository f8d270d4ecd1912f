import type { AuthApiContext } from '../core/auth-request.js';
import { createHttpClient } from '../core/http.js';
import { createTokenEndpoint } from '../core/token-endpoint.js';
import { type Database, DatabaseConnections } from './database.js';
import { type OAuth, OAuthGrants } from './oauth.js';
import type { AuthClientSettings } from './options.js';
import { type Passwordless, PasswordlessLogin } from './passwordless.js';
import type { AuthSettings } from './settings.js';
import { type UserInfoApi, UserInfoEndpoint } from './user-info.js';

/** The namespaces of an `AuthenticationClient` that talk to the API. */
export interface AuthNamespaces {
  readonly oauth: OAuth;
  readonly passwordless: Passwordless;
  readonly database: Database;
  readonly userInfo: UserInfoApi;
}

/**
 * Builds the HTTP side of an `AuthenticationClient` (ky, the retry loop, the token
 * endpoint and every namespace). `AuthenticationClient` loads this module on its
 * first API call, so that a browser login page that only builds the authorize URL
 * loads none of it.
 */
export function createAuthNamespaces({ clientId, origin, method, credentials, common, idToken }: AuthClientSettings): AuthNamespaces {
  const fetch = credentials.method === 'tls_client_auth' ? (credentials.mtls.fetch ?? common.fetch) : common.fetch;
  const context: AuthApiContext = {
    http: createHttpClient({ prefixUrl: origin, fetch, headers: common.headers }),
    retry: common.retry,
    clock: common.clock,
    timeoutMs: common.timeoutMs,
    onResponse: common.onResponse,
  };
  const settings: AuthSettings = {
    ...context,
    clientId,
    origin,
    method,
    tokenEndpoint: createTokenEndpoint(context, origin, credentials, common.clock),
    idToken,
  };
  return {
    oauth: new OAuthGrants(settings),
    passwordless: new PasswordlessLogin(settings),
    database: new DatabaseConnections(settings),
    userInfo: new UserInfoEndpoint(settings),
  };
}
