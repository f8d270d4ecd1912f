import { listModuleActions } from './operations/action-modules.js';
import { listInvitations } from './operations/invitations.js';
import type { Operation } from './operations/operation.js';
import { getPhoneMessageTypes, setPhoneMessageTypes } from './operations/phone-message-types.js';

/** The Management API operations the emulator serves. */
export const OPERATIONS: readonly Operation[] = [listInvitations, listModuleActions, getPhoneMessageTypes, setPhoneMessageTypes];

/** Where a Management API path leads. */
export type RouteMatch =
  | { readonly kind: 'operation'; readonly operation: Operation; readonly params: Readonly<Record<string, string>> }
  | { readonly kind: 'method-not-allowed'; readonly allow: readonly string[] }
  | { readonly kind: 'not-found' }
  | { readonly kind: 'bad-path'; readonly message: string };

const ROUTES = OPERATIONS.map((operation) => ({ operation, template: operation.path.split('/').slice(1) }));

/**
 * Finds the operation for `method` and `path` (below `/api/v2`, as sent). Each path
 * segment is percent-decoded once, so `a%2Fb` is the id `a/b` and `%252F` the id `%2F`.
 */
export function matchRoute(method: string, path: string): RouteMatch {
  let segments: string[];
  try {
    segments = path.split('/').slice(1).map(decodeURIComponent);
  } catch {
    return { kind: 'bad-path', message: 'Path validation error: malformed percent-encoding' };
  }
  const allow: string[] = [];
  for (const { operation, template } of ROUTES) {
    const params = matchTemplate(template, segments);
    if (params === undefined) continue;
    if (operation.method === method) return { kind: 'operation', operation, params };
    allow.push(operation.method);
  }
  return allow.length > 0 ? { kind: 'method-not-allowed', allow } : { kind: 'not-found' };
}

function matchTemplate(template: readonly string[], segments: readonly string[]): Record<string, string> | undefined {
  if (template.length !== segments.length) return undefined;
  const params: Record<string, string> = {};
  for (const [index, part] of template.entries()) {
    const segment = segments[index] ?? '';
    if (part.startsWith('{') && part.endsWith('}')) {
      if (segment === '') return undefined;
      params[part.slice(1, -1)] = segment;
    } else if (part !== segment) {
      return undefined;
    }
  }
  return params;
}
