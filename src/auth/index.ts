/**
 * `idplatform/auth`: the Authentication API client, PKCE and their types.
 * Runs in Node and browsers; `private_key_jwt` loads jose only when used.
 * @module
 */

export type { ClientAssertionSigningAlg, ClientAssertionSigningKey } from '../core/client-authentication/signing-key.js';
export type { MtlsEdgeHeaders } from '../core/client-authentication/tls-client-auth.js';
export type { TokenEndpointAuthMethod } from '../core/client-authentication/types.js';
export type { MtlsOptions } from '../core/credentials.js';
export * from '../core/public.js';
export { type TokenResponse, TokenResponseSchema } from '../core/token-response.js';
export { AuthenticationClient } from './client.js';
export * from './database.js';
export * from './oauth.js';
export type {
  AuthenticationClientOptions,
  ClientAssertionOptions,
  ClientSecretOptions,
  MutualTlsOptions,
  PublicClientOptions,
} from './options.js';
export * from './passwordless.js';
export { createPkcePair, type PkcePair } from './pkce.js';
export {
  type AuthorizeUrlParams,
  AuthorizeUrlSchema,
  type LogoutUrlParams,
  LogoutUrlSchema,
  RESPONSE_TYPES,
} from './urls.js';
export { type UserInfo, UserInfoApi, UserInfoSchema } from './user-info.js';
