import { describe, expect, it } from 'vitest';
import { ActionModuleUsageSchema } from '../../src/management/actions/modules.js';
import { OrganizationInvitationSchema } from '../../src/management/organizations/invitations.js';
import { createTenantEmulator, SEED_COUNTS, SEED_IDS } from '../../src/testing/index.js';
import { emulatorWithClock, managementRequest, read } from '../helpers/emulator.js';

describe('the default seed', () => {
  it('holds the documented organizations, modules and phone types', () => {
    const { data } = createTenantEmulator();
    expect(data.organizations.ids()).toEqual([
      SEED_IDS.bigOrganization,
      SEED_IDS.mediumOrganization,
      SEED_IDS.smallOrganization,
      SEED_IDS.emptyOrganization,
    ]);
    expect(data.invitations.list(SEED_IDS.bigOrganization)).toHaveLength(SEED_COUNTS.bigOrganizationInvitations);
    expect(data.invitations.list(SEED_IDS.mediumOrganization)).toHaveLength(SEED_COUNTS.mediumOrganizationInvitations);
    expect(data.invitations.list(SEED_IDS.smallOrganization)).toHaveLength(SEED_COUNTS.smallOrganizationInvitations);
    expect(data.invitations.list(SEED_IDS.emptyOrganization)).toEqual([]);
    expect(data.modules.ids()).toEqual([SEED_IDS.sharedModule, SEED_IDS.smallModule, SEED_IDS.unusedModule]);
    expect(data.actions.list(SEED_IDS.sharedModule)).toHaveLength(SEED_COUNTS.sharedModuleActions);
    expect(data.actions.list(SEED_IDS.smallModule)).toHaveLength(SEED_COUNTS.smallModuleActions);
    expect(data.phoneMessageTypes).toEqual(['sms']);
  });

  it('is the same on every run, whatever is read first', () => {
    const first = createTenantEmulator().data;
    const second = createTenantEmulator().data;
    const actions = second.actions.list(SEED_IDS.sharedModule);
    const small = second.invitations.list(SEED_IDS.smallOrganization);
    expect(second.invitations.list(SEED_IDS.bigOrganization)).toEqual(first.invitations.list(SEED_IDS.bigOrganization));
    expect(small).toEqual(first.invitations.list(SEED_IDS.smallOrganization));
    expect(actions).toEqual(first.actions.list(SEED_IDS.sharedModule));
    expect(first.invitations.list(SEED_IDS.smallOrganization)[0]).toMatchObject({
      id: expect.stringMatching(/^uinv_[A-Za-z0-9]{16}$/),
      organization_id: SEED_IDS.smallOrganization,
      created_at: expect.stringMatching(/^2024-01-08T/),
    });
  });

  it('makes records that the SDK schemas accept, with distinct created_at, roles and metadata on some', () => {
    const { data } = createTenantEmulator();
    const invitations = data.invitations.list(SEED_IDS.bigOrganization);
    for (const invitation of invitations) expect(OrganizationInvitationSchema.safeParse(invitation).success).toBe(true);
    expect(new Set(invitations.map((invitation) => invitation.created_at)).size).toBe(invitations.length);
    expect(new Set(invitations.map((invitation) => invitation.id)).size).toBe(invitations.length);
    expect(invitations.filter((invitation) => invitation.roles).length).toBeGreaterThan(500);
    expect(invitations.filter((invitation) => invitation.app_metadata).length).toBeGreaterThan(300);
    expect(invitations.filter((invitation) => invitation.user_metadata).length).toBeGreaterThan(300);
    const actions = data.actions.list(SEED_IDS.sharedModule);
    for (const action of actions) expect(ActionModuleUsageSchema.safeParse(action).success).toBe(true);
    expect(new Set(actions.map((action) => action.action_name)).size).toBe(actions.length);
  });

  it("starts empty with seed: 'empty'", () => {
    const { data } = createTenantEmulator({ seed: 'empty' });
    expect(data.organizations.ids()).toEqual([]);
    expect(data.modules.ids()).toEqual([]);
    expect(data.phoneMessageTypes).toEqual([]);
  });
});

describe('emulator.data', () => {
  it('adds organizations and invitations, filling in the missing fields', async () => {
    const { emulator, clock } = emulatorWithClock({ seed: 'empty' });
    emulator.data.organizations.add('org_new', { name: 'newco', invitations: [{ invitee: { email: 'a@example.com' } }] });
    clock.advance(1_000);
    const [added] = emulator.data.invitations.add('org_new', { invitee: { email: 'b@example.com' }, roles: ['rol_1'] });
    expect(added).toEqual({
      id: expect.stringMatching(/^uinv_/),
      organization_id: 'org_new',
      inviter: { name: 'Emulator Admin' },
      invitee: { email: 'b@example.com' },
      invitation_url: expect.stringMatching(
        /^https:\/\/app\.example\.com\/login\?invitation=\w+&organization=org_new&organization_name=newco$/,
      ),
      created_at: new Date(clock.now()).toISOString(),
      expires_at: new Date(clock.now() + 7 * 24 * 3600 * 1000).toISOString(),
      roles: ['rol_1'],
      ticket_id: expect.any(String),
    });
    const { body } = await read(await managementRequest(emulator, '/organizations/org_new/invitations?fields=invitee'));
    expect(body).toEqual([{ invitee: { email: 'b@example.com' } }, { invitee: { email: 'a@example.com' } }]);
  });

  it('removes invitations and organizations', async () => {
    const { emulator } = emulatorWithClock();
    const [first] = emulator.data.invitations.list(SEED_IDS.smallOrganization);
    expect(emulator.data.invitations.remove(SEED_IDS.smallOrganization, first?.id ?? '')).toBe(true);
    expect(emulator.data.invitations.remove(SEED_IDS.smallOrganization, 'nope')).toBe(false);
    expect(emulator.data.invitations.list(SEED_IDS.smallOrganization)).toHaveLength(SEED_COUNTS.smallOrganizationInvitations - 1);
    emulator.data.invitations.clear(SEED_IDS.smallOrganization);
    expect(emulator.data.invitations.list(SEED_IDS.smallOrganization)).toEqual([]);
    expect(emulator.data.organizations.remove(SEED_IDS.smallOrganization)).toBe(true);
    expect((await managementRequest(emulator, `/organizations/${SEED_IDS.smallOrganization}/invitations`)).status).toBe(404);
  });

  it('refuses records the platform could not hold', () => {
    const { data } = createTenantEmulator({ seed: 'empty' });
    expect(() => data.organizations.add('o'.repeat(51))).toThrow(/at most 50/);
    expect(() => data.organizations.add('')).toThrow(TypeError);
    data.organizations.add('org_a');
    expect(() => data.organizations.add('org_a')).toThrow(/already exists/);
    expect(() => data.invitations.add('org_a', { invitee: { email: 'not-an-email' } })).toThrow(/invitee\.email/);
    expect(() => data.invitations.add('org_a', { inviter: { name: '' } })).toThrow(/inviter\.name/);
    expect(() => data.invitations.add('org_a', { roles: [] })).toThrow(/roles/);
    expect(() => data.invitations.add('org_a', { organization_id: 'org_b' })).toThrow(/organization_id/);
    expect(() => data.invitations.add('org_a', { surprise: 1 } as never)).toThrow(/unknown "surprise"/);
    // Nested members too: a member the emulator would drop unsaid is refused, as at the top level.
    expect(() => data.invitations.add('org_a', { inviter: { name: 'Ada', avatar: 'a.png' } } as never)).toThrow(/avatar/);
    expect(() => data.invitations.add('org_a', { invitee: { email: 'grace@example.com', locale: 'en' } } as never)).toThrow(/locale/);
    expect(() => data.invitations.add('org_missing', {})).toThrow(/no organization "org_missing"/);
    expect(() => data.invitations.list('org_missing')).toThrow(TypeError);
    expect(() => data.invitations.add('org_a', { created_at: 'yesterday' })).toThrow(/created_at/);
    const [first] = data.invitations.add('org_a', {});
    expect(() => data.invitations.add('org_a', { id: first?.id })).toThrow(/already used/);
    expect(() => data.invitations.add('org_a', { id: 'uinv_x' }, { id: 'uinv_x' })).toThrow(/already used/);
    expect(() => data.organizations.add('org_b', { invitations: [{ id: 'uinv_y' }, { id: 'uinv_y' }] })).toThrow(/already used/);
  });

  it('fills in a member given as undefined, as one left out', () => {
    const { data } = createTenantEmulator({ seed: 'empty' });
    data.organizations.add('org_a');
    const [added] = data.invitations.add('org_a', { id: undefined, created_at: undefined });
    expect(added?.id).toMatch(/^uinv_/);
    expect(added?.created_at).toEqual(expect.any(String));
  });

  it('hands out copies: a record changed by a test does not change what the API serves', async () => {
    const emulator = createTenantEmulator({ seed: 'empty' });
    emulator.data.organizations.add('org_a', { invitations: [{ inviter: { name: 'Ada' } }] });
    const [listed] = emulator.data.invitations.list('org_a');
    if (listed?.inviter) (listed.inviter as { name: string }).name = '';
    const { body } = await read(await managementRequest(emulator, '/organizations/org_a/invitations'));
    expect(body).toMatchObject([{ inviter: { name: 'Ada' } }]);
  });

  it('adds and removes modules and the actions that use them', async () => {
    const { emulator } = emulatorWithClock({ seed: 'empty' });
    emulator.data.modules.add('mod_x', { actions: [{ action_id: 'a1', action_name: 'One' }] });
    emulator.data.actions.add('mod_x', { action_id: 'a2', action_name: 'Two', module_version_number: 2 });
    const { body } = await read(await managementRequest(emulator, '/actions/modules/mod_x/actions'));
    expect(body).toEqual({
      actions: [
        { action_id: 'a1', action_name: 'One' },
        { action_id: 'a2', action_name: 'Two', module_version_number: 2 },
      ],
      total: 2,
      page: 0,
      per_page: 50,
    });
    expect(emulator.data.actions.remove('mod_x', 'a1')).toBe(true);
    expect(emulator.data.actions.list('mod_x')).toHaveLength(1);
    expect(() => emulator.data.actions.add('mod_x', { module_version_number: 1.5 })).toThrow(/module_version_number/);
    expect(() => emulator.data.modules.add('mod_x')).toThrow(/already exists/);
    emulator.data.actions.clear('mod_x');
    expect(emulator.data.actions.list('mod_x')).toEqual([]);
    expect(emulator.data.modules.remove('mod_x')).toBe(true);
    expect((await managementRequest(emulator, '/actions/modules/mod_x/actions')).status).toBe(404);
  });

  it('sets phone message types, checking them', () => {
    const { data } = createTenantEmulator();
    data.phoneMessageTypes = ['voice', 'sms'];
    expect(data.phoneMessageTypes).toEqual(['voice', 'sms']);
    data.phoneMessageTypes = [];
    expect(data.phoneMessageTypes).toEqual([]);
    expect(() => {
      data.phoneMessageTypes = ['sms', 'sms'];
    }).toThrow(/repeat/);
    expect(() => {
      data.phoneMessageTypes = ['fax' as 'sms'];
    }).toThrow(/"sms" and "voice"/);
  });

  it('reset() brings back the seed and empties the request log', async () => {
    const { emulator } = emulatorWithClock();
    emulator.data.organizations.remove(SEED_IDS.bigOrganization);
    emulator.data.phoneMessageTypes = ['voice'];
    await managementRequest(emulator, '/guardian/factors/phone/message-types');
    expect(emulator.requests).toEqual([{ method: 'GET', path: '/api/v2/guardian/factors/phone/message-types', status: 200 }]);
    emulator.reset();
    expect(emulator.data.organizations.has(SEED_IDS.bigOrganization)).toBe(true);
    expect(emulator.data.phoneMessageTypes).toEqual(['sms']);
    expect(emulator.requests).toEqual([]);
  });
});

describe('createTenantEmulator options', () => {
  it('takes an origin or a domain, and refuses both or a path', () => {
    expect(createTenantEmulator().origin).toBe('https://tenant.emulator.test');
    expect(createTenantEmulator({ domain: 'acme.emulator.test' })).toMatchObject({
      origin: 'https://acme.emulator.test',
      domain: 'acme.emulator.test',
    });
    expect(createTenantEmulator({ origin: 'http://localhost:8080/' }).origin).toBe('http://localhost:8080');
    expect(() => createTenantEmulator({ origin: 'https://a.test', domain: 'a.test' })).toThrow(TypeError);
    expect(() => createTenantEmulator({ origin: 'https://a.test/api/v2' })).toThrow(TypeError);
    expect(() => createTenantEmulator({ tokenLifetimeSeconds: 0 })).toThrow(RangeError);
  });

  it('refuses an unknown seed and an unknown option (a typo would load 2,345 records, or none of its setting)', () => {
    expect(() => createTenantEmulator({ seed: 'Empty' as never })).toThrow(new TypeError(`seed must be 'default' or 'empty', got "Empty"`));
    expect(() => createTenantEmulator({ rateLimits: { limit: 1 } } as never)).toThrow(
      new TypeError('unknown option rateLimits; the options are origin, domain, now, seed, rateLimit, tokenLifetimeSeconds, defaultClient'),
    );
    expect(() => createTenantEmulator(null as never)).toThrow(new TypeError('options must be an object'));
    expect(createTenantEmulator({ seed: 'default' }).data.organizations.ids().length).toBeGreaterThan(0);
  });

  it('registers the default client with the configured id, secret and scopes', () => {
    const emulator = createTenantEmulator({ defaultClient: { clientId: 'mine', clientSecret: 'shh', scopes: ['read:actions'] } });
    expect(emulator.credentials).toEqual({ clientId: 'mine', clientSecret: 'shh' });
    expect(createTenantEmulator().credentials).toEqual({ clientId: 'emulator-m2m-client', clientSecret: 'emulator-m2m-client-secret' });
  });
});

describe('data.actions hands out copies, as data.invitations does', () => {
  const usage = {
    action_id: 'act_1',
    action_name: 'Add roles',
    module_version_id: 'modver_1',
    module_version_number: 1,
    supported_triggers: [{ id: 'post-login', version: 'v3' }],
  };

  async function served(emulator: ReturnType<typeof createTenantEmulator>): Promise<unknown> {
    const token = await emulator.createAccessToken();
    const response = await emulator.handle(
      new Request(`${emulator.origin}/api/v2/actions/modules/mod_x/actions`, { headers: { authorization: `Bearer ${token}` } }),
    );
    return ((await response.json()) as { actions: unknown[] }).actions[0];
  }

  it('editing the record data.actions.add returned does not change what is served', async () => {
    const emulator = createTenantEmulator({ seed: 'empty' });
    emulator.data.modules.add('mod_x');
    const [added] = emulator.data.actions.add('mod_x', usage);
    (added as { module_version_number: unknown }).module_version_number = 'not-a-number';
    expect(await served(emulator)).toMatchObject({ module_version_number: 1 });
  });

  it('editing a record of data.actions.list does not change what is served', async () => {
    const emulator = createTenantEmulator({ seed: 'empty' });
    emulator.data.modules.add('mod_x', { actions: [usage] });
    const [listed] = emulator.data.actions.list('mod_x');
    (listed as { action_name: unknown }).action_name = 42;
    expect(await served(emulator)).toMatchObject({ action_name: 'Add roles' });
  });
});
