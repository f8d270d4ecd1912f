import { RequestValidationError } from './errors.js';

/**
 * Builds a request path from a template (``encodePath`organizations/${orgId}/invitations` ``), encoding each parameter as one segment so
 * an id like `../x` or `a/b?c` cannot change the path. An empty id, `.` or `..` throws `RequestValidationError` (URLs resolve `%2E%2E`).
 */
export function encodePath(strings: TemplateStringsArray, ...params: readonly string[]): string {
  return strings.reduce((path, literal, index) => {
    if (index === 0) return literal;
    return path + encodeSegment(params[index - 1] as string) + literal;
  }, '');
}

function encodeSegment(value: string): string {
  checkUrlValue([], value); // a lone surrogate would make encodeURIComponent throw a raw URIError
  if (value === '' || value === '.' || value === '..') {
    throw new RequestValidationError([
      { code: 'invalid_path_parameter', path: [], message: `"${value}" cannot be used as an id in a URL path` },
    ]);
  }
  return encodeURIComponent(value);
}

/** A lone surrogate: not well-formed Unicode, which URLs would turn into U+FFFD, or refuse. */
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

/** Throws `RequestValidationError` (nothing sent) when a value for a URL is not a well-formed string: encoding would fail or alter it. */
export function checkUrlValue(path: readonly PropertyKey[], value: unknown): void {
  if (typeof value !== 'string') {
    throw new RequestValidationError([{ code: 'invalid_type', path, message: 'expected string' }]);
  }
  if (LONE_SURROGATE.test(value)) {
    throw new RequestValidationError([{ code: 'invalid_string', path, message: 'must not hold a lone surrogate (not valid Unicode)' }]);
  }
}
