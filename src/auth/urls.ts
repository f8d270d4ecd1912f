import { ConfigurationError, RequestValidationError } from '../core/errors.js';
import { checkUrlValue, encodePath } from '../core/path.js';
import type { TokenEndpointAuthMethod } from '../core/tokens/client-authentication/types.js';
import {
  anyText,
  checkUrlParams,
  flag,
  listOf,
  matching,
  navigationUrl,
  oneOf,
  REDIRECT_URI_RULE,
  type UrlParamRule,
  wholeNumber,
} from './url-params.js';

/**
 * The `response_type` values `/authorize` takes: the code flow, the implicit flow, and their hybrids.
 * Each list appears in every order, since the order does not matter (OAuth 2.0 Multiple Response Type Encoding Practices, 5).
 * So `token id_token` is `id_token token`.
 * At run time the value is checked as a set of values.
 */
export const RESPONSE_TYPES = [
  'code',
  'token',
  'id_token',
  'id_token token',
  'token id_token',
  'code id_token',
  'id_token code',
  'code token',
  'token code',
  'code id_token token',
  'code token id_token',
  'id_token code token',
  'id_token token code',
  'token code id_token',
  'token id_token code',
] as const;

/** A `response_type` of `/authorize`: `code`, `token`, `id_token`, or several of them space-separated in any order. */
export type ResponseType = (typeof RESPONSE_TYPES)[number];

/** The values a `response_type` lists. */
const RESPONSE_TYPE_VALUES = ['code', 'token', 'id_token'];

/** The `prompt` values that can be combined (OpenID Connect Core 3.1.2.1); `none` stands alone. */
const PROMPT_VALUES = ['login', 'consent', 'select_account'];

/** A `prompt` of `/authorize`: `none` alone, or `login`, `consent` and `select_account` space-separated in any order. */
export type Prompt =
  | 'none'
  | 'login'
  | 'consent'
  | 'select_account'
  | 'login consent'
  | 'consent login'
  | 'login select_account'
  | 'select_account login'
  | 'consent select_account'
  | 'select_account consent'
  | 'login consent select_account'
  | 'login select_account consent'
  | 'consent login select_account'
  | 'consent select_account login'
  | 'select_account login consent'
  | 'select_account consent login';

/** Parameters of `authorizeUrl`. */
export interface AuthorizeUrlParams {
  /** Where the platform sends the user back (an absolute URL); must be registered for the application. */
  redirect_uri: string;
  /** Default `code`; `token` (or `id_token token`, in any order) is the implicit grant. */
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
  /** `none`, or a space-separated list of `login`, `consent`, `select_account` (e.g. `login consent`). */
  prompt?: Prompt | undefined;
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
  redirect_uri: REDIRECT_URI_RULE,
  response_type: listOf(RESPONSE_TYPE_VALUES, 'response_type must be code, token, id_token, or several of them space-separated, each once'),
  response_mode: oneOf(['query', 'fragment', 'form_post'], "response_mode must be 'query', 'fragment' or 'form_post'"),
  scope: anyText('scope'),
  audience: anyText('audience'),
  state: anyText('state'),
  nonce: anyText('nonce'),
  code_challenge: matching(/^[A-Za-z0-9_-]{43}$/, 'code_challenge must be a base64url SHA-256 digest (43 characters)'),
  organization: anyText('organization'),
  invitation: anyText('invitation'),
  connection: anyText('connection'),
  prompt: listOf(PROMPT_VALUES, "prompt must be 'none' alone, or 'login', 'consent', 'select_account' space-separated, each once", 'none'),
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
 * {@link AuthorizeUrlParams} checked: first each rule.
 * A response type that returns an ID token then needs a non-empty `nonce`.
 * It also needs the `openid` scope, when `scope` is given.
 * `response_mode: 'query'` is for `response_type: 'code'` only.
 * Tokens in a query end up in server logs and `Referer` headers (OAuth 2.0 Multiple Response Type Encoding Practices, 2.1).
 */
function checkAuthorizeUrlParams(params: unknown): AuthorizeUrlParams {
  const checked = checkUrlParams<AuthorizeUrlParams>(AUTHORIZE_URL_RULES, params);
  const responseType = checked.response_type ?? 'code';
  // An empty nonce is no nonce: the platform reads `nonce=` as absent (OpenID Connect Core 3.2.2.1).
  if (responseType.includes('id_token') && (checked.nonce === undefined || checked.nonce === '')) {
    throw new RequestValidationError([
      { code: 'custom', path: ['nonce'], message: 'a response_type that returns an id_token needs a non-empty `nonce`' },
    ]);
  }
  // An ID token is OpenID Connect, whose requests must hold the `openid` scope (OpenID Connect Core 3.1.2.1, 3.2.2.1).
  if (responseType.includes('id_token') && checked.scope !== undefined && !checked.scope.split(' ').includes('openid')) {
    throw new RequestValidationError([
      { code: 'custom', path: ['scope'], message: 'a response_type that returns an id_token needs `openid` in `scope`' },
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
 * `{origin}/authorize?…` for the code flow (default) or the implicit flow (`response_type: 'token'`).
 * A broken parameter rule throws `RequestValidationError`.
 * A public client (client id only) must send a PKCE `code_challenge` with any response type that returns a code.
 * Without one it gets `ConfigurationError`.
 */
export function buildAuthorizeUrl(origin: string, clientId: string, method: TokenEndpointAuthMethod, params: AuthorizeUrlParams): string {
  const { code_challenge, response_type = 'code', scope = 'openid profile email', ...rest } = checkAuthorizeUrlParams(params);
  if (method === 'none' && response_type.includes('code') && code_challenge === undefined) {
    throw new ConfigurationError('A public client (client id only) must use PKCE: pass the `code_challenge` from createPkcePair()');
  }
  return pathWithQuery(origin, 'authorize', {
    client_id: clientId,
    response_type,
    scope,
    ...rest,
    ...(code_challenge && { code_challenge, code_challenge_method: 'S256' }),
  });
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

/** Parameters of `samlUrl`. */
export interface SamlUrlParams {
  /** The connection (identity provider) to use. */
  connection?: string | undefined;
}

/** Parameters of `wsfedUrl`. */
export interface WsfedUrlParams {
  /** Opaque context the relying party gets back. */
  wctx?: string | undefined;
  /** Where to send the user back (an absolute URL, checked as `logoutUrl`'s `returnTo`). */
  wreply?: string | undefined;
}

/** The rules of {@link SamlUrlParams}. */
const SAML_URL_RULES: Readonly<Record<keyof SamlUrlParams, UrlParamRule>> = { connection: anyText('connection') };

/** The rules of {@link WsfedUrlParams}. */
const WSFED_URL_RULES: Readonly<Record<keyof WsfedUrlParams, UrlParamRule>> = {
  wctx: anyText('wctx'),
  wreply: navigationUrl('wreply must be an absolute URL, not javascript:, data: or file:'),
};

/** `{origin}/samlp/{clientId}` (IdP-initiated SAML), `connection` optional; an unknown parameter is refused. */
export function buildSamlUrl(origin: string, clientId: string, params: SamlUrlParams = {}): string {
  return pathWithQuery(origin, encodePath`samlp/${clientId}`, checkUrlParams<Record<string, string | undefined>>(SAML_URL_RULES, params));
}

/** `{origin}/wsfed/{clientId}` (WS-Federation), with optional `wctx` and `wreply`; an unknown parameter is refused. */
export function buildWsfedUrl(origin: string, clientId: string, params: WsfedUrlParams = {}): string {
  return pathWithQuery(origin, encodePath`wsfed/${clientId}`, checkUrlParams<Record<string, string | undefined>>(WSFED_URL_RULES, params));
}

/** `{origin}/{path}` with the checked parameters that are set as its query. */
function pathWithQuery(origin: string, path: string, params: Readonly<Record<string, string | number | undefined>>): string {
  const url = new URL(`/${path}`, origin);
  for (const [name, value] of Object.entries(params)) {
    if (value === undefined) continue;
    if (typeof value === 'string') checkUrlValue([name], value); // a lone surrogate would silently become U+FFFD
    url.searchParams.set(name, String(value));
  }
  return url.href;
}
