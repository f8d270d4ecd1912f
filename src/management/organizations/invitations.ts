import * as z from 'zod/mini';
import type { RequestOptions } from '../../core/options.js';
import type { Page, WindowedPageQuery } from '../../core/paging/iterate.js';
import {
  isResumableInPagingWindow,
  isWithinPagingWindow,
  lazyIterator,
  OnPageSchema,
  PAGING_WINDOW,
  PAGING_WINDOW_MESSAGE,
  PageSchema,
  PerPageSchema,
} from '../../core/paging.js';
import { encodePath } from '../../core/path.js';
import { emailAddress, freeFormObject, httpsUrl } from '../../core/response-formats.js';
import type { Transport } from '../../core/transport.js';
import type { Assert, IsExactly, KnownMembers } from '../../core/type-checks.js';
import { validateParams } from '../../core/validation.js';
import type { Scope } from '../scopes.js';

// ── Response schemas ─────────────────────────────────────────────────────────

/** Who sent an invitation: a `name` of 1–300 characters. */
export const OrganizationInvitationInviterSchema = z.looseObject({
  name: z.string().check(z.minLength(1), z.maxLength(300)),
});

/** Who is invited: an `email` address. */
export const OrganizationInvitationInviteeSchema = z.looseObject({
  email: emailAddress(),
});

const timestamp = z.iso.datetime({ offset: true });
const freeForm = freeFormObject();

/**
 * An invitation to join an organization, as the platform sends it.
 * No field is required, since a `fields` filter returns only some.
 * The platform documents no other properties.
 * A property it adds later is kept, not refused.
 * A known property of the wrong type fails validation.
 */
export const OrganizationInvitationSchema = z.looseObject({
  id: z.optional(z.string()),
  organization_id: z.optional(z.string().check(z.maxLength(50))),
  inviter: z.optional(OrganizationInvitationInviterSchema),
  invitee: z.optional(OrganizationInvitationInviteeSchema),
  invitation_url: z.optional(httpsUrl()),
  created_at: z.optional(timestamp),
  expires_at: z.optional(timestamp),
  client_id: z.optional(z.string()),
  connection_id: z.optional(z.string()),
  app_metadata: z.optional(freeForm),
  user_metadata: z.optional(freeForm),
  roles: z.optional(z.array(z.string()).check(z.minLength(1))),
  ticket_id: z.optional(z.string()),
});

/**
 * The invitation list with `include_totals: true`: `{ start, limit, invitations }`.
 * The platform returns no total count.
 * `start` and `limit` only echo the request, and the platform marks neither required.
 * An answer without them is read, not refused.
 * Unknown properties are kept.
 */
export const OrganizationInvitationPageSchema = z.looseObject({
  start: z.optional(z.number()),
  limit: z.optional(z.number()),
  invitations: z.array(OrganizationInvitationSchema),
});

const OrganizationInvitationListSchema = z.array(OrganizationInvitationSchema);

/** Who sent an invitation. */
export interface OrganizationInvitationInviter {
  /** The inviter's name, 1–300 characters. */
  name: string;
}

/** Who is invited. */
export interface OrganizationInvitationInvitee {
  /** The invitee's email address. */
  email: string;
}

/** An invitation to join an organization. Every member is optional: a `fields` filter returns only some. */
export interface OrganizationInvitation {
  /** The invitation's id. */
  id?: string | undefined;
  /** The organization's id, at most 50 characters. */
  organization_id?: string | undefined;
  inviter?: OrganizationInvitationInviter | undefined;
  invitee?: OrganizationInvitationInvitee | undefined;
  /** The `https` link the invitee follows. */
  invitation_url?: string | undefined;
  /** ISO 8601 date-time the invitation was created. */
  created_at?: string | undefined;
  /** ISO 8601 date-time the invitation expires. */
  expires_at?: string | undefined;
  /** The application the invitee is sent to. */
  client_id?: string | undefined;
  /** The connection the invitee signs up with. */
  connection_id?: string | undefined;
  /** Data the invitee's user gets as `app_metadata`. */
  app_metadata?: Record<string, unknown> | undefined;
  /** Data the invitee's user gets as `user_metadata`. */
  user_metadata?: Record<string, unknown> | undefined;
  /** Role ids the invitee is given (at least one when present). */
  roles?: string[] | undefined;
  /** The ticket id of the invitation. */
  ticket_id?: string | undefined;
}

/** One page of invitations with its `start` and `limit`, as `list` returns it with `include_totals: true`. */
export interface OrganizationInvitationPage {
  /** Index of the first invitation of the page (absent when the server leaves it out). */
  start?: number | undefined;
  /** The page size the server used (absent when the server leaves it out). */
  limit?: number | undefined;
  invitations: OrganizationInvitation[];
}

type _InviterMatchesSchema = Assert<
  IsExactly<OrganizationInvitationInviter, KnownMembers<z.infer<typeof OrganizationInvitationInviterSchema>>>
>;
type _InviteeMatchesSchema = Assert<
  IsExactly<OrganizationInvitationInvitee, KnownMembers<z.infer<typeof OrganizationInvitationInviteeSchema>>>
>;
type _InvitationMatchesSchema = Assert<IsExactly<OrganizationInvitation, KnownMembers<z.infer<typeof OrganizationInvitationSchema>>>>;
type _PageMatchesSchema = Assert<IsExactly<OrganizationInvitationPage, KnownMembers<z.infer<typeof OrganizationInvitationPageSchema>>>>;

/** A field name of an invitation: what `fields` lists and `sort` orders by. */
export type OrganizationInvitationField = keyof OrganizationInvitation;

/** The field names of an invitation, the values `fields` may list. */
export const ORGANIZATION_INVITATION_FIELDS = Object.keys(OrganizationInvitationSchema.def.shape) as OrganizationInvitationField[];

/**
 * The order of a list of invitations: `field:1` ascending (`created_at:1`) or `field:-1` descending (`created_at:-1`).
 * The field is an invitation field, or a member of one that has members.
 * Those are `inviter.name`, `invitee.email`, and any member of `app_metadata` or `user_metadata`.
 */
// Written as a union of two halves, not `…:${1 | -1}`: a union written out keeps this name, so an
// error shows `OrganizationInvitationSort` instead of its 34 members.
export type OrganizationInvitationSort =
  | `${OrganizationInvitationField | 'inviter.name' | 'invitee.email' | `${'app_metadata' | 'user_metadata'}.${string}`}:1`
  | `${OrganizationInvitationField | 'inviter.name' | 'invitee.email' | `${'app_metadata' | 'user_metadata'}.${string}`}:-1`;

// ── Parameter rules ──────────────────────────────────────────────────────────

/** Records per page when `per_page` is not given. */
export const DEFAULT_INVITATIONS_PER_PAGE = 50;

/** The order of invitations when `sort` is not given: newest first. */
export const DEFAULT_INVITATIONS_SORT = 'created_at:-1';

/** An organization id: 1–50 characters. */
export const OrganizationIdSchema = z
  .string({ error: (issue) => (issue.input === undefined ? 'organizationId is required' : 'organizationId must be a string') })
  .check(z.minLength(1, 'organization id must not be empty'), z.maxLength(50, 'organization id must be at most 50 characters'));

const knownFields = new Set<string>(ORGANIZATION_INVITATION_FIELDS);
const SORT_FORM = /^([A-Za-z_]\w*)((?:\.\w+)*):-?1$/;
/** The members a sort may name below each object field. In the free-form metadata, any member at any depth. */
const SORTABLE_MEMBERS: Readonly<Record<string, readonly string[] | 'any'>> = {
  inviter: ['.name'],
  invitee: ['.email'],
  app_metadata: 'any',
  user_metadata: 'any',
};
/** Whether `value` is a sort: `field:±1` with an invitation field, or a member it has. */
function isSort(value: unknown): boolean {
  const [, field = '', members = ''] = (typeof value === 'string' && SORT_FORM.exec(value)) || [];
  if (!knownFields.has(field)) return false;
  const sortable = SORTABLE_MEMBERS[field];
  return members === '' || sortable === 'any' || (sortable?.includes(members) ?? false);
}
const sort = z.custom<OrganizationInvitationSort>(
  isSort,
  `sort must have the form "field:1" (ascending) or "field:-1" (descending), with an invitation field (${ORGANIZATION_INVITATION_FIELDS.join(', ')}) or a member of one (inviter.name, invitee.email, app_metadata.*, user_metadata.*)`,
);
const fields = z
  .string()
  .check(
    z.refine(
      (value) => value === '' || value.split(',').every((name) => knownFields.has(name.trim())),
      `fields must be a comma-separated list of invitation fields (${ORGANIZATION_INVITATION_FIELDS.join(', ')})`,
    ),
  );

const sharedParams = {
  /** Records per page, 1–100; default 50. `(page + 1) * per_page` may not exceed 1000. */
  per_page: z.optional(PerPageSchema),
  /** Comma-separated field names to include (or exclude with `include_fields: false`); empty means all. */
  fields: z.optional(fields),
  /** Whether `fields` lists the fields to include (`true`, the default) or to exclude. */
  include_fields: z.optional(z.boolean('include_fields must be a boolean')),
  /** `field:1` ascending or `field:-1` descending; the server's default is `created_at:-1`. */
  sort: z.optional(sort),
};

/** The query rules of `GET /organizations/{id}/invitations`, checked before sending. */
export const ListOrganizationInvitationsParamsSchema = z
  .strictObject({
    ...sharedParams,
    /** Page index, from 0. */
    page: z.optional(PageSchema),
    /** `true`: answer `{ start, limit, invitations }` instead of a plain array. */
    include_totals: z.optional(z.boolean('include_totals must be a boolean')),
  })
  .check(
    z.refine((params) => isWithinPagingWindow(params.page ?? 0, params.per_page ?? DEFAULT_INVITATIONS_PER_PAGE), {
      message: PAGING_WINDOW_MESSAGE,
      path: ['page'],
    }),
  );

/** The parameters of `organizations.invitations.iterate`. */
export const IterateOrganizationInvitationsParamsSchema = z
  .strictObject({
    ...sharedParams,
    /**
     * What happens after the first 1000 records when the server holds more.
     * `'throw'` (the default) throws `PagingLimitError` once all 1000 are yielded.
     * `'stop'` stops quietly; `onPage` is then told `limitReached: true`.
     */
    onLimit: z.optional(z.enum(['throw', 'stop'], "onLimit must be 'throw' or 'stop'")),
    /** The page (of `per_page` records) to start at, to resume: an `onPage` checkpoint's `page + 1`. Default 0. */
    page: z.optional(PageSchema),
    /** Called after each completed page with `{ page, records, total?, limitReached }`, for progress and checkpoints. */
    onPage: z.optional(OnPageSchema),
  })
  .check(
    z.refine((params) => isResumableInPagingWindow(params.page ?? 0, params.per_page ?? DEFAULT_INVITATIONS_PER_PAGE), {
      message: `${PAGING_WINDOW_MESSAGE}: page * per_page must be below 1000 to start there`,
      path: ['page'],
    }),
  );

/**
 * Query parameters of `organizations.invitations.list` (`GET /organizations/{id}/invitations`).
 * TypeScript fills in the type parameters from the call.
 * `IncludeTotals` is the type of `include_totals`: it picks the result type.
 * `Sort` is the `sort` given, checked against the form `field:1` / `field:-1`.
 */
export interface ListOrganizationInvitationsParams<
  IncludeTotals extends boolean | undefined = boolean,
  Sort extends string = OrganizationInvitationSort,
> {
  /** Page index, from 0. `(page + 1) * per_page` may not exceed 1000. */
  page?: number | undefined;
  /** Records per page, 1–100; default 50. */
  per_page?: number | undefined;
  /** Comma-separated field names to include (or exclude with `include_fields: false`); empty means all. */
  fields?: string | undefined;
  /** Whether `fields` lists the fields to include (`true`, the default) or to exclude. */
  include_fields?: boolean | undefined;
  /** `field:1` ascending or `field:-1` descending, e.g. `created_at:-1` (newest first, the default). */
  sort?:
    | (Sort extends OrganizationInvitationSort ? Sort : 'sort is field:1 (ascending) or field:-1 (descending), e.g. created_at:-1')
    | undefined;
  /** `true`: answer `{ start, limit, invitations }` instead of a plain array. */
  include_totals?: IncludeTotals | undefined;
}
type _ListParamsMatchSchema = Assert<IsExactly<ListOrganizationInvitationsParams, z.input<typeof ListOrganizationInvitationsParamsSchema>>>;

/** Parameters of `organizations.invitations.iterate`. */
export type IterateOrganizationInvitationsParams = z.input<typeof IterateOrganizationInvitationsParamsSchema>;

const SCOPE: Scope = 'read:organization_invitations';

/** `organizations.invitations`: the invitations of an organization. */
export class OrganizationInvitations {
  readonly #transport: Transport;

  /** @internal Built by `ManagementClient`. */
  constructor(transport: Transport) {
    this.#transport = transport;
  }

  /**
   * Lists one page of an organization's invitations (`GET /organizations/{id}/invitations`).
   * Returns an array, or `{ start, limit, invitations }` with `include_totals: true`.
   * The token needs the scope `read:organization_invitations`: a readable JWT without it throws `InsufficientScopeError` before sending.
   * The organization id is 1–50 characters; `page` starts at 0; `per_page` is 1–100, default 50.
   * The platform refuses pages past the first 1000 records: `(page + 1) * per_page` may not exceed 1000.
   * A broken rule throws `RequestValidationError`, and nothing is sent.
   * See {@link ListOrganizationInvitationsParams} for every parameter.
   */
  // One signature, not one per `include_totals` value: a mistake gets one short error, not one per overload.
  list<IncludeTotals extends boolean | undefined = undefined, Sort extends string = OrganizationInvitationSort>(
    organizationId: string,
    params?: ListOrganizationInvitationsParams<IncludeTotals, Sort>,
    options?: RequestOptions,
  ): Promise<IncludeTotals extends true ? OrganizationInvitationPage : OrganizationInvitation[]>;
  async list(
    organizationId: string,
    params: ListOrganizationInvitationsParams = {},
    options?: RequestOptions,
  ): Promise<OrganizationInvitation[] | OrganizationInvitationPage> {
    const id = validateParams(OrganizationIdSchema, organizationId);
    const query = validateParams(ListOrganizationInvitationsParamsSchema, params);
    return this.#transport.request<OrganizationInvitation[] | OrganizationInvitationPage>({
      method: 'GET',
      path: invitationsPathOf(id),
      query: { ...query, fields: query.fields || undefined },
      schema: query.include_totals ? OrganizationInvitationPageSchema : OrganizationInvitationListSchema,
      scope: SCOPE,
      options,
    });
  }

  /**
   * Iterates over all invitations of an organization, one page request at a time.
   * Pages are fetched as you read: stopping after five records costs one request.
   * The platform refuses pages past the first 1000 records.
   * After yielding those 1000, the iterator throws `PagingLimitError` if the server holds more.
   * With `onLimit: 'stop'` it stops quietly instead.
   * A broken parameter rule throws `RequestValidationError` from `iterate` itself, before any request.
   *
   * `onPage` is called after each completed page with `{ page, records, total?, limitReached }`.
   * To resume after a checkpoint, pass `page: checkpoint.page + 1`.
   * Keep the same `per_page`, `sort` and filters.
   * A resumed iteration reaches the same first 1000 records.
   *
   * A server may page otherwise than asked: more records than `per_page`, or another `start` or `limit`.
   * The iterator then throws `ResponseValidationError`, after yielding the records of the earlier pages.
   */
  iterate(
    organizationId: string,
    params: IterateOrganizationInvitationsParams = {},
    options?: RequestOptions,
  ): AsyncIterableIterator<OrganizationInvitation> {
    // The path is built here: an id `encodePath` refuses (`..`) fails the call, not its first `next()`.
    const path = invitationsPathOf(validateParams(OrganizationIdSchema, organizationId));
    const {
      onLimit = 'throw',
      per_page = DEFAULT_INVITATIONS_PER_PAGE,
      page,
      onPage,
      ...filters
    } = validateParams(IterateOrganizationInvitationsParamsSchema, params);
    return lazyIterator(({ iterateWindowedList }) =>
      iterateWindowedList<OrganizationInvitation>({
        window: PAGING_WINDOW,
        perPage: per_page,
        startPage: page,
        onPage,
        onLimit,
        filters,
        defaultSort: DEFAULT_INVITATIONS_SORT,
        fetchPage: (query) => this.#page(path, query, options),
      }),
    );
  }

  /**
   * One page for the iterator, asked with `include_totals=true` so that the answer's
   * `start` and `limit` say which page the server served. A plain array (a server that
   * ignores `include_totals`) is read too; only its length can then be checked.
   */
  async #page(path: string, query: WindowedPageQuery, options: RequestOptions | undefined): Promise<Page<OrganizationInvitation>> {
    const answer = await this.#transport.request({
      method: 'GET',
      path,
      query: { ...query, include_totals: true },
      schema: IteratedPageSchema,
      scope: SCOPE,
      options,
    });
    return Array.isArray(answer) ? { items: answer } : { items: answer.invitations, start: answer.start, limit: answer.limit };
  }
}

/** What an iterator's page request answers: the `include_totals` page, or a plain array from a server that ignores it. */
const IteratedPageSchema = z.union([OrganizationInvitationPageSchema, z.array(OrganizationInvitationSchema)]);

/** The path of an organization's invitations, `id` encoded (`RequestValidationError` for `.` and `..`). */
function invitationsPathOf(id: string): string {
  return encodePath`organizations/${id}/invitations`;
}
