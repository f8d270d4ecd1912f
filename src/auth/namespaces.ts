import { Sender } from '../core/http/sender.js';
import { createTokenEndpoint } from '../core/tokens/endpoint.js';
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
 * Builds the HTTP side of an `AuthenticationClient` (the sender, the token endpoint
 * and every namespace). `AuthenticationClient` loads this module on its
 * first API call, so that a browser login page that only builds the authorize URL
 * loads none of it.
 */
export function createAuthNamespaces({ clientId, origin, method, credentials, common, idToken }: AuthClientSettings): AuthNamespaces {
  const fetch = credentials.method === 'tls_client_auth' ? (credentials.mtls.fetch ?? common.fetch) : common.fetch;
  const context = { sender: new Sender({ ...common, prefixUrl: origin, fetch }) };
  const settings: AuthSettings = {
    ...context,
    clock: common.clock,
    timeoutMs: common.timeoutMs,
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
