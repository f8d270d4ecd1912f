/**
 * `idplatform/management`: the Management API client and its types.
 * @module
 */

export { encodePath } from '../core/path.js';
export * from '../core/public.js';
export type { ClientAssertionSigningAlg, ClientAssertionSigningKey } from '../core/tokens/client-authentication/signing-key.js';
export type { Query } from '../core/transport.js';
export type { Schema } from '../core/validation.js';
export {
  ActionModules,
  type ActionModuleUsage,
  type ActionModuleUsagePage,
  ActionModuleUsagePageSchema,
  ActionModuleUsageSchema,
  type ActionTrigger,
  type IterateModuleActionsParams,
  type ListModuleActionsParams,
} from './actions/modules.js';
export { ManagementClient } from './client.js';
export type { CustomGetRequest, CustomRequest, CustomRequestMethod, CustomRequestWithBody } from './custom-request.js';
export {
  GuardianPhone,
  type PhoneMessageType,
  type PhoneMessageTypes,
  PhoneMessageTypesSchema,
  type SetPhoneMessageTypesOptions,
  type SetPhoneMessageTypesParams,
} from './guardian/phone.js';
export type {
  BaseUrlAndClientAssertionOptions,
  BaseUrlAndClientSecretOptions,
  BaseUrlAndTokenOptions,
  BearerTokenOptions,
  ClientAssertionGrantOptions,
  ClientCredentialsGrantOptions,
  ClientSecretGrantOptions,
  DomainAndClientAssertionOptions,
  DomainAndClientSecretOptions,
  DomainAndTokenOptions,
  ManagementClientBaseOptions,
  ManagementClientOptions,
} from './options.js';
export {
  type IterateOrganizationInvitationsParams,
  type ListOrganizationInvitationsParams,
  type OrganizationInvitation,
  type OrganizationInvitationField,
  type OrganizationInvitationInvitee,
  type OrganizationInvitationInviter,
  type OrganizationInvitationPage,
  OrganizationInvitationPageSchema,
  OrganizationInvitationSchema,
  type OrganizationInvitationSort,
  OrganizationInvitations,
} from './organizations/invitations.js';
export { allScopes, SCOPE_CATALOGUE, type Scope } from './scopes.js';
