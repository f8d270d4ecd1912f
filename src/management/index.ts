/**
 * `idplatform/management`: the Management API client and its types.
 * @module
 */

export * from '../core/public.js';
export * from './actions/modules.js';
export { ManagementClient } from './client.js';
export * from './guardian/phone.js';
export type {
  BearerTokenOptions,
  ClientAssertionGrantOptions,
  ClientCredentialsGrantOptions,
  ClientSecretGrantOptions,
  ManagementClientOptions,
} from './options.js';
export * from './organizations/invitations.js';
export { allScopes, SCOPE_CATALOGUE, type Scope } from './scopes.js';
