import { jsonText } from '../json-text.js';
import { QueryReader } from '../query.js';
import { json, managementError } from '../responses.js';
import {
  DEFAULT_INVITATION_SORT,
  INVITATION_FIELDS,
  type InvitationRecord,
  MAX_ORGANIZATION_ID_LENGTH,
  PAGING_WINDOW_MESSAGE,
  PER_PAGE,
  withinPagingWindow,
} from '../spec.js';
import type { Operation } from './operation.js';

const PARAMETERS = ['page', 'per_page', 'include_totals', 'fields', 'include_fields', 'sort'] as const;
const KNOWN_FIELDS = new Set<string>(INVITATION_FIELDS);
const DEFAULT_SORT: Sort = { path: [DEFAULT_INVITATION_SORT.field], order: DEFAULT_INVITATION_SORT.order };

interface Sort {
  readonly path: readonly string[];
  readonly order: 1 | -1;
}

/**
 * `GET /organizations/{id}/invitations`, with the scope `read:organization_invitations`.
 * The emulator follows the platform's documented rules:
 *
 * - `id` is at most 50 characters, else 400 `invalid_uri` (a path validation error, as the platform tags those).
 * - `page` is an integer ≥ 0 (default 0), and `per_page` an integer 1–100 (default 50).
 * - `include_totals` and `include_fields` are `true` or `false`.
 * - `fields` is a comma-separated list of invitation fields; empty means all.
 * - `sort` is `field:1` or `field:-1`; the default is `created_at:-1`.
 *   It names an invitation field, or a member: `inviter.name`, `invitee.email`, or any member of the metadata.
 *   Ties are broken by `id` in the same direction, so the order is strict.
 * - Unknown or repeated parameters, and every broken rule, give 400 `invalid_query_string` with the reasons.
 * - `(page + 1) * per_page > 1000` gives 400 `Requesting page exceeds the allowed maximum of 1000 records`, errorCode `invalid_paging`.
 * - An unknown organization gives 404 `No organization found by that id`, errorCode `inexistent_organization`.
 *
 * Answers an array, or `{ start, limit, invitations }` with `include_totals=true`.
 */
export const listInvitations: Operation = {
  method: 'GET',
  path: '/organizations/{id}/invitations',
  scope: 'read:organization_invitations',
  handle: ({ url, params, store }) => {
    const id = params.id ?? '';
    const characters = [...id].length; // characters (code points), as the store counts them, not UTF-16 units
    if (characters > MAX_ORGANIZATION_ID_LENGTH) {
      return managementError(
        400,
        `Path validation error: 'String is too long (${characters} chars), maximum ${MAX_ORGANIZATION_ID_LENGTH}' on property id (ID of the organization).`,
        'invalid_uri',
      );
    }
    const query = new QueryReader(url.searchParams, PARAMETERS);
    const page = query.integer('page', { min: 0 }, 0);
    const perPage = query.integer('per_page', { min: PER_PAGE.min, max: PER_PAGE.max }, PER_PAGE.default);
    const includeTotals = query.boolean('include_totals', false);
    const includeFields = query.boolean('include_fields', true);
    const fields = readFields(query);
    const sort = readSort(query);
    if (query.issues.length > 0) return managementError(400, query.message, 'invalid_query_string');
    if (!withinPagingWindow(page, perPage)) return managementError(400, PAGING_WINDOW_MESSAGE, 'invalid_paging');

    const invitations = store.invitationsOf(id);
    if (invitations === undefined) return managementError(404, 'No organization found by that id', 'inexistent_organization');

    const start = page * perPage;
    const selected = sorted(invitations, sort)
      .slice(start, start + perPage)
      .map((invitation) => project(invitation, fields, includeFields));
    return json(includeTotals ? { start, limit: perPage, invitations: selected } : selected);
  },
};

function readFields(query: QueryReader): ReadonlySet<string> | undefined {
  const raw = query.string('fields');
  if (raw === undefined || raw === '') return undefined;
  const names = raw.split(',').map((name) => name.trim());
  const unknown = names.filter((name) => !KNOWN_FIELDS.has(name));
  if (unknown.length > 0) {
    query.issues.push(
      `fields must list invitation fields (${INVITATION_FIELDS.join(', ')}); unknown: ${unknown.map((name) => `"${name}"`).join(', ')}`,
    );
    return undefined;
  }
  return new Set(names);
}

function readSort(query: QueryReader): Sort {
  const raw = query.string('sort');
  if (raw === undefined) return DEFAULT_SORT;
  const match = /^([A-Za-z_][\w.]*):(-?1)$/.exec(raw);
  if (match === null) {
    query.issues.push(`sort must have the form field:1 (ascending) or field:-1 (descending) (got "${raw}")`);
    return DEFAULT_SORT;
  }
  const path = (match[1] ?? '').split('.');
  if (!KNOWN_FIELDS.has(path[0] ?? '') || path.includes('') || !isSortablePath(path)) {
    query.issues.push(`sort field "${match[1]}" is not an invitation field`);
    return DEFAULT_SORT;
  }
  return { path, order: match[2] === '1' ? 1 : -1 };
}

/**
 * Members of the invitation's objects a sort may name below their field: the
 * inviter's and invitee's known members, and anything in the free-form metadata.
 * A misspelt member (`invitee.emial`) is refused, not sorted on nothing.
 */
const SORTABLE_MEMBERS: Readonly<Record<string, readonly string[] | 'any'>> = {
  inviter: ['name'],
  invitee: ['email'],
  app_metadata: 'any',
  user_metadata: 'any',
};

function isSortablePath([field, member, ...deeper]: readonly string[]): boolean {
  if (member === undefined) return true;
  const members = SORTABLE_MEMBERS[field ?? ''];
  return members === 'any' || (members !== undefined && deeper.length === 0 && members.includes(member));
}

/** The date-time fields: sorted by the instant they name (`…T09:00:00+10:00` is before `…T00:30:00Z`), not as text. */
const DATE_TIME_FIELDS: ReadonlySet<string> = new Set(['created_at', 'expires_at']);

/** The invitations in `sort` order; ties broken by `id` in the same direction. Values that are absent sort last when ascending. */
function sorted(invitations: readonly InvitationRecord[], sort: Sort): InvitationRecord[] {
  const byInstant = sort.path.length === 1 && DATE_TIME_FIELDS.has(sort.path[0] ?? '');
  const keyed = invitations.map((invitation) => {
    const key = valueAt(invitation, sort.path);
    return { invitation, key: byInstant && typeof key === 'string' ? Date.parse(key) : key };
  });
  keyed.sort((a, b) => sort.order * (compare(a.key, b.key) || compare(a.invitation.id, b.invitation.id)));
  return keyed.map(({ invitation }) => invitation);
}

function valueAt(record: unknown, path: readonly string[]): unknown {
  let value = record;
  for (const name of path) value = typeof value === 'object' && value !== null ? (value as Record<string, unknown>)[name] : undefined;
  return value;
}

function compare(a: unknown, b: unknown): number {
  if (a === undefined || b === undefined) return a === b ? 0 : a === undefined ? 1 : -1;
  if (typeof a === 'number' && typeof b === 'number') return a - b;
  const [x, y] = [typeof a === 'string' ? a : jsonText(a), typeof b === 'string' ? b : jsonText(b)];
  return x < y ? -1 : x > y ? 1 : 0;
}

function project(invitation: InvitationRecord, fields: ReadonlySet<string> | undefined, include: boolean): Partial<InvitationRecord> {
  if (fields === undefined) return invitation;
  return Object.fromEntries(Object.entries(invitation).filter(([name]) => fields.has(name) === include));
}
