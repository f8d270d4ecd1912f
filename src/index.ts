/**
 * `idplatform`: typed SDK for the identity platform's Management API and Authentication API.
 * Everything of the subpath entries, re-exported: `idplatform/management`,
 * `idplatform/auth`, `idplatform/testing` and `idplatform/redis`. The msw handlers
 * (`idplatform/testing/msw`) are not: they import `msw`, an optional peer dependency,
 * and this entry runs anywhere, with nothing optional installed.
 * @module
 */

export * from './auth/index.js';
export { UserInfoSchema } from './auth/user-info-schema.js';
export { TokenResponseSchema } from './core/tokens/response.js';
export * from './management/index.js';
export * from './redis/index.js';
export * from './testing/index.js';
