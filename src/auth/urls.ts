import type { TokenEndpointAuthMethod } from '../core/client-authentication/types.js';
import { ConfigurationError, RequestValidationError } from '../core/errors.js';
import { encodePath } from '../core/path.js';
import { checkUrlValue } from '../core/well-formed.js';
import { anyText, checkUrlParams, flag, matching, navigationUrl, oneOf, type UrlParamRule, wholeNumber } from './url-params.js';

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

/** A `response_type` of `/authorize`. */
export type ResponseType = (typeof RESPONSE_TYPES)[number];

/** Parameters of `authorizeUrl`. */
export interface AuthorizeUrlParams {
  /** Where the platform sends the user back (an absolute URL); must be registered for the application. */
  redirect_uri: string;
  /** Default `code`; `token` (or `id_token token`) is the implicit grant. */
  response_type?: ResponseType | undefined;
  /** `query`, `fragment` or `form_post`. */
  response_mode?: 'query' | 'fragment' | 'form_post' | undefined;
  /** Default `openid profile email`. */
  scope?: string | undefined;
  /** The API the access token is for. */
  audience?: string | undefined;
  /** An opaque value to check on return (CSRF protection). */
  state?: string | undefined;
  /** Binds the ID token to this request; required when the response type returns an ID token. */
  nonce?: string | undefined;
  /** From `createPkcePair()` (43 base64url characters); sent with `code_challenge_method=S256`. */
  code_challenge?: string | undefined;
  /** The organization to log in to. */
  organization?: string | undefined;
  /** An organization invitation's ticket id. */
  invitation?: string | undefined;
  /** The connection to log in with, skipping the login page's choice. */
  connection?: string | undefined;
  /** `none`, `login`, `consent` or `select_account`. */
  prompt?: 'none' | 'login' | 'consent' | 'select_account' | undefined;
  /** The longest time in seconds since the user last authenticated (an integer >= 0). */
  max_age?: number | undefined;
  /** A hint of the user's login name. */
  login_hint?: string | undefined;
  /** The user's preferred languages, space-separated. */
  ui_locales?: string | undefined;
}

/** Parameters of `logoutUrl`. */
export interface LogoutUrlParams {
  /** Where to send the user after logout (an absolute URL); must be an allowed logout URL. */
  returnTo?: string | undefined;
  /** Also log the user out of the identity provider they came from. */
  federated?: boolean | undefined;
}

/** The rules of {@link AuthorizeUrlParams}, checked before the URL is built. */
const AUTHORIZE_URL_RULES: Readonly<Record<keyof AuthorizeUrlParams, UrlParamRule>> = {
  redirect_uri: navigationUrl('redirect_uri must be an absolute URL without a fragment, not javascript:, data: or file:', {
    required: true,
    fragment: false,
  }),
  response_type: oneOf(RESPONSE_TYPES, `response_type must be one of: ${RESPONSE_TYPES.join(', ')}`),
  response_mode: oneOf(['query', 'fragment', 'form_post'], "response_mode must be 'query', 'fragment' or 'form_post'"),
  scope: anyText('scope'),
  audience: anyText('audience'),
  state: anyText('state'),
  nonce: anyText('nonce'),
  code_challenge: matching(/^[A-Za-z0-9_-]{43}$/, 'code_challenge must be a base64url SHA-256 digest (43 characters)'),
  organization: anyText('organization'),
  invitation: anyText('invitation'),
  connection: anyText('connection'),
  prompt: oneOf(['none', 'login', 'consent', 'select_account'], "prompt must be 'none', 'login', 'consent' or 'select_account'"),
  max_age: wholeNumber('max_age'),
  login_hint: anyText('login_hint'),
  ui_locales: anyText('ui_locales'),
};

/** The rules of {@link LogoutUrlParams}. */
const LOGOUT_URL_RULES: Readonly<Record<keyof LogoutUrlParams, UrlParamRule>> = {
  returnTo: navigationUrl('returnTo must be an absolute URL, not javascript:, data: or file:'),
  federated: flag('federated'),
};

/**
 * {@link AuthorizeUrlParams} checked: each rule, then that a response type returning
 * an ID token has a `nonce`, and that one returning a token is not asked for in the
 * query (OAuth 2.0 Multiple Response Type Encoding Practices, 2.1: tokens in a query
 * end up in server logs and `Referer` headers).
 */
function checkAuthorizeUrlParams(params: unknown): AuthorizeUrlParams {
  const checked = checkUrlParams<AuthorizeUrlParams>(AUTHORIZE_URL_RULES, params);
  const responseType = checked.response_type ?? 'code';
  if (responseType.includes('id_token') && checked.nonce === undefined) {
    throw new RequestValidationError([
      { code: 'custom', path: ['nonce'], message: 'a response_type that returns an id_token needs a `nonce`' },
    ]);
  }
  if (checked.response_mode === 'query' && responseType !== 'code') {
    throw new RequestValidationError([
      {
        code: 'custom',
        path: ['response_mode'],
        message: "response_mode 'query' is for response_type 'code' only: tokens in a query string leak into logs",
      },
    ]);
  }
  return checked;
}

/**
 * `{origin}/authorize?…` for the code flow (default) or the implicit flow
 * (`response_type: 'token'`). A public client (client id only) must send a PKCE
 * `code_challenge` with any response type that returns a code.
 */
export function buildAuthorizeUrl(origin: string, clientId: string, method: TokenEndpointAuthMethod, params: AuthorizeUrlParams): string {
  const { code_challenge, response_type = 'code', scope = 'openid profile email', ...rest } = checkAuthorizeUrlParams(params);
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
  const { returnTo, federated } = checkUrlParams<LogoutUrlParams>(LOGOUT_URL_RULES, params);
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
