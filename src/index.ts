/**
 * `idplatform`: typed SDK for the identity platform's Management API and Authentication API.
 * Everything of the subpath entries, re-exported.
 * @module
 */

export * from './auth/index.js';
export { UserInfoSchema } from './auth/user-info-schema.js';
export { TokenResponseSchema } from './core/token-response.js';
export * from './management/index.js';
