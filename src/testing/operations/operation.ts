import type { TenantStore } from '../store.js';

/** What an operation sees of a request: the request, its URL, the decoded path parameters and the data. */
export interface OperationContext {
  readonly request: Request;
  readonly url: URL;
  /** Path parameters, percent-decoded once, e.g. `{ id: 'org_big' }`. */
  readonly params: Readonly<Record<string, string>>;
  readonly store: TenantStore;
}

/** One Management API operation: its route, required scope and handler (called after the bearer and scope checks). */
export interface Operation {
  readonly method: 'GET' | 'PUT';
  /** The path below `/api/v2`, with `{name}` for parameters, e.g. `/organizations/{id}/invitations`. */
  readonly path: string;
  /** The scope the token must hold. */
  readonly scope: string;
  handle(context: OperationContext): Response | Promise<Response>;
}
