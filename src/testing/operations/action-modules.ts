import { QueryReader } from '../query.js';
import { json, managementError } from '../responses.js';
import { MODULE_ACTIONS_PER_PAGE } from '../spec.js';
import type { Operation } from './operation.js';

// The platform documents neither the default nor the bounds of `per_page`, nor a paging
// window. The emulator uses the client's (1–100, default 50) and no window.

/**
 * `GET /actions/modules/{id}/actions`: answers `{ actions, total, page, per_page }`.
 * The actions come in the order the usages were added.
 * The platform documents no scope; the emulator requires `read:actions`.
 * `page` is an integer ≥ 0 (default 0), and `per_page` an integer 1–100 (default 50).
 * Other or repeated parameters, and broken rules, give 400 `invalid_query_string`.
 * An unknown module gives 404 `No module found by that id`, errorCode `inexistent_module`.
 */
export const listModuleActions: Operation = {
  method: 'GET',
  path: '/actions/modules/{id}/actions',
  scope: 'read:actions',
  handle: ({ url, params, store }) => {
    const query = new QueryReader(url.searchParams, ['page', 'per_page']);
    const page = query.integer('page', { min: 0 }, 0);
    const perPage = query.integer(
      'per_page',
      { min: MODULE_ACTIONS_PER_PAGE.min, max: MODULE_ACTIONS_PER_PAGE.max },
      MODULE_ACTIONS_PER_PAGE.default,
    );
    if (query.issues.length > 0) return managementError(400, query.message, 'invalid_query_string');
    const actions = store.actionsOf(params.id ?? '');
    if (actions === undefined) return managementError(404, 'No module found by that id', 'inexistent_module');
    const start = page * perPage;
    return json({ actions: actions.slice(start, start + perPage), total: actions.length, page, per_page: perPage });
  },
};
