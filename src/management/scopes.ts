/**
 * The Management API's scope catalogue: each resource with the verbs it is granted with.
 * A scope is `<verb>:<resource>`, e.g. `read:organization_invitations`.
 */
const CRUD = ['create', 'read', 'update', 'delete'] as const;
const CRU = ['create', 'read', 'update'] as const;
const CRD = ['create', 'read', 'delete'] as const;
const RUD = ['read', 'update', 'delete'] as const;
const RU = ['read', 'update'] as const;
const RD = ['read', 'delete'] as const;
const CD = ['create', 'delete'] as const;
const R = ['read'] as const;
const C = ['create'] as const;
const U = ['update'] as const;

/** Every Management API resource with the verbs it takes, e.g. `users` with `create`, `read`, `update` and `delete`. */
export const SCOPE_CATALOGUE = {
  actions: CRUD,
  authentication_methods: CRUD,
  client_credentials: CRUD,
  client_grants: CRUD,
  clients: CRUD,
  connection_profiles: CRUD,
  connections: CRUD,
  custom_domains: CRUD,
  custom_signing_keys: CRUD,
  directory_provisionings: CRUD,
  email_provider: CRUD,
  encryption_keys: CRUD,
  event_streams: CRUD,
  experimentation: CRUD,
  flows: CRUD,
  flows_vault_connections: CRUD,
  forms: CRUD,
  hooks: CRUD,
  log_streams: CRUD,
  network_acls: CRUD,
  organization_connections: CRUD,
  organization_discovery_domains: CRUD,
  organizations: CRUD,
  phone_providers: CRUD,
  phone_templates: CRUD,
  rate_limit_policies: CRUD,
  resource_servers: CRUD,
  roles: CRUD,
  rules: CRUD,
  scim_config: CRUD,
  self_service_profiles: CRUD,
  token_exchange_profiles: CRUD,
  user_attribute_profiles: CRUD,
  users: CRUD,
  vdcs_templates: CRUD,

  connections_keys: CRU,
  email_templates: CRU,
  signing_keys: CRU,

  group_roles: CRD,
  organization_client_grants: CRD,
  organization_group_roles: CRD,
  organization_invitations: CRD,
  organization_member_roles: CRD,
  organization_members: CRD,
  role_members: CRD,
  scim_token: CRD,

  branding: RUD,
  refresh_tokens: RUD,
  rules_configs: RUD,
  sessions: RUD,

  attack_protection: RU,
  client_keys: RU,
  event_deliveries: RU,
  guardian_factors: RU,
  mfa_policies: RU,
  prompts: RU,
  self_service_profile_custom_texts: RU,
  tenant_settings: RU,

  anomaly_blocks: RD,
  current_user: RD,
  device_credentials: RD,
  federated_connections_tokens: RD,
  flows_executions: RD,
  grants: RD,
  groups: RD,
  guardian_enrollments: RD,

  current_user_device_credentials: CD,
  sso_access_tickets: CD,

  client_summary: R,
  events: R,
  group_members: R,
  logs: R,
  logs_users: R,
  organization_groups: R,
  organization_member_effective_roles: R,
  organization_member_role_source_groups: R,
  organizations_summary: R,
  stats: R,
  user_effective_permissions: R,
  user_effective_roles: R,
  user_idp_tokens: R,
  user_permission_source_roles: R,
  user_role_source_groups: R,

  guardian_enrollment_tickets: C,
  user_tickets: C,

  client_token_vault_privileged_access: U,
  current_user_identities: U,
  current_user_metadata: U,
  users_app_metadata: U,
} as const;

type Catalogue = typeof SCOPE_CATALOGUE;

/** A Management API scope of the catalogue, e.g. `'read:organization_invitations'`. */
export type Scope = { [Resource in keyof Catalogue]: `${Catalogue[Resource][number]}:${Resource}` }[keyof Catalogue];

/** Every scope of the catalogue, in catalogue order. */
export function allScopes(): Scope[] {
  return Object.entries(SCOPE_CATALOGUE).flatMap(([resource, verbs]) => verbs.map((verb) => `${verb}:${resource}` as Scope));
}
