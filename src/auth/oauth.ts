import * as z from 'zod/mini';
import { ConfigurationError } from '../core/errors.js';
import type { RequestOptions } from '../core/options.js';
import { postAsClient, requestToken } from '../core/tokens/endpoint.js';
import type { TokenResponse } from '../core/tokens/response.js';
import { validateParams } from '../core/validation.js';
import { type EndUserRequestOptions, withForwardedFor } from './forwarded-for.js';
import { type IdTokenExpectations, prepareIdTokenChecks, type TokenResponseWithClaims, withIdTokenClaims } from './id-token-claims.js';
import type { AuthSettings } from './settings.js';
import { REDIRECT_URI_RULE } from './url-params.js';

const required = (name: string) => z.string(`${name} is required`).check(z.minLength(1, `${name} is required`));
const optionalText = z.optional(z.string());

/** RFC 7636 §4.1: 43–128 characters of `[A-Z] / [a-z] / [0-9] / "-" / "." / "_" / "~"`. */
export const CodeVerifierSchema = z
  .string()
  .check(z.regex(/^[A-Za-z0-9\-._~]{43,128}$/, 'code_verifier must be 43–128 characters of A–Z a–z 0–9 - . _ ~ (RFC 7636)'));

/** Parameters of the client-credentials grant. */
export const ClientCredentialsGrantSchema = z.strictObject({
  /** The API the token is for, e.g. `https://acme.example.com/api/v2/`. */
  audience: required('audience'),
  scope: optionalText,
  /** An organization id or name, for organization-scoped tokens. */
  organization: optionalText,
});

/** Parameters of the authorization-code grant. */
export const AuthorizationCodeGrantSchema = z.strictObject({
  code: required('code'),
  /** The `redirect_uri` sent to `/authorize`, exactly: checked by `authorizeUrl`'s rule and sent unaltered. */
  redirect_uri: z.string(REDIRECT_URI_RULE.message).check(z.refine(REDIRECT_URI_RULE.accepts, REDIRECT_URI_RULE.message)),
  /** The PKCE verifier whose challenge went to `/authorize`; required for public clients. */
  code_verifier: z.optional(CodeVerifierSchema),
  /** The `nonce` sent to `/authorize`: the ID token's must equal it. Checked only, never sent. */
  nonce: optionalText,
  /** The `organization` sent to `/authorize`: the ID token's `org_id` (or `org_name`) must match. Checked only, never sent. */
  organization: optionalText,
  /** The `max_age` (seconds) sent to `/authorize`: the ID token's `auth_time` must be that recent. Checked only, never sent. */
  max_age: z.optional(z.number().check(z.nonnegative('max_age must be a number of seconds ≥ 0'))),
});

/** Parameters of the refresh-token grant. */
export const RefreshTokenGrantSchema = z.strictObject({
  refresh_token: required('refresh_token'),
  /** A narrower scope than the original grant's. */
  scope: optionalText,
  /** The organization of the original login: the new ID token's `org_id` (or `org_name`) must match. Checked only, never sent. */
  organization: optionalText,
});

/** Parameters of the resource-owner password grant; `realm` picks the connection. */
export const PasswordGrantSchema = z.strictObject({
  username: required('username'),
  password: required('password'),
  /** The connection (e.g. a database connection's name); sends the password-realm grant. */
  realm: optionalText,
  audience: optionalText,
  scope: optionalText,
});

/** Parameters of `revokeRefreshToken`. */
export const RevokeRefreshTokenSchema = z.strictObject({ token: required('token') });

/** Parameters of the client-credentials grant. */
export type ClientCredentialsGrantParams = z.input<typeof ClientCredentialsGrantSchema>;
/** Parameters of the authorization-code grant. */
export type AuthorizationCodeGrantParams = z.input<typeof AuthorizationCodeGrantSchema>;
/** Parameters of the refresh-token grant. */
export type RefreshTokenGrantParams = z.input<typeof RefreshTokenGrantSchema>;
/** Parameters of the password grant. */
export type PasswordGrantParams = z.input<typeof PasswordGrantSchema>;
/** Parameters of `revokeRefreshToken`. */
export type RevokeRefreshTokenParams = z.input<typeof RevokeRefreshTokenSchema>;

/** The platform's grant type for the password grant with a `realm` (connection). */
export const PASSWORD_REALM_GRANT = 'http://auth0.com/oauth/grant-type/password-realm';

const RevokeResponseSchema = z.unknown();

/** `auth.oauth`: the OAuth 2.0 grants at `POST /oauth/token` and refresh-token revocation. */
export interface OAuth {
  /** Client-credentials grant (`POST /oauth/token`): a token for `audience`. A public client (client id only) gets `ConfigurationError`. */
  clientCredentialsGrant(params: ClientCredentialsGrantParams, options?: RequestOptions): Promise<TokenResponse>;
  /**
   * Authorization-code grant (`POST /oauth/token`): exchanges the `code` of the redirect for tokens.
   * A public client (client id only) must send the PKCE `code_verifier`, else `ConfigurationError`.
   */
  authorizationCodeGrant(params: AuthorizationCodeGrantParams, options?: RequestOptions): Promise<TokenResponseWithClaims>;
  /** Refresh-token grant (`POST /oauth/token`): new tokens for a refresh token. */
  refreshTokenGrant(params: RefreshTokenGrantParams, options?: RequestOptions): Promise<TokenResponseWithClaims>;
  /**
   * Resource-owner password grant (`POST /oauth/token`); with `realm`, the platform's
   * password-realm grant. `options.forwardedFor` sends the end user's IP address as
   * `auth0-forwarded-for` (brute-force protection per user).
   */
  passwordGrant(params: PasswordGrantParams, options?: EndUserRequestOptions): Promise<TokenResponseWithClaims>;
  /** Revokes a refresh token (`POST /oauth/revoke`), authenticating the client as the token endpoint does. */
  revokeRefreshToken(params: RevokeRefreshTokenParams, options?: RequestOptions): Promise<void>;
}

/** The {@link OAuth} namespace an `AuthenticationClient` builds on its first API call. */
export class OAuthGrants implements OAuth {
  readonly #settings: AuthSettings;

  /** @internal Built by `AuthenticationClient`. */
  constructor(settings: AuthSettings) {
    this.#settings = settings;
  }

  async clientCredentialsGrant(params: ClientCredentialsGrantParams, options?: RequestOptions): Promise<TokenResponse> {
    const grant = validateParams(ClientCredentialsGrantSchema, params);
    this.#requireConfidential('clientCredentialsGrant');
    return this.#token({ grant_type: 'client_credentials', ...grant }, options);
  }

  async authorizationCodeGrant(params: AuthorizationCodeGrantParams, options?: RequestOptions): Promise<TokenResponseWithClaims> {
    const { nonce, organization, max_age: maxAge, ...grant } = validateParams(AuthorizationCodeGrantSchema, params);
    if (this.#settings.method === 'none' && grant.code_verifier === undefined) {
      throw new ConfigurationError('A public client (client id only) must use PKCE: pass the `code_verifier` from createPkcePair()');
    }
    return this.#tokenWithClaims({ grant_type: 'authorization_code', ...grant }, options, { nonce, organization, maxAge });
  }

  async refreshTokenGrant(params: RefreshTokenGrantParams, options?: RequestOptions): Promise<TokenResponseWithClaims> {
    const { organization, ...grant } = validateParams(RefreshTokenGrantSchema, params);
    // The keys first: a refresh token that rotation replaces is not spent on tokens that could not be checked.
    // A scope without `openid` asks for no ID token: no keys needed.
    if (grant.scope?.split(' ').includes('openid') !== false) await prepareIdTokenChecks(this.#settings, options);
    return this.#tokenWithClaims({ grant_type: 'refresh_token', ...grant }, options, { organization });
  }

  async passwordGrant(params: PasswordGrantParams, options?: EndUserRequestOptions): Promise<TokenResponseWithClaims> {
    const grant = validateParams(PasswordGrantSchema, params);
    const callOptions = withForwardedFor(options);
    return this.#tokenWithClaims({ grant_type: grant.realm === undefined ? 'password' : PASSWORD_REALM_GRANT, ...grant }, callOptions);
  }

  async revokeRefreshToken(params: RevokeRefreshTokenParams, options?: RequestOptions): Promise<void> {
    const { token } = validateParams(RevokeRefreshTokenSchema, params);
    const endpoint = this.#settings.tokenEndpoint;
    const form = { token, token_type_hint: 'refresh_token' };
    await postAsClient(endpoint, { path: 'oauth/revoke', params: form, encoding: 'form', schema: RevokeResponseSchema }, options);
  }

  async #token(grant: Record<string, string | undefined>, options?: RequestOptions): Promise<TokenResponse> {
    return requestToken(this.#settings.tokenEndpoint, grant, options);
  }

  /** A grant that may return an ID token: validated (OIDC Core 3.1.3.7) before the call resolves. */
  async #tokenWithClaims(
    grant: Record<string, string | undefined>,
    options?: RequestOptions,
    expected?: IdTokenExpectations,
  ): Promise<TokenResponseWithClaims> {
    return withIdTokenClaims(this.#settings, await this.#token(grant, options), expected, options);
  }

  #requireConfidential(call: string): void {
    if (this.#settings.method === 'none') {
      throw new ConfigurationError(`${call} needs a confidential client: configure a clientSecret, signing key or mTLS`);
    }
  }
}
