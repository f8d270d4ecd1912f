import { RequestValidationError, unknownKeysMessage, type ValidationIssue } from '../core/errors.js';

/**
 * The rule of one query parameter of a URL the client builds (`authorizeUrl`,
 * `logoutUrl`): which values it accepts and what an issue says otherwise.
 *
 * These builders run before a login page can act, in the SPA's first bundle, so
 * their parameters are checked with these few rules instead of zod: a zod schema
 * here would put zod's core, and with it every zod feature the lazily loaded
 * grants use, into that first bundle (about 8 KB of the 12 KB budget, issue 8).
 * The issues have zod's shape (`code`, `path`, `message`).
 */
export interface UrlParamRule {
  readonly accepts: (value: unknown) => boolean;
  /** The issue's `code`, as zod names the same failure. */
  readonly code: 'invalid_type' | 'invalid_format' | 'invalid_value' | 'too_small';
  readonly message: string;
  readonly required?: boolean | undefined;
}

/** Any string. */
export function anyText(name: string): UrlParamRule {
  return { accepts: (value) => typeof value === 'string', code: 'invalid_type', message: `${name} must be a string` };
}

/** Characters a URL parser drops (a tab, CR or LF), encodes (other control characters) or reads as another (`\` as `/`). */
const PARSER_ALTERED = /[\p{Cc}\\]/u;

/** Schemes a browser runs or reads in place instead of navigating: never where a user is sent. */
const SCRIPT_OR_LOCAL_SCHEMES: ReadonlySet<string> = new Set(['javascript:', 'vbscript:', 'data:', 'blob:', 'file:']);

/**
 * An absolute URL to send the user to (the runtime's URL parser accepts it), not
 * of a script or local scheme (`javascript:`, `data:`…), without what a URL parser
 * would change (so that the URL sent is the one registered): leading or trailing
 * whitespace (stripped), a control character (a tab, CR or LF is dropped anywhere,
 * others are encoded) or a backslash (read as `/` in `https:`); with `fragment: false`, without a
 * fragment, as a `redirect_uri` must be (RFC 6749, 3.1.2). Native apps' own schemes
 * (`com.example.app:/callback`) pass.
 */
export function navigationUrl(message: string, { required = false, fragment = true } = {}): UrlParamRule {
  const accepts = (value: unknown) => {
    if (typeof value !== 'string' || value.trim() !== value || PARSER_ALTERED.test(value) || !URL.canParse(value)) return false;
    if (!fragment && value.includes('#')) return false;
    return !SCRIPT_OR_LOCAL_SCHEMES.has(new URL(value).protocol);
  };
  return { accepts, code: 'invalid_format', message, required };
}

/**
 * The rule of a `redirect_uri`, one for `authorizeUrl` and `authorizationCodeGrant`
 * (RFC 6749, 4.1.3: the token request's must be identical to the authorize
 * request's): an absolute {@link navigationUrl} without a fragment. Never altered.
 */
export const REDIRECT_URI_RULE: UrlParamRule = navigationUrl(
  'redirect_uri must be an absolute URL without a fragment, surrounding whitespace, control characters or backslashes, not javascript:, data: or file:',
  { required: true, fragment: false },
);

/** One of `values`. */
export function oneOf(values: readonly string[], message: string): UrlParamRule {
  return { accepts: (value) => typeof value === 'string' && values.includes(value), code: 'invalid_value', message };
}

/**
 * A space-delimited list of `values` in any order, each at most once, at least one
 * (OAuth's `response_type`, OpenID Connect's `prompt`: lists compared as sets), or
 * else exactly `alone` (a value that cannot be combined, as `prompt`'s `none`).
 */
export function listOf(values: readonly string[], message: string, alone?: string): UrlParamRule {
  const accepts = (value: unknown) => {
    if (typeof value !== 'string') return false;
    if (value === alone) return true;
    const items = value.split(' ');
    return items.every((item) => values.includes(item)) && new Set(items).size === items.length;
  };
  return { accepts, code: 'invalid_value', message };
}

/** A string matching `pattern` (anchored by the caller). */
export function matching(pattern: RegExp, message: string): UrlParamRule {
  return { accepts: (value) => typeof value === 'string' && pattern.test(value), code: 'invalid_format', message };
}

/** `true` or `false`. */
export function flag(name: string): UrlParamRule {
  return { accepts: (value) => typeof value === 'boolean', code: 'invalid_type', message: `${name} must be a boolean` };
}

/** An integer >= 0. */
export function wholeNumber(name: string): UrlParamRule {
  return {
    accepts: (value) => Number.isSafeInteger(value) && (value as number) >= 0,
    code: 'too_small',
    message: `${name} must be an integer >= 0`,
  };
}

/**
 * Checks `given` against `rules`: an object whose own members each have a rule
 * (an unknown member is refused, as by zod's `strictObject`), every required one
 * present, each accepted by its rule. Returns a null-prototype copy; throws
 * `RequestValidationError` with every issue found (nothing is built).
 */
export function checkUrlParams<T>(rules: Readonly<Record<string, UrlParamRule>>, given: unknown): T {
  if (typeof given !== 'object' || given === null || Array.isArray(given)) {
    throw new RequestValidationError([{ code: 'invalid_type', path: [], message: 'the parameters must be an object' }]);
  }
  const params = given as Record<string, unknown>;
  const issues: ValidationIssue[] = [];
  const unknown = Object.keys(params).filter((name) => !Object.hasOwn(rules, name));
  if (unknown.length > 0) issues.push({ code: 'unrecognized_keys', path: [], message: unknownKeysMessage(unknown) });
  for (const [name, rule] of Object.entries(rules)) {
    const value = params[name];
    if (value === undefined) {
      if (rule.required === true) issues.push({ code: 'invalid_type', path: [name], message: rule.message });
    } else if (!rule.accepts(value)) {
      issues.push({ code: rule.code, path: [name], message: rule.message });
    }
  }
  if (issues.length > 0) throw new RequestValidationError(issues);
  return params as T;
}
