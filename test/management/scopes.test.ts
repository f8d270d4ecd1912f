import { describe, expect, it } from 'vitest';
import {
  allScopes,
  InsufficientScopeError,
  ManagementClient,
  RequestValidationError,
  SCOPE_CATALOGUE,
  ServerError,
} from '../../src/management/index.js';
import { createFakeClock } from '../helpers/clock.js';
import { jwtWithClaims } from '../helpers/jwt.js';

/**
 * The scope catalogue of spec section 5.1, copied from the spec text: each line
 * is a verb set and the resources that take exactly those verbs.
 */
const SPEC_CATALOGUE: readonly { readonly verbs: readonly string[]; readonly resources: string }[] = [
  {
    verbs: ['create', 'read', 'update', 'delete'],
    resources:
      'actions, authentication_methods, client_credentials, client_grants, clients, connection_profiles, connections, custom_domains, custom_signing_keys, directory_provisionings, email_provider, encryption_keys, event_streams, experimentation, flows, flows_vault_connections, forms, hooks, log_streams, network_acls, organization_connections, organization_discovery_domains, organizations, phone_providers, phone_templates, rate_limit_policies, resource_servers, roles, rules, scim_config, self_service_profiles, token_exchange_profiles, user_attribute_profiles, users, vdcs_templates',
  },
  { verbs: ['create', 'read', 'update'], resources: 'connections_keys, email_templates, signing_keys' },
  {
    verbs: ['create', 'read', 'delete'],
    resources:
      'group_roles, organization_client_grants, organization_group_roles, organization_invitations, organization_member_roles, organization_members, role_members, scim_token',
  },
  { verbs: ['read', 'update', 'delete'], resources: 'branding, refresh_tokens, rules_configs, sessions' },
  {
    verbs: ['read', 'update'],
    resources:
      'attack_protection, client_keys, event_deliveries, guardian_factors, mfa_policies, prompts, self_service_profile_custom_texts, tenant_settings',
  },
  {
    verbs: ['read', 'delete'],
    resources:
      'anomaly_blocks, current_user, device_credentials, federated_connections_tokens, flows_executions, grants, groups, guardian_enrollments',
  },
  { verbs: ['create', 'delete'], resources: 'current_user_device_credentials, sso_access_tickets' },
  {
    verbs: ['read'],
    resources:
      'client_summary, events, group_members, logs, logs_users, organization_groups, organization_member_effective_roles, organization_member_role_source_groups, organizations_summary, stats, user_effective_permissions, user_effective_roles, user_idp_tokens, user_permission_source_roles, user_role_source_groups',
  },
  { verbs: ['create'], resources: 'guardian_enrollment_tickets, user_tickets' },
  {
    verbs: ['update'],
    resources: 'client_token_vault_privileged_access, current_user_identities, current_user_metadata, users_app_metadata',
  },
];

const specEntries = SPEC_CATALOGUE.flatMap(({ verbs, resources }) =>
  resources.split(',').map((resource) => [resource.trim(), verbs] as const),
);
const specScopes = specEntries.flatMap(([resource, verbs]) => verbs.map((verb) => `${verb}:${resource}`));

describe('SCOPE_CATALOGUE (spec 5.1)', () => {
  it('copies the spec table without repeats (the expected data itself is sound)', () => {
    expect(specEntries).toHaveLength(89);
    expect(new Set(specEntries.map(([resource]) => resource)).size).toBe(specEntries.length);
  });

  it('holds every resource of the spec exactly once, and nothing else', () => {
    const resources = Object.keys(SCOPE_CATALOGUE);
    expect(new Set(resources).size).toBe(resources.length);
    expect([...resources].sort()).toEqual(specEntries.map(([resource]) => resource).sort());
  });

  it.each(specEntries)('grants %s with exactly the verbs %j', (resource, verbs) => {
    expect(SCOPE_CATALOGUE).toHaveProperty(resource);
    expect(SCOPE_CATALOGUE[resource as keyof typeof SCOPE_CATALOGUE]).toEqual(verbs);
  });
});

describe('allScopes()', () => {
  it('lists every scope of the spec exactly once, and nothing else', () => {
    const scopes = allScopes();
    expect(new Set(scopes).size).toBe(scopes.length);
    expect(scopes).toHaveLength(specScopes.length);
    expect([...scopes].sort()).toEqual([...specScopes].sort());
  });

  it('writes each scope as <verb>:<resource> with one of the four verbs', () => {
    for (const scope of allScopes()) expect(scope).toMatch(/^(create|read|update|delete):[a-z_]+$/);
  });

  it('returns a new array on every call', () => {
    const scopes = allScopes();
    scopes.pop();
    expect(allScopes()).toHaveLength(specScopes.length);
  });
});

describe('the scope each operation declares', () => {
  /** A client whose token grants nothing, and whose fetch counts what would leave. */
  function clientWithoutScopes() {
    const sent: Request[] = [];
    const management = new ManagementClient({
      domain: 'tenant.test',
      token: jwtWithClaims({ sub: 'client@clients', scope: '' }),
      clock: createFakeClock(),
      fetch: async (request) => {
        sent.push(request);
        return new Response('{}', { status: 500 });
      },
    });
    return { management, sent };
  }

  async function requiredScope(call: () => Promise<unknown>): Promise<string> {
    try {
      await call();
    } catch (error) {
      if (error instanceof InsufficientScopeError) return error.required;
      throw error;
    }
    throw new Error('expected InsufficientScopeError, but the call succeeded');
  }

  const documented: [string, (management: ManagementClient) => Promise<unknown>][] = [
    ['organizations.invitations.list', (m) => m.organizations.invitations.list('org_1')],
    ['organizations.invitations.iterate', (m) => m.organizations.invitations.iterate('org_1').next()],
  ];

  it.each(documented)(
    '%s requires read:organization_invitations, the scope spec 5.1 documents, and sends nothing without it',
    async (_, call) => {
      const { management, sent } = clientWithoutScopes();
      const required = await requiredScope(() => call(management));
      expect(required).toBe('read:organization_invitations');
      expect(allScopes()).toContain(required);
      expect(sent).toEqual([]);
    },
  );

  const undocumented: [string, (management: ManagementClient) => Promise<unknown>][] = [
    ['actions.modules.listActions', (m) => m.actions.modules.listActions('mod_1')],
    ['actions.modules.iterateActions', (m) => m.actions.modules.iterateActions('mod_1').next()],
    ['guardian.phone.getMessageTypes', (m) => m.guardian.phone.getMessageTypes()],
    ['guardian.phone.setMessageTypes', (m) => m.guardian.phone.setMessageTypes({ message_types: ['sms'] })],
  ];

  it.each(undocumented)('%s has no scope in the spec, so it is sent whatever the token holds', async (_, call) => {
    const { management, sent } = clientWithoutScopes();
    await expect(call(management)).rejects.toBeInstanceOf(ServerError);
    expect(sent).toHaveLength(1);
  });

  it('checks parameters before the scope: a broken parameter is a RequestValidationError', async () => {
    const { management, sent } = clientWithoutScopes();
    await expect(management.organizations.invitations.list('')).rejects.toBeInstanceOf(RequestValidationError);
    expect(sent).toEqual([]);
  });
});
