import type { Database } from './database.js';
import { deferred } from './deferred.js';
import type { AuthNamespaces } from './namespaces.js';
import type { OAuth } from './oauth.js';
import { type AuthClientSettings, type AuthenticationClientOptions, resolveAuthOptions } from './options.js';
import type { Passwordless } from './passwordless.js';
import {
  type AuthorizeUrlParams,
  buildAuthorizeUrl,
  buildLogoutUrl,
  buildSamlUrl,
  buildWsfedUrl,
  type LogoutUrlParams,
  type SamlUrlParams,
  type WsfedUrlParams,
} from './urls.js';
import type { UserInfoApi } from './user-info.js';

const inspectSymbol = Symbol.for('nodejs.util.inspect.custom');

/**
 * The Authentication API client, at `https://{domain}/`.
 * It offers the OAuth 2.0 / OIDC grants, passwordless login, database sign-up, userinfo, and the login and logout URL builders.
 * It works in Node and browsers.
 * The client authenticates with the method its options imply.
 * That is a secret (in the body or as Basic), a client assertion, the client id only, or mTLS.
 * `userInfo.get` sends the user's bearer token instead.
 *
 * ```ts
 * const auth = new AuthenticationClient({ domain: 'acme.example-tenant.com', clientId });
 * ```
 *
 * Throws `ConfigurationError` when the options are wrong or ambiguous.
 */
export class AuthenticationClient {
  /** OAuth 2.0 grants at `POST /oauth/token`, and refresh-token revocation. */
  readonly oauth: OAuth;
  /** Passwordless login by email or SMS. */
  readonly passwordless: Passwordless;
  /** Database connections: sign-up and password reset. */
  readonly database: Database;
  /** The OIDC userinfo endpoint. */
  readonly userInfo: UserInfoApi;
  readonly #settings: AuthClientSettings;
  #namespaces: Promise<AuthNamespaces> | undefined;

  constructor(options: AuthenticationClientOptions) {
    const settings = resolveAuthOptions(options);
    this.#settings = settings;
    // The HTTP side (ky, retries, the token endpoint) is loaded on the first API call,
    // so a login page that only builds the authorize URL does not load it.
    const load = () => {
      this.#namespaces ??= import('./namespaces.js').then(({ createAuthNamespaces }) => createAuthNamespaces(settings));
      return this.#namespaces;
    };
    this.oauth = deferred(
      async () => (await load()).oauth,
      ['clientCredentialsGrant', 'authorizationCodeGrant', 'refreshTokenGrant', 'passwordGrant', 'revokeRefreshToken'],
    );
    this.passwordless = deferred(async () => (await load()).passwordless, ['start', 'login']);
    this.database = deferred(async () => (await load()).database, ['signUp', 'changePassword']);
    this.userInfo = deferred(async () => (await load()).userInfo, ['get']);
  }

  /** Builds the `/authorize` URL for the code flow (default) or the implicit flow; pure, no I/O. See {@link AuthorizeUrlParams}. */
  authorizeUrl(params: AuthorizeUrlParams): string {
    return buildAuthorizeUrl(this.#settings.origin, this.#settings.clientId, this.#settings.method, params);
  }

  /** Builds the `/v2/logout` URL; pure, no I/O. */
  logoutUrl(params?: LogoutUrlParams): string {
    return buildLogoutUrl(this.#settings.origin, this.#settings.clientId, params);
  }

  /** Builds the `/samlp/{clientId}` URL (IdP-initiated SAML); pure, no I/O. */
  samlUrl(params?: SamlUrlParams): string {
    return buildSamlUrl(this.#settings.origin, this.#settings.clientId, params);
  }

  /** Builds the `/wsfed/{clientId}` URL (WS-Federation); pure, no I/O. */
  wsfedUrl(params?: WsfedUrlParams): string {
    return buildWsfedUrl(this.#settings.origin, this.#settings.clientId, params);
  }

  /** `util.inspect` shows the origin, client id and method only: never credentials. */
  [inspectSymbol](): string {
    const { origin, clientId, method } = this.#settings;
    return `AuthenticationClient { origin: '${origin}', clientId: '${clientId}', method: '${method}' }`;
  }

  /** `JSON.stringify` shows the origin, client id and method only: never credentials. */
  toJSON(): { origin: string; clientId: string; method: string } {
    const { origin, clientId, method } = this.#settings;
    return { origin, clientId, method };
  }
}
