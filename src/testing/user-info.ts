import { authenticationError, json } from './responses.js';
import type { AccessTokens } from './tokens.js';

/**
 * `GET /userinfo`, authenticated with an OAuth2 access token: answers `{ sub }`.
 * The bearer token must be one the emulator issued to this origin.
 * That is signed by it, unexpired, with `iss` `{origin}/` and `aud` `{origin}/api/v2/`.
 * The emulator issues client-credentials tokens only, so `sub` is `{clientId}@clients` and there are no profile claims.
 * Any other token is 401 `invalid_token` with `WWW-Authenticate: Bearer`; methods other than GET are 405.
 */
export async function handleUserInfo(request: Request, origin: string, tokens: AccessTokens): Promise<Response> {
  if (request.method !== 'GET') {
    return authenticationError(405, 'invalid_request', 'The userinfo endpoint accepts GET requests only', { allow: 'GET' });
  }
  const match = /^bearer +([^\s]+)$/i.exec(request.headers.get('authorization')?.trim() ?? '');
  if (match?.[1] === undefined) return unauthorized('Missing or malformed bearer token');
  const check = await tokens.verify(match[1], { issuer: `${origin}/`, audience: `${origin}/api/v2/` });
  if (!check.ok) return unauthorized(check.message, check.hint);
  return json({ sub: check.subject }, 200, { 'cache-control': 'no-store' });
}

function unauthorized(message: string, hint?: string): Response {
  // The hint goes in the body only: it holds quotes, which a quoted header parameter cannot.
  return authenticationError(401, 'invalid_token', hint === undefined ? message : `${message}: ${hint}`, {
    'www-authenticate': `Bearer error="invalid_token", error_description="${message}"`,
  });
}
