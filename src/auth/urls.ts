import * as z from 'zod/mini';
import type { TokenEndpointAuthMethod } from '../core/client-authentication/types.js';
import { ConfigurationError } from '../core/errors.js';
import { encodePath } from '../core/path.js';
import { validateParams } from '../core/validation.js';
import { checkUrlValue } from '../core/well-formed.js';

/** The `response_type` values `/authorize` takes: the code flow, the implicit flow, and their hybrids. */
export const RESPONSE_TYPES = [
  'code',
  'token',
  'id_token',
  'id_token token',
  'code id_token',
  'code token',
  'code id_token token',
] as const;

/** Parameters of `authorizeUrl`. */
export const AuthorizeUrlSchema = z
  .strictObject({
    /** Where the platform sends the user back; must be registered for the application. */
    redirect_uri: z.url({ error: 'redirect_uri must be an absolute URL' }),
    /** Default `code`; `token` (or `id_token token`) is the implicit grant. */
    response_type: z.optional(z.enum(RESPONSE_TYPES, `response_type must be one of: ${RESPONSE_TYPES.join(', ')}`)),
    /** `query`, `fragment` or `form_post`. */
    response_mode: z.optional(z.enum(['query', 'fragment', 'form_post'], "response_mode must be 'query', 'fragment' or 'form_post'")),
    /** Default `openid profile email`. */
    scope: z.optional(z.string()),
    audience: z.optional(z.string()),
    /** An opaque value to check on return (CSRF protection). */
    state: z.optional(z.string()),
    /** Binds the ID token to this request; required when an ID token is issued by the implicit flow. */
    nonce: z.optional(z.string()),
    /** From `createPkcePair()`; sent with `code_challenge_method=S256`. */
    code_challenge: z.optional(
      z.string().check(z.regex(/^[A-Za-z0-9_-]{43}$/, 'code_challenge must be a base64url SHA-256 digest (43 characters)')),
    ),
    organization: z.optional(z.string()),
    invitation: z.optional(z.string()),
    connection: z.optional(z.string()),
    prompt: z.optional(
      z.enum(['none', 'login', 'consent', 'select_account'], "prompt must be 'none', 'login', 'consent' or 'select_account'"),
    ),
    max_age: z.optional(z.int().check(z.nonnegative())),
    login_hint: z.optional(z.string()),
    ui_locales: z.optional(z.string()),
  })
  .check(
    z.refine((params) => !(params.response_type ?? 'code').includes('id_token') || params.nonce !== undefined, {
      message: 'a response_type that returns an id_token needs a `nonce`',
      path: ['nonce'],
    }),
  );

/** Parameters of `logoutUrl`. */
export const LogoutUrlSchema = z.strictObject({
  /** Where to send the user after logout; must be an allowed logout URL. */
  returnTo: z.optional(z.url({ error: 'returnTo must be an absolute URL' })),
  /** Also log the user out of the identity provider they came from. */
  federated: z.optional(z.boolean()),
});

/** Parameters of `authorizeUrl`. */
export type AuthorizeUrlParams = z.input<typeof AuthorizeUrlSchema>;
/** Parameters of `logoutUrl`. */
export type LogoutUrlParams = z.input<typeof LogoutUrlSchema>;

/**
 * `{origin}/authorize?…` for the code flow (default) or the implicit flow
 * (`response_type: 'token'`). A public client (client id only) must send a PKCE
 * `code_challenge` with any response type that returns a code.
 */
export function buildAuthorizeUrl(origin: string, clientId: string, method: TokenEndpointAuthMethod, params: AuthorizeUrlParams): string {
  const { code_challenge, response_type = 'code', scope = 'openid profile email', ...rest } = validateParams(AuthorizeUrlSchema, params);
  if (method === 'none' && response_type.includes('code') && code_challenge === undefined) {
    throw new ConfigurationError('A public client (client id only) must use PKCE: pass the `code_challenge` from createPkcePair()');
  }
  const url = new URL('/authorize', origin);
  const query = {
    client_id: clientId,
    response_type,
    scope,
    ...rest,
    ...(code_challenge && { code_challenge, code_challenge_method: 'S256' }),
  };
  for (const [name, value] of Object.entries(query)) {
    if (value === undefined) continue;
    if (typeof value === 'string') checkUrlValue([name], value); // a lone surrogate would silently become U+FFFD
    url.searchParams.set(name, String(value));
  }
  return url.href;
}

/** `{origin}/v2/logout?client_id=…&returnTo=…` (and `federated` when asked). */
export function buildLogoutUrl(origin: string, clientId: string, params: LogoutUrlParams = {}): string {
  const { returnTo, federated } = validateParams(LogoutUrlSchema, params);
  if (returnTo !== undefined) checkUrlValue(['returnTo'], returnTo);
  const url = new URL('/v2/logout', origin);
  url.searchParams.set('client_id', clientId);
  if (returnTo !== undefined) url.searchParams.set('returnTo', returnTo);
  if (federated) url.searchParams.set('federated', '');
  return url.href;
}

/** `{origin}/samlp/{clientId}` (IdP-initiated SAML), `connection` optional. */
export function buildSamlUrl(origin: string, clientId: string, params: { connection?: string | undefined } = {}): string {
  const url = new URL(`/${encodePath`samlp/${clientId}`}`, origin);
  if (params.connection !== undefined) checkUrlValue(['connection'], params.connection);
  if (params.connection !== undefined) url.searchParams.set('connection', params.connection);
  return url.href;
}

/** `{origin}/wsfed/{clientId}` (WS-Federation), with optional `wctx` and `wreply`. */
export function buildWsfedUrl(
  origin: string,
  clientId: string,
  params: { wctx?: string | undefined; wreply?: string | undefined } = {},
): string {
  const url = new URL(`/${encodePath`wsfed/${clientId}`}`, origin);
  for (const [name, value] of Object.entries(params)) {
    if (value === undefined) continue;
    checkUrlValue([name], value);
    url.searchParams.set(name, value);
  }
  return url.href;
}
