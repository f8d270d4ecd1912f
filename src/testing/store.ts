import type * as z from 'zod/mini';
import { createRandom, type Random } from './random.js';
import { ActionUsageRecord, InvitationRecord, OrganizationId, PhoneMessageTypeRecord } from './spec.js';

/** How long an invitation is valid when none is given: the platform's default of 7 days. */
export const WEEK_MS = 7 * 24 * 60 * 60 * 1000;

/** Options of `data.organizations.add`. */
export interface OrganizationSeed {
  /** Display name, used in generated invitation URLs; default: the id. */
  readonly name?: string;
  /** Invitations to start with (completed as `data.invitations.add` does). */
  readonly invitations?: readonly InvitationRecord[];
}

/** Options of `data.modules.add`. */
export interface ModuleSeed {
  /** Display name; default: the id. */
  readonly name?: string;
  /** The action versions that use the module. */
  readonly actions?: readonly ActionUsageRecord[];
}

/**
 * The tenant's data (`emulator.data`): organizations with their invitations,
 * actions modules with the actions that use them, and the enabled phone factor types.
 * The next request sees every change.
 * Everything added is checked against the platform's documented rules; a `TypeError` names the problem.
 * So the emulator never serves what the platform could not.
 */
export interface EmulatorData {
  readonly organizations: {
    /** Adds an organization (id 1–50 characters); throws if it exists. */
    add(id: string, seed?: OrganizationSeed): void;
    /** Removes an organization and its invitations; `false` if there was none. */
    remove(id: string): boolean;
    has(id: string): boolean;
    /** Every organization id, in the order they were added. */
    ids(): string[];
  };
  readonly invitations: {
    /** An organization's invitations in the order they were added (throws for an unknown organization). */
    list(organizationId: string): readonly InvitationRecord[];
    /**
     * Adds invitations to an organization. Missing fields are filled in: `id`,
     * `organization_id`, `inviter`, `invitee`, `invitation_url`, `created_at` (the
     * emulator's clock), `expires_at` (7 days later) and `ticket_id`. Returns the stored records.
     */
    add(organizationId: string, ...invitations: InvitationRecord[]): InvitationRecord[];
    /** Removes one invitation by id; `false` if there was none. */
    remove(organizationId: string, invitationId: string): boolean;
    /** Removes every invitation of an organization. */
    clear(organizationId: string): void;
  };
  readonly modules: {
    /** Adds an actions module; throws if it exists. */
    add(id: string, seed?: ModuleSeed): void;
    /** Removes a module; `false` if there was none. */
    remove(id: string): boolean;
    has(id: string): boolean;
    /** Every module id, in the order they were added. */
    ids(): string[];
  };
  readonly actions: {
    /** The action versions that use a module (throws for an unknown module). */
    list(moduleId: string): readonly ActionUsageRecord[];
    /** Adds action versions that use a module; returns the stored records. */
    add(moduleId: string, ...actions: ActionUsageRecord[]): ActionUsageRecord[];
    /** Removes the usages with this `action_id`; `false` if there were none. */
    remove(moduleId: string, actionId: string): boolean;
    /** Removes every usage of a module. */
    clear(moduleId: string): void;
  };
  /** The enabled phone factor types; assign to change them (`sms`/`voice`, no duplicates, else `TypeError`). */
  phoneMessageTypes: readonly PhoneMessageTypeRecord[];
  /** Throws away every change: back to the seed the emulator was created with. */
  reset(): void;
}

/** A list made on first use, so a seed of thousands of records costs nothing until it is read. */
class LazyList<T> {
  #items: T[] | undefined;
  #make: (() => T[]) | undefined;

  constructor(make: () => T[]) {
    this.#make = make;
  }

  get items(): T[] {
    if (this.#items === undefined) {
      this.#items = this.#make?.() ?? [];
      this.#make = undefined;
    }
    return this.#items;
  }
}

interface OrganizationEntry {
  readonly name: string;
  readonly invitations: LazyList<InvitationRecord>;
}

interface ModuleEntry {
  readonly name: string;
  readonly actions: LazyList<ActionUsageRecord>;
}

/** What a seed function may do: define records whose contents are made on first use. */
export interface SeedTarget {
  /** Defines an organization whose invitations `invitations()` makes when they are first read (trusted: not checked). */
  defineOrganization(id: string, name: string, invitations: () => InvitationRecord[]): void;
  /** Defines a module whose usages `actions()` makes when they are first read (trusted: not checked). */
  defineModule(id: string, name: string, actions: () => ActionUsageRecord[]): void;
  /** The enabled phone factor types. */
  phoneMessageTypes: readonly PhoneMessageTypeRecord[];
}

/** Fills a fresh store; see `defaultSeed`. */
export type Seeder = (target: SeedTarget) => void;

/** The emulator's data, and the lookups its operations make. */
export class TenantStore implements EmulatorData, SeedTarget {
  readonly #organizations = new Map<string, OrganizationEntry>();
  readonly #modules = new Map<string, ModuleEntry>();
  #phoneMessageTypes: PhoneMessageTypeRecord[] = [];
  readonly #seeder: Seeder | undefined;
  readonly #now: () => number;
  #random: Random = createRandom('emulator-data');

  readonly organizations: EmulatorData['organizations'];
  readonly invitations: EmulatorData['invitations'];
  readonly modules: EmulatorData['modules'];
  readonly actions: EmulatorData['actions'];

  constructor(options: { seeder?: Seeder | undefined; now: () => number }) {
    this.#seeder = options.seeder;
    this.#now = options.now;
    this.organizations = {
      add: (id, seed = {}) => {
        checkOrganizationId(id);
        if (this.#organizations.has(id)) throw new TypeError(`organization "${id}" already exists`);
        const name = seed.name ?? id;
        const invitations = (seed.invitations ?? []).map((invitation) => this.#completeInvitation(id, name, invitation));
        checkUniqueIds(invitations);
        this.#organizations.set(id, { name, invitations: new LazyList(() => invitations) });
      },
      remove: (id) => this.#organizations.delete(id),
      has: (id) => this.#organizations.has(id),
      ids: () => [...this.#organizations.keys()],
    };
    this.invitations = {
      // Copies: a record changed by a test never changes what the API serves (unchecked).
      list: (organizationId) => this.#organization(organizationId).invitations.items.map((record) => structuredClone(record)),
      add: (organizationId, ...invitations) => {
        const organization = this.#organization(organizationId);
        const added = invitations.map((invitation) => this.#completeInvitation(organizationId, organization.name, invitation));
        checkUniqueIds([...organization.invitations.items, ...added]);
        organization.invitations.items.push(...added);
        return added.map((record) => structuredClone(record));
      },
      remove: (organizationId, invitationId) =>
        removeWhere(this.#organization(organizationId).invitations.items, (i) => i.id === invitationId),
      clear: (organizationId) => {
        this.#organization(organizationId).invitations.items.length = 0;
      },
    };
    this.modules = {
      add: (id, seed = {}) => {
        if (typeof id !== 'string' || id === '') throw new TypeError('a module id must be a non-empty string');
        if (this.#modules.has(id)) throw new TypeError(`module "${id}" already exists`);
        const actions = (seed.actions ?? []).map(checkActionUsage);
        this.#modules.set(id, { name: seed.name ?? id, actions: new LazyList(() => actions) });
      },
      remove: (id) => this.#modules.delete(id),
      has: (id) => this.#modules.has(id),
      ids: () => [...this.#modules.keys()],
    };
    this.actions = {
      // Copies in and out, as for invitations: what the emulator serves changes only through these methods.
      list: (moduleId) => this.#module(moduleId).actions.items.map((usage) => structuredClone(usage)),
      add: (moduleId, ...actions) => {
        const added = actions.map(checkActionUsage);
        this.#module(moduleId).actions.items.push(...added);
        return added.map((usage) => structuredClone(usage));
      },
      remove: (moduleId, actionId) => removeWhere(this.#module(moduleId).actions.items, (usage) => usage.action_id === actionId),
      clear: (moduleId) => {
        this.#module(moduleId).actions.items.length = 0;
      },
    };
    this.reset();
  }

  get phoneMessageTypes(): readonly PhoneMessageTypeRecord[] {
    return [...this.#phoneMessageTypes];
  }

  set phoneMessageTypes(types: readonly PhoneMessageTypeRecord[]) {
    if (!Array.isArray(types)) throw new TypeError('phoneMessageTypes must be an array');
    for (const type of types) {
      if (!PhoneMessageTypeRecord.safeParse(type).success)
        throw new TypeError(`phone message types are "sms" and "voice", not ${JSON.stringify(type)}`);
    }
    if (new Set(types).size !== types.length) throw new TypeError('phoneMessageTypes must not repeat a type');
    this.#phoneMessageTypes = [...types];
  }

  reset(): void {
    this.#organizations.clear();
    this.#modules.clear();
    this.#phoneMessageTypes = [];
    this.#random = createRandom('emulator-data');
    this.#seeder?.(this);
  }

  defineOrganization(id: string, name: string, invitations: () => InvitationRecord[]): void {
    this.#organizations.set(id, { name, invitations: new LazyList(invitations) });
  }

  defineModule(id: string, name: string, actions: () => ActionUsageRecord[]): void {
    this.#modules.set(id, { name, actions: new LazyList(actions) });
  }

  /** The invitations of an organization as stored (not copied), or `undefined` when it does not exist. */
  invitationsOf(organizationId: string): readonly InvitationRecord[] | undefined {
    return this.#organizations.get(organizationId)?.invitations.items;
  }

  /** The usages of a module as stored (not copied), or `undefined` when it does not exist. */
  actionsOf(moduleId: string): readonly ActionUsageRecord[] | undefined {
    return this.#modules.get(moduleId)?.actions.items;
  }

  #organization(id: string): OrganizationEntry {
    const organization = this.#organizations.get(id);
    if (organization === undefined) throw new TypeError(`no organization "${id}"; add it with data.organizations.add()`);
    return organization;
  }

  #module(id: string): ModuleEntry {
    const module = this.#modules.get(id);
    if (module === undefined) throw new TypeError(`no module "${id}"; add it with data.modules.add()`);
    return module;
  }

  #completeInvitation(organizationId: string, organizationName: string, input: InvitationRecord): InvitationRecord {
    if (input.organization_id !== undefined && input.organization_id !== organizationId) {
      throw new TypeError(`invitation.organization_id "${input.organization_id}" is not "${organizationId}"`);
    }
    // A member given as `undefined` is missing: it is filled in like one left out.
    const given = Object.fromEntries(Object.entries(input).filter(([, value]) => value !== undefined)) as InvitationRecord;
    const random = this.#random;
    const ticketId = given.ticket_id ?? random.chars(32);
    const createdAt = given.created_at ?? new Date(this.#now()).toISOString();
    const createdMs = Date.parse(createdAt); // not a date: the schema below names `created_at`
    const filled: InvitationRecord = {
      id: `uinv_${random.chars(16)}`,
      organization_id: organizationId,
      inviter: { name: 'Emulator Admin' },
      invitee: { email: `invitee.${random.chars(8, 'abcdefghijklmnopqrstuvwxyz0123456789')}@example.com` },
      invitation_url: invitationUrl(ticketId, organizationId, organizationName),
      created_at: createdAt,
      ...(Number.isNaN(createdMs) ? {} : { expires_at: new Date(createdMs + WEEK_MS).toISOString() }),
      ticket_id: ticketId,
      ...given,
    };
    // The schema returns the fields in the platform's documented order, whatever order the caller used.
    const result = InvitationRecord.safeParse(filled);
    if (!result.success) throw new TypeError(`invalid invitation: ${describeIssues(result.error.issues)}`);
    return result.data;
  }
}

/** The invitation link of the platform's shape: the application's login route with the ticket and organization. */
export function invitationUrl(
  ticketId: string,
  organizationId: string,
  organizationName: string,
  base = 'https://app.example.com/login',
): string {
  const encode = encodeURIComponent;
  return `${base}?invitation=${encode(ticketId)}&organization=${encode(organizationId)}&organization_name=${encode(organizationName)}`;
}

/** Refuses two invitations of one organization with the same id (the platform cannot hold them; a page would show the id twice). */
function checkUniqueIds(invitations: readonly InvitationRecord[]): void {
  const ids = new Set<string | undefined>();
  for (const { id } of invitations) {
    if (ids.has(id)) throw new TypeError(`invitation id "${id}" is already used in this organization`);
    ids.add(id);
  }
}

function checkOrganizationId(id: string): void {
  const result = OrganizationId.safeParse(id);
  if (!result.success) throw new TypeError(`invalid organization id: ${describeIssues(result.error.issues)}`);
}

function checkActionUsage(usage: ActionUsageRecord): ActionUsageRecord {
  const result = ActionUsageRecord.safeParse(usage);
  if (!result.success) throw new TypeError(`invalid action usage: ${describeIssues(result.error.issues)}`);
  return result.data;
}

function removeWhere<T>(items: T[], predicate: (item: T) => boolean): boolean {
  const before = items.length;
  const kept = items.filter((item) => !predicate(item));
  items.splice(0, items.length, ...kept);
  return kept.length !== before;
}

function describeIssues(issues: readonly z.core.$ZodIssue[]): string {
  return issues.map((issue) => `${issue.path.map(String).join('.') || '(root)'}: ${describeIssue(issue)}`).join('; ');
}

function describeIssue(issue: z.core.$ZodIssue): string {
  if (issue.message !== 'Invalid input') return issue.message;
  if (issue.code === 'unrecognized_keys') return `unknown ${issue.keys.map((key) => `"${key}"`).join(', ')}`;
  if (issue.code === 'invalid_type') return `expected ${issue.expected}`;
  if (issue.code === 'invalid_format') return `must be a valid ${issue.format}`;
  if (issue.code === 'too_small' || issue.code === 'too_big')
    return `${issue.code === 'too_small' ? 'at least' : 'at most'} ${String(issue.code === 'too_small' ? issue.minimum : issue.maximum)}`;
  return issue.message;
}
