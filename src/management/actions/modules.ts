import * as z from 'zod/mini';
import type { RequestOptions } from '../../core/options.js';
import { lazyIterator, OnPageSchema, PageSchema, PerPageSchema } from '../../core/paging.js';
import { encodePath } from '../../core/path.js';
import type { Transport } from '../../core/transport.js';
import type { Assert, IsExactly, KnownMembers } from '../../core/type-checks.js';
import { validateParams } from '../../core/validation.js';

// ── Response schemas ─────────────────────────────────────────────────────────
// The platform does not document which fields are required, nor the values of
// `status` and the runtime names. So every field is optional but typed, and
// unknown fields are kept: the platform adds fields over time.

/** A trigger an action version supports. Every field is optional: the platform does not document which are required. */
export const ActionTriggerSchema = z.looseObject({
  /** The trigger's id, e.g. `post-login`. The platform sends it, though its API reference does not list it. */
  id: z.optional(z.string()),
  version: z.optional(z.string()),
  status: z.optional(z.string()),
  runtimes: z.optional(z.array(z.string())),
  default_runtime: z.optional(z.string()),
  compatible_triggers: z.optional(z.array(z.looseObject({ id: z.optional(z.string()), version: z.string() }))),
});

/** One deployed action version that uses the module. Every field is optional: the platform does not document which are required. */
export const ActionModuleUsageSchema = z.looseObject({
  action_id: z.optional(z.string()),
  action_name: z.optional(z.string()),
  module_version_id: z.optional(z.string()),
  module_version_number: z.optional(z.int()),
  supported_triggers: z.optional(z.array(ActionTriggerSchema)),
});

/**
 * The answer of `GET /actions/modules/{id}/actions`: `{ actions, total, page, per_page }`.
 * `actions` holds the records and is required.
 * `total`, `page` and `per_page` are read when present; the platform marks none of them required.
 * `page` and `per_page` only echo the request.
 */
export const ActionModuleUsagePageSchema = z.looseObject({
  actions: z.array(ActionModuleUsageSchema),
  total: z.optional(z.number()),
  page: z.optional(z.number()),
  per_page: z.optional(z.number()),
});

/** A trigger an action version supports. Members the platform adds are kept at run time, not typed. */
export interface ActionTrigger {
  /** The trigger's id, e.g. `post-login`. */
  id?: string | undefined;
  version?: string | undefined;
  status?: string | undefined;
  runtimes?: string[] | undefined;
  default_runtime?: string | undefined;
  compatible_triggers?: { id?: string | undefined; version: string }[] | undefined;
}

/** One deployed action version that uses a module. Members the platform adds are kept at run time, not typed. */
export interface ActionModuleUsage {
  action_id?: string | undefined;
  action_name?: string | undefined;
  module_version_id?: string | undefined;
  module_version_number?: number | undefined;
  supported_triggers?: ActionTrigger[] | undefined;
}

/** One page of the actions that use a module. */
export interface ActionModuleUsagePage {
  actions: ActionModuleUsage[];
  /** How many actions use the module in all (absent when the server leaves it out). */
  total?: number | undefined;
  /** The page index the server served (absent when the server leaves it out). */
  page?: number | undefined;
  /** The page size the server used (absent when the server leaves it out). */
  per_page?: number | undefined;
}

type _TriggerMatchesSchema = Assert<IsExactly<ActionTrigger, KnownMembers<z.infer<typeof ActionTriggerSchema>>>>;
type _UsageMatchesSchema = Assert<IsExactly<ActionModuleUsage, KnownMembers<z.infer<typeof ActionModuleUsageSchema>>>>;
type _UsagePageMatchesSchema = Assert<IsExactly<ActionModuleUsagePage, KnownMembers<z.infer<typeof ActionModuleUsagePageSchema>>>>;

// ── Parameter rules ──────────────────────────────────────────────────────────

/**
 * Records per page when `per_page` is not given to the iterator: 50.
 * The platform documents no default or bounds of `per_page` for this endpoint.
 * The client uses the platform's usual ones for list endpoints: 1–100, default 50.
 */
export const DEFAULT_MODULE_ACTIONS_PER_PAGE = 50;

/** A module id: a non-empty string. */
export const ActionModuleIdSchema = z
  .string({ error: (issue) => (issue.input === undefined ? 'moduleId is required' : 'moduleId must be a string') })
  .check(z.minLength(1, 'module id must not be empty'));

const perPage = {
  /** Records per page, 1–100: the platform's usual bounds, since none are documented for this endpoint. */
  per_page: z.optional(PerPageSchema),
};

/** Query of `GET /actions/modules/{id}/actions`. */
export const ListModuleActionsParamsSchema = z.strictObject({
  ...perPage,
  /** Page index, from 0. */
  page: z.optional(PageSchema),
});

/** Parameters of `actions.modules.iterateActions`. */
export const IterateModuleActionsParamsSchema = z.strictObject({
  ...perPage,
  /** The page (of `per_page` records) to start at, to resume: an `onPage` checkpoint's `page + 1`. Default 0. */
  page: z.optional(PageSchema),
  /** Called after each completed page with `{ page, records, total, limitReached: false }`, for progress and checkpoints. */
  onPage: z.optional(OnPageSchema),
});

/** Query of `GET /actions/modules/{id}/actions`. */
export type ListModuleActionsParams = z.input<typeof ListModuleActionsParamsSchema>;
/** Parameters of `actions.modules.iterateActions`. */
export type IterateModuleActionsParams = z.input<typeof IterateModuleActionsParamsSchema>;

/** `actions.modules`: the actions that use an actions module. */
export class ActionModules {
  readonly #transport: Transport;

  /** @internal Built by `ManagementClient`. */
  constructor(transport: Transport) {
    this.#transport = transport;
  }

  /**
   * Lists one page of the deployed action versions that use a module (`GET /actions/modules/{id}/actions`).
   * Returns `{ actions, total, page, per_page }`.
   * The module id must not be empty; `page` starts at 0; `per_page` is 1–100.
   * A broken rule throws `RequestValidationError`, and nothing is sent.
   * The platform documents no scope for this endpoint, so the client checks none before sending.
   * The platform grants action reads with `read:actions`, and answers 403 (`ForbiddenError`) without it.
   */
  async listActions(moduleId: string, params: ListModuleActionsParams = {}, options?: RequestOptions): Promise<ActionModuleUsagePage> {
    const path = actionsPathOf(moduleId);
    return this.#page(path, validateParams(ListModuleActionsParamsSchema, params), options);
  }

  /** One page, its parameters already checked. */
  #page(path: string, query: ListModuleActionsParams, options: RequestOptions | undefined): Promise<ActionModuleUsagePage> {
    return this.#transport.request({
      method: 'GET',
      path,
      query,
      schema: ActionModuleUsagePageSchema,
      options,
    });
  }

  /**
   * Iterates over every action version that uses a module, one page request at a time.
   * Pages hold 50 records unless `per_page` says otherwise, and are fetched as you read.
   * The iteration ends once `total` records are yielded, without an extra empty request.
   * `onPage` is called after each completed page with `{ page, records, total }`.
   * To resume after a checkpoint, pass `page: checkpoint.page + 1` with the same `per_page`.
   *
   * A server may page otherwise than asked: more records than `per_page`, another `page` or `per_page`, or records that contradict its `total`.
   * The iterator then throws `ResponseValidationError`, after yielding the records of the earlier pages.
   */
  iterateActions(
    moduleId: string,
    params: IterateModuleActionsParams = {},
    options?: RequestOptions,
  ): AsyncIterableIterator<ActionModuleUsage> {
    // The path is built here: an id `encodePath` refuses (`..`) fails the call, not its first `next()`.
    const path = actionsPathOf(moduleId);
    const { per_page = DEFAULT_MODULE_ACTIONS_PER_PAGE, page, onPage } = validateParams(IterateModuleActionsParamsSchema, params);
    return lazyIterator(({ iterateCountedList }) =>
      iterateCountedList<ActionModuleUsage>({
        perPage: per_page,
        startPage: page,
        onPage,
        fetchPage: async (page) => {
          const answer = await this.#page(path, { page, per_page }, options);
          return { items: answer.actions, total: answer.total, page: answer.page, per_page: answer.per_page };
        },
      }),
    );
  }
}

/** The path of a module's actions, `moduleId` checked (`RequestValidationError`) and encoded. */
function actionsPathOf(moduleId: string): string {
  return encodePath`actions/modules/${validateParams(ActionModuleIdSchema, moduleId)}/actions`;
}
