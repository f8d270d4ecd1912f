import { managementError } from './responses.js';
import type { AccessTokens } from './tokens.js';

/**
 * The Management API's bearer check, as the platform documents it.
 * The `Authorization: Bearer` JWT must be signed by the emulator, unexpired, issued by `{origin}/` for `{origin}/api/v2/`, and hold `scope`.
 * When the check fails, this answers the error response.
 * That is 401 with errorCode `invalid_token`, or 403 `Insufficient scope, expected any of: <scope>` with errorCode `insufficient_scope`.
 * The 401 messages are `Missing authentication`, `Bad HTTP authentication header format`, `Invalid token`,
 * `Invalid signature`, `Expired token`, `Bad audience` and `Bad issuer`.
 * `Bad issuer` is followed by the origin to pass to `createAccessToken`.
 */
export async function authorizeManagementRequest(
  request: Request,
  origin: string,
  scope: string,
  tokens: AccessTokens,
): Promise<Response | undefined> {
  const authorization = request.headers.get('authorization');
  if (authorization === null || authorization.trim() === '') return unauthorized('Missing authentication');
  const match = /^bearer +([^\s]+)$/i.exec(authorization.trim());
  if (match?.[1] === undefined) return unauthorized('Bad HTTP authentication header format');
  const check = await tokens.verify(match[1], { issuer: `${origin}/`, audience: `${origin}/api/v2/` });
  if (!check.ok) return unauthorized(check.message, check.hint);
  if (!check.scopes.includes(scope)) {
    return managementError(403, `Insufficient scope, expected any of: ${scope}`, 'insufficient_scope');
  }
  return undefined;
}

function unauthorized(message: string, hint?: string): Response {
  // The hint goes in the body only: it holds quotes, which a quoted header parameter cannot.
  return managementError(401, hint === undefined ? message : `${message}: ${hint}`, 'invalid_token', {
    'www-authenticate': `Bearer error="invalid_token", error_description="${message}"`,
  });
}
