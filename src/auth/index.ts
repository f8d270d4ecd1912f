/**
 * `idplatform/auth`: the Authentication API client, PKCE and their types.
 * Runs in Node and browsers; `private_key_jwt` loads jose only when used.
 * @module
 */

export * from '../core/public.js';
export type { AuthRequestOptions } from './auth-request.js';
export { AuthenticationClient } from './client.js';
export type { ClientAssertionSigningAlg, ClientAssertionSigningKey } from './client-authentication/signing-key.js';
export type { MtlsEdgeHeaders } from './client-authentication/tls-client-auth.js';
export type { TokenEndpointAuthMethod } from './client-authentication/types.js';
export * from './database.js';
export type {
  IdTokenClaims,
  IdTokenSigningAlg,
  IdTokenVerification,
  TokenResponseWithClaims,
} from './id-token.js';
export * from './oauth.js';
export type { AuthenticationClientOptions, MtlsOptions } from './options.js';
export * from './passwordless.js';
export { createPkcePair, type PkcePair } from './pkce.js';
export { type TokenResponse, TokenResponseSchema } from './token-response.js';
export {
  type AuthorizeUrlParams,
  AuthorizeUrlSchema,
  type LogoutUrlParams,
  LogoutUrlSchema,
  RESPONSE_TYPES,
} from './urls.js';
export { type UserInfo, UserInfoApi, UserInfoSchema } from './user-info.js';
