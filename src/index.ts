/**
 * `idplatform`: typed SDK for the identity platform's Management API and Authentication API.
 * Everything of the subpath entries, re-exported.
 * @module
 */

export * from './auth/index.js';
export * from './management/index.js';
