import { createRandom, type Random } from './random.js';
import type { ActionUsageRecord, InvitationRecord, TriggerRecord } from './spec.js';
import { invitationUrl, type Seeder, WEEK_MS } from './store.js';

/** The ids of the default seed's records, for tests and examples. */
export const SEED_IDS = {
  /** An organization with 2,345 invitations: more than the 1000-record paging window. */
  bigOrganization: 'org_big',
  /** An organization with 240 invitations. */
  mediumOrganization: 'org_medium',
  /** An organization with 5 invitations. */
  smallOrganization: 'org_small',
  /** An organization without invitations. */
  emptyOrganization: 'org_empty',
  /** An actions module used by 130 action versions. */
  sharedModule: 'mod_shared',
  /** An actions module used by 3 action versions. */
  smallModule: 'mod_small',
  /** An actions module no action uses. */
  unusedModule: 'mod_unused',
} as const;

/** How many records the default seed holds under each id of {@link SEED_IDS}. */
export const SEED_COUNTS = {
  bigOrganizationInvitations: 2345,
  mediumOrganizationInvitations: 240,
  smallOrganizationInvitations: 5,
  sharedModuleActions: 130,
  smallModuleActions: 3,
} as const;

const ORGANIZATIONS = [
  { id: SEED_IDS.bigOrganization, name: 'acme', domain: 'acme.example.com', count: SEED_COUNTS.bigOrganizationInvitations },
  { id: SEED_IDS.mediumOrganization, name: 'globex', domain: 'globex.example.org', count: SEED_COUNTS.mediumOrganizationInvitations },
  { id: SEED_IDS.smallOrganization, name: 'initech', domain: 'initech.example.net', count: SEED_COUNTS.smallOrganizationInvitations },
  { id: SEED_IDS.emptyOrganization, name: 'umbrella', domain: 'umbrella.example.com', count: 0 },
] as const;

/**
 * The default seed: four organizations (2,345 / 240 / 5 / 0 invitations), three
 * actions modules (used by 130 / 3 / 0 action versions) and phone message types `['sms']`.
 * Every record is made by a PRNG seeded with its owner's id.
 * So the data is the same on every run, in whatever order it is first read.
 * Lists are made on first use.
 */
export const defaultSeed: Seeder = (target) => {
  for (const organization of ORGANIZATIONS) {
    target.defineOrganization(organization.id, organization.name, () =>
      generateInvitations(organization.id, organization.name, organization.domain, organization.count),
    );
  }
  target.defineModule(SEED_IDS.sharedModule, 'shared-utilities', () =>
    generateActionUsages(SEED_IDS.sharedModule, SEED_COUNTS.sharedModuleActions),
  );
  target.defineModule(SEED_IDS.smallModule, 'slack-notifier', () =>
    generateActionUsages(SEED_IDS.smallModule, SEED_COUNTS.smallModuleActions),
  );
  target.defineModule(SEED_IDS.unusedModule, 'legacy-helpers', () => []);
  target.phoneMessageTypes = ['sms'];
};

const FIRST_NAMES = [
  'Ada',
  'Alan',
  'Amara',
  'Bea',
  'Carlos',
  'Chen',
  'Dana',
  'Elif',
  'Farah',
  'Grace',
  'Hiro',
  'Ines',
  'Jonas',
  'Kemi',
  'Lars',
  'Leila',
  'Mateo',
  'Mei',
  'Nia',
  'Omar',
  'Priya',
  'Quinn',
  'Rosa',
  'Sven',
  'Tariq',
  'Uma',
  'Viktor',
  'Wen',
  'Yara',
  'Zoe',
] as const;
const LAST_NAMES = [
  'Abara',
  'Becker',
  'Costa',
  'Dubois',
  'Eriksen',
  'Fischer',
  'Garcia',
  'Haddad',
  'Ito',
  'Jensen',
  'Kowalski',
  'Lopez',
  'Moreau',
  'Nakamura',
  'Okafor',
  'Petrov',
  'Rossi',
  'Santos',
  'Tanaka',
  'Usman',
  'Varga',
  'Weber',
  'Xu',
  'Yilmaz',
  'Zhang',
] as const;
const DEPARTMENTS = ['Engineering', 'Finance', 'Sales', 'Support', 'Legal', 'Marketing'] as const;
const LOCALES = ['en-US', 'en-GB', 'de-DE', 'fr-FR', 'ja-JP', 'pt-BR'] as const;
const PLANS = ['starter', 'business', 'enterprise'] as const;
const HEX = '0123456789abcdef';
const HOUR_MS = 60 * 60 * 1000;

/**
 * `count` invitations of one organization, oldest first, from 2024-01-08.
 * Their `created_at` strictly increases, 1 minute to 3 hours apart.
 * About a third carry roles, a fifth app or user metadata, and half a connection id.
 */
function generateInvitations(organizationId: string, organizationName: string, domain: string, count: number): InvitationRecord[] {
  const random = createRandom(`invitations:${organizationId}`);
  const clientIds = [random.chars(32), random.chars(32)];
  const connectionIds = [`con_${random.chars(16)}`, `con_${random.chars(16)}`];
  const roleIds = [`rol_${random.chars(16)}`, `rol_${random.chars(16)}`, `rol_${random.chars(16)}`, `rol_${random.chars(16)}`];
  const inviters = [fullName(random), fullName(random), fullName(random)];
  const appBase = `https://app.${domain}/login`;
  let time = Date.UTC(2024, 0, 8, 9, 0, 0);
  const invitations: InvitationRecord[] = [];
  for (let index = 0; index < count; index++) {
    time += 60_000 + random.int(3 * HOUR_MS - 60_000);
    const first = random.pick(FIRST_NAMES);
    const last = random.pick(LAST_NAMES);
    const ticketId = random.chars(32);
    const invitation: InvitationRecord = {
      id: `uinv_${random.chars(16)}`,
      organization_id: organizationId,
      inviter: { name: random.pick(inviters) },
      invitee: { email: `${first}.${last}.${index + 1}@${domain}`.toLowerCase() },
      invitation_url: invitationUrl(ticketId, organizationId, organizationName, appBase),
      created_at: new Date(time).toISOString(),
      expires_at: new Date(time + WEEK_MS).toISOString(),
      client_id: random.pick(clientIds),
    };
    if (random.chance(0.5)) invitation.connection_id = random.pick(connectionIds);
    if (random.chance(0.2)) invitation.app_metadata = { plan: random.pick(PLANS), seats: 1 + random.int(50) };
    if (random.chance(0.2)) invitation.user_metadata = { department: random.pick(DEPARTMENTS), locale: random.pick(LOCALES) };
    if (random.chance(0.35)) invitation.roles = random.chance(0.3) ? roleIds.slice(0, 2) : [random.pick(roleIds)];
    invitation.ticket_id = ticketId;
    invitations.push(invitation);
  }
  return invitations;
}

function fullName(random: Random): string {
  return `${random.pick(FIRST_NAMES)} ${random.pick(LAST_NAMES)}`;
}

const ACTION_VERBS = ['Add', 'Enrich', 'Sync', 'Validate', 'Audit', 'Notify', 'Map', 'Block', 'Tag', 'Route'] as const;
const ACTION_OBJECTS = [
  'roles to ID token',
  'profile from CRM',
  'consent flags',
  'risky IP logins',
  'new sign-ups to Slack',
  'country claims',
  'organization metadata',
  'MFA enrollment',
  'billing tier',
  'support tier',
  'login events',
  'legacy ids',
  'phone numbers',
] as const;

/** The triggers an action version may support, with the platform's trigger versions and Node runtimes. */
const TRIGGERS: readonly TriggerRecord[] = [
  {
    id: 'post-login',
    version: 'v3',
    status: 'CURRENT',
    runtimes: ['node18', 'node22'],
    default_runtime: 'node22',
    compatible_triggers: [{ id: 'post-login', version: 'v2' }],
  },
  {
    id: 'credentials-exchange',
    version: 'v2',
    status: 'CURRENT',
    runtimes: ['node18', 'node22'],
    default_runtime: 'node22',
    compatible_triggers: [],
  },
  {
    id: 'pre-user-registration',
    version: 'v2',
    status: 'CURRENT',
    runtimes: ['node18', 'node22'],
    default_runtime: 'node22',
    compatible_triggers: [],
  },
  {
    id: 'post-user-registration',
    version: 'v2',
    status: 'CURRENT',
    runtimes: ['node18', 'node22'],
    default_runtime: 'node22',
    compatible_triggers: [],
  },
  {
    id: 'send-phone-message',
    version: 'v2',
    status: 'CURRENT',
    runtimes: ['node18', 'node22'],
    default_runtime: 'node22',
    compatible_triggers: [],
  },
  {
    id: 'post-change-password',
    version: 'v1',
    status: 'DEPRECATED',
    runtimes: ['node16', 'node18'],
    default_runtime: 'node18',
    compatible_triggers: [],
  },
];

/** `count` deployed action versions that use a module, with distinct names and 1–2 supported triggers each. */
function generateActionUsages(moduleId: string, count: number): ActionUsageRecord[] {
  const random = createRandom(`actions:${moduleId}`);
  const versionIds = Array.from({ length: 4 }, () => `modver_${random.chars(16)}`);
  const usages: ActionUsageRecord[] = [];
  for (let index = 0; index < count; index++) {
    const name = `${ACTION_VERBS[index % ACTION_VERBS.length]} ${ACTION_OBJECTS[Math.floor(index / ACTION_VERBS.length) % ACTION_OBJECTS.length]}`;
    const round = Math.floor(index / (ACTION_VERBS.length * ACTION_OBJECTS.length));
    const versionNumber = 1 + random.int(versionIds.length);
    const first = random.pick(TRIGGERS);
    const second = random.chance(0.25) ? random.pick(TRIGGERS.filter((trigger) => trigger !== first)) : undefined;
    usages.push({
      action_id: uuid(random),
      action_name: round === 0 ? name : `${name} (${round + 1})`,
      module_version_id: versionIds[versionNumber - 1] as string,
      module_version_number: versionNumber,
      supported_triggers: second ? [copyTrigger(first), copyTrigger(second)] : [copyTrigger(first)],
    });
  }
  return usages;
}

function copyTrigger(trigger: TriggerRecord): TriggerRecord {
  return structuredClone(trigger);
}

function uuid(random: Random): string {
  const hex = (length: number) => random.chars(length, HEX);
  return `${hex(8)}-${hex(4)}-4${hex(3)}-${random.pick(['8', '9', 'a', 'b'])}${hex(3)}-${hex(12)}`;
}
