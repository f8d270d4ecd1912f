/**
 * `idplatform/auth`: the Authentication API client, PKCE and their types.
 * Runs in Node and browsers; `private_key_jwt` loads jose only when used.
 *
 * It exports the types of its zod schemas, but no schema.
 * What this entry reaches statically is what a browser app loads before its login page can act.
 * A schema here would bring zod into that first bundle.
 * `TokenResponseSchema` and `UserInfoSchema` are exported by `idplatform`.
 * @module
 */

export * from '../core/public.js';
export type { ClientAssertionSigningAlg, ClientAssertionSigningKey } from '../core/tokens/client-authentication/signing-key.js';
export type { MtlsEdgeHeaders } from '../core/tokens/client-authentication/tls-client-auth.js';
export type { TokenEndpointAuthMethod } from '../core/tokens/client-authentication/types.js';
export type { MtlsOptions } from '../core/tokens/credentials.js';
export type { TokenResponse } from '../core/tokens/response.js';
export { AuthenticationClient } from './client.js';
export type { ChangePasswordParams, Database, SignUpParams, SignUpResponse } from './database.js';
export type { EndUserRequestOptions } from './forwarded-for.js';
export type { IdTokenClaims, IdTokenSigningAlg, IdTokenVerification, TokenResponseWithClaims } from './id-token.js';
export type {
  AuthorizationCodeGrantParams,
  ClientCredentialsGrantParams,
  OAuth,
  PasswordGrantParams,
  RefreshTokenGrantParams,
  RevokeRefreshTokenParams,
} from './oauth.js';
export type {
  AuthenticationClientOptions,
  ClientAssertionOptions,
  ClientSecretOptions,
  MutualTlsOptions,
  PublicClientOptions,
} from './options.js';
export type { Passwordless, PasswordlessLoginParams, PasswordlessStartParams, PasswordlessStartResponse } from './passwordless.js';
export { createPkcePair, type PkcePair } from './pkce.js';
export type { AuthorizeUrlParams, LogoutUrlParams, Prompt, ResponseType, SamlUrlParams, WsfedUrlParams } from './urls.js';
export type { UserInfoApi } from './user-info.js';
export type { UserInfo } from './user-info-schema.js';
