import { authenticateClient, type ClientAuthenticationContext } from './client-authentication.js';
import { isBodyProblem, readRequestBody } from './request-body.js';
import { authenticationError, json } from './responses.js';
import type { AccessTokens } from './tokens.js';

/** What the token endpoint needs besides the request. */
export interface TokenEndpointContext extends ClientAuthenticationContext {
  readonly tokens: AccessTokens;
  /** `expires_in` of issued tokens, in seconds. */
  readonly tokenLifetimeSeconds: number;
}

const NO_STORE = { 'cache-control': 'no-store', pragma: 'no-cache' };

/**
 * `POST /oauth/token`: the client-credentials grant, with a form (`application/x-www-form-urlencoded`) or JSON body.
 * The client authenticates with `client_secret_post`, `client_secret_basic` or `private_key_jwt`.
 * `audience` must be `{origin}/api/v2/`; an optional `scope` narrows the client's granted scopes.
 * Answers `{ access_token, token_type: 'Bearer', expires_in, scope }`, or `{ error, error_description }`.
 * The errors are 400 `invalid_request` or `unsupported_grant_type`, 401 `invalid_client` and 403 `access_denied`.
 * A 403 for another audience names the expected one and the likely mistake.
 * Methods other than POST are 405.
 */
export async function handleTokenRequest(request: Request, origin: string, context: TokenEndpointContext): Promise<Response> {
  if (request.method !== 'POST') {
    return authenticationError(405, 'invalid_request', 'The token endpoint accepts POST requests only', { allow: 'POST' });
  }
  const params = await readParams(request);
  if (typeof params === 'string') return authenticationError(400, 'invalid_request', params);

  const grantType = params.get('grant_type');
  if (grantType === undefined || grantType === '')
    return authenticationError(400, 'invalid_request', 'Missing required parameter: grant_type');
  if (grantType !== 'client_credentials') {
    return authenticationError(
      400,
      'unsupported_grant_type',
      `Unsupported grant type: ${grantType} (the emulator supports client_credentials)`,
    );
  }

  const authenticated = await authenticateClient(request, params, origin, context);
  if (authenticated instanceof Response) return authenticated;
  const { client } = authenticated;

  const audience = params.get('audience');
  const managementAudience = `${origin}/api/v2/`;
  if (audience === undefined || audience === '') {
    return authenticationError(403, 'access_denied', 'No audience parameter was provided, and no default audience has been configured');
  }
  if (audience !== managementAudience) return authenticationError(403, 'access_denied', unknownAudience(audience, origin));

  const requested = (params.get('scope') ?? '').split(' ').filter(Boolean);
  const notGranted = requested.filter((scope) => !client.scopes.includes(scope));
  if (notGranted.length > 0)
    return authenticationError(403, 'access_denied', `Client has not been granted scopes: ${notGranted.join(', ')}`);
  const scopes = requested.length > 0 ? requested : client.scopes;

  const accessToken = await context.tokens.issue({
    issuer: `${origin}/`,
    audience: managementAudience,
    clientId: client.clientId,
    scopes,
    lifetimeSeconds: context.tokenLifetimeSeconds,
  });
  return json(
    { access_token: accessToken, token_type: 'Bearer', expires_in: context.tokenLifetimeSeconds, scope: scopes.join(' ') },
    200,
    NO_STORE,
  );
}

/**
 * Why `audience` is refused, with the Management API's audience and the likely
 * cause. A client given `baseUrl` asks for `{baseUrl}/` by default, so a base URL
 * without `/api/v2` shows up here first, as the audience `{origin}/`.
 */
function unknownAudience(audience: string, origin: string): string {
  const expected = `${origin}/api/v2/`;
  const refusal = `audience "${audience}" is not an API of this tenant; the Management API's audience is "${expected}"`;
  let url: URL | undefined;
  try {
    url = new URL(audience);
  } catch {
    return refusal;
  }
  if (url.origin !== origin) return refusal;
  if (url.pathname === '/') return `${refusal} (is baseUrl missing /api/v2?)`;
  if (url.pathname === '/api/v2') return `${refusal} (with the trailing slash)`;
  // `{baseUrl}/` is the client's default audience: name the base URL it came from.
  return `${refusal} (is baseUrl "${audience.replace(/\/+$/, '')}" right? The Management API is at ${origin}/api/v2)`;
}

/** The request's parameters, or why they cannot be read. Each parameter may appear once (RFC 6749 §3.2); JSON values must be strings. */
async function readParams(request: Request): Promise<Map<string, string> | string> {
  const body = await readRequestBody(request);
  if (isBodyProblem(body)) return body.problem;
  const params = new Map<string, string>();
  if (body.kind === 'form') {
    for (const [name, value] of body.value) {
      if (params.has(name)) return `Parameter "${name}" was sent more than once`;
      params.set(name, value);
    }
  } else if (body.kind === 'json') {
    const { value } = body;
    if (typeof value !== 'object' || value === null || Array.isArray(value)) return 'The JSON body must be an object';
    for (const [name, entry] of Object.entries(value)) {
      if (typeof entry !== 'string') return `Parameter "${name}" must be a string`;
      params.set(name, entry);
    }
  }
  return params;
}
