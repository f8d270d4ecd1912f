import { RequestValidationError, unknownKeysMessage, type ValidationIssue } from '../core/errors.js';

/**
 * The rule of one query parameter of a URL the client builds (`authorizeUrl`, `logoutUrl`).
 * It says which values the parameter accepts, and what the issue says otherwise.
 * The issues have zod's shape (`code`, `path`, `message`).
 *
 * These builders run before a login page can act, in the SPA's first bundle.
 * So their parameters are checked with these few rules instead of zod.
 * A zod schema here would put zod's core into that first bundle (about 8 KB).
 * With it would come every zod feature the lazily loaded grants use.
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
 * The rule of an absolute URL to send the user to: the runtime's URL parser must accept it.
 * Script and local schemes (`javascript:`, `data:`…) are refused.
 * So is what a URL parser would change, so that the URL sent is the one registered.
 * That is leading or trailing whitespace (stripped), or a backslash (read as `/` in `https:`).
 * It is also a control character: a tab, CR or LF is dropped anywhere, others are encoded.
 * With `fragment: false`, a fragment is refused too, as a `redirect_uri` has none (RFC 6749, 3.1.2).
 * Native apps' own schemes (`com.example.app:/callback`) pass.
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
 * The rule of a `redirect_uri`: an absolute {@link navigationUrl} without a fragment.
 * `authorizeUrl` and `authorizationCodeGrant` share it: the token request must send the authorize request's value (RFC 6749, 4.1.3).
 * The value is never altered.
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
 * A space-delimited list of `values` in any order, each at most once, at least one.
 * Such lists are compared as sets, e.g. OAuth's `response_type` and OpenID Connect's `prompt`.
 * Or else exactly `alone`: a value that cannot be combined, as `prompt`'s `none`.
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
 * Checks `given` against `rules`, and returns it typed as the parameters.
 * It must be an object whose own members each have a rule; an unknown member is refused, as by zod's `strictObject`.
 * Every required member must be present, and each member accepted by its rule.
 * Otherwise throws `RequestValidationError` with every issue found, and nothing is built.
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
