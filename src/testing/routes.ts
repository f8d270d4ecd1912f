import { authorizeManagementRequest } from './management-auth.js';
import { listModuleActions } from './operations/action-modules.js';
import { listInvitations } from './operations/invitations.js';
import type { Operation } from './operations/operation.js';
import { getPhoneMessageTypes, setPhoneMessageTypes } from './operations/phone-message-types.js';
import { type ApiKind, authenticationError, json, managementError } from './responses.js';
import type { TenantStore } from './store.js';
import { handleTokenRequest, type TokenEndpointContext } from './token-endpoint.js';
import type { AccessTokens } from './tokens.js';
import { handleUserInfo } from './user-info.js';

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

/**
 * The 404 message of a path outside `/api/v2` that the emulator does not serve.
 * It names the whole URL, so a client's wrong base URL shows.
 * A Management API path sent without `/api/v2` (a `baseUrl` of only the origin) gets the base URL it needed.
 */
function notServed(method: string, url: URL): string {
  const { kind } = matchRoute(method, url.pathname);
  const managementPath = kind === 'operation' || kind === 'method-not-allowed';
  const help = managementPath
    ? `the Management API is at ${url.origin}/api/v2 (is baseUrl missing /api/v2?)`
    : `it serves the Management API at ${url.origin}/api/v2 and /oauth/token, /userinfo, /.well-known/jwks.json`;
  return `The emulator does not serve ${method} ${url.origin}${url.pathname}; ${help}`;
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

/** What routing a request needs: the request, its API, and the tenant's token endpoint, signing keys and data. */
export interface RouteContext {
  readonly request: Request;
  readonly url: URL;
  readonly api: ApiKind;
  readonly tokenEndpoint: TokenEndpointContext;
  readonly tokens: AccessTokens;
  readonly store: TenantStore;
}

/**
 * Answers one request that passed the rate limit and the scripted faults.
 * It serves the token endpoint, the JWKS, `/userinfo`, and the Management API operations after their bearer and scope checks.
 * An unknown Authentication API path gets 404 `not_found`, naming the URL.
 * The message also names `/api/v2` when the path is a Management API path without it.
 * An unknown Management API path gets 404 `Not Found`; a known path with another method gets 405 with `Allow`.
 * A malformed percent-encoding in a Management API path gets 400 `invalid_uri`.
 */
export async function route({ request, url, api, tokenEndpoint, tokens, store }: RouteContext): Promise<Response> {
  if (url.pathname === '/oauth/token' || url.pathname === '/oauth/token/') {
    return handleTokenRequest(request, url.origin, tokenEndpoint);
  }
  if (url.pathname === '/.well-known/jwks.json' && request.method === 'GET') return json(await tokens.jwks());
  if (url.pathname === '/userinfo') return handleUserInfo(request, url.origin, tokens);
  if (api === 'authentication') return authenticationError(404, 'not_found', notServed(request.method, url));
  const match = matchRoute(request.method, url.pathname.slice('/api/v2'.length));
  switch (match.kind) {
    case 'not-found':
      return managementError(404, 'Not Found', 'not_found');
    case 'bad-path':
      return managementError(400, match.message, 'invalid_uri');
    case 'method-not-allowed':
      return managementError(405, `${request.method} is not allowed here; use ${match.allow.join(' or ')}`, 'method_not_allowed', {
        allow: match.allow.join(', '),
      });
    case 'operation': {
      const { operation, params } = match;
      const refused = await authorizeManagementRequest(request, url.origin, operation.scope, tokens);
      return refused ?? operation.handle({ request, url, params, store });
    }
  }
}
