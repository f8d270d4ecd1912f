import { Database } from './database.js';
import { OAuth } from './oauth.js';
import { type AuthenticationClientOptions, type AuthSettings, resolveAuthOptions } from './options.js';
import { Passwordless } from './passwordless.js';
import { type AuthorizeUrlParams, buildAuthorizeUrl, buildLogoutUrl, buildSamlUrl, buildWsfedUrl, type LogoutUrlParams } from './urls.js';
import { UserInfoApi } from './user-info.js';

const inspectSymbol = Symbol.for('nodejs.util.inspect.custom');

/**
 * The Authentication API client (`https://{domain}/`): OAuth 2.0 / OIDC grants,
 * passwordless, database sign-up, userinfo and the login/logout URL builders.
 * Works in Node and browsers. The client authenticates with the method of spec
 * 5.2 its options imply (secret Post/Basic, client assertion, client id only, mTLS);
 * `userInfo.get` uses the user's bearer token.
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
  readonly #settings: AuthSettings;

  constructor(options: AuthenticationClientOptions) {
    this.#settings = resolveAuthOptions(options);
    this.oauth = new OAuth(this.#settings);
    this.passwordless = new Passwordless(this.#settings);
    this.database = new Database(this.#settings);
    this.userInfo = new UserInfoApi(this.#settings);
  }

  /** `/authorize` URL for the code flow (default) or the implicit flow; pure, no I/O. See {@link AuthorizeUrlParams}. */
  authorizeUrl(params: AuthorizeUrlParams): string {
    return buildAuthorizeUrl(this.#settings.origin, this.#settings.clientId, this.#settings.method, params);
  }

  /** `/v2/logout` URL; pure, no I/O. */
  logoutUrl(params?: LogoutUrlParams): string {
    return buildLogoutUrl(this.#settings.origin, this.#settings.clientId, params);
  }

  /** `/samlp/{clientId}` URL (IdP-initiated SAML); pure, no I/O. */
  samlUrl(params?: { connection?: string | undefined }): string {
    return buildSamlUrl(this.#settings.origin, this.#settings.clientId, params);
  }

  /** `/wsfed/{clientId}` URL (WS-Federation); pure, no I/O. */
  wsfedUrl(params?: { wctx?: string | undefined; wreply?: string | undefined }): string {
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
