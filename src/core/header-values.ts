import { ConfigurationError, RequestValidationError } from './errors.js';

/** A header value `fetch` can send: no CR, LF or NUL, and no character above U+00FF. */
const SENDABLE_VALUE = /^[^\0\r\n\u0100-\uffff]*$/;
/** The most headers one request may add (the runtime merges headers in quadratic time). */
export const MAX_HEADERS = 100;
/** A header name (an RFC 9110 token). */
const HEADER_NAME = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;

/**
 * Checks header names and values before anything is sent, and returns them with
 * lower-case names, a later header replacing an earlier one of the same name in
 * any letter case (so a caller's `Authorization` never merges with the SDK's).
 * A bad one throws `RequestValidationError` naming the header only: the runtime's
 * own error would quote the whole value, which may be a token.
 */
export function checkedHeaders(headers: Readonly<Record<string, unknown>> | undefined): Record<string, string> {
  const checked: Record<string, string> = {};
  if (headers === undefined) return checked;
  // An object of names and values, of any realm; not an iterable (`Headers`, `Map`, an array), whose entries are no own
  // members: every header in it would be dropped unsaid.
  if (typeof headers !== 'object' || headers === null || Symbol.iterator in headers) {
    throw new RequestValidationError([
      { code: 'invalid_type', path: ['headers'], message: 'headers must be a plain object of strings (not a Headers, a Map or an array)' },
    ]);
  }
  const entries = Object.entries(headers);
  if (entries.length > MAX_HEADERS) {
    throw new RequestValidationError([{ code: 'too_big', path: ['headers'], message: `at most ${MAX_HEADERS} headers` }]);
  }
  for (const [name, value] of entries) {
    const problem = headerProblem(name, value);
    if (problem) throw new RequestValidationError([{ code: 'invalid_header', path: ['headers', safeName(name)], message: problem }]);
    checked[name.toLowerCase()] = value as string;
  }
  return checked;
}

/** As {@link checkedHeaders}, for a client's `headers` option: throws `ConfigurationError`. */
export function checkedClientHeaders(headers: Readonly<Record<string, unknown>> | undefined): Record<string, string> {
  try {
    return checkedHeaders(headers);
  } catch (error) {
    throw new ConfigurationError(`\`headers\`: ${(error as RequestValidationError).issues[0]?.message ?? 'invalid'}`);
  }
}

/** Whether `fetch` can send `value` as a header value (no CR, LF or NUL, nothing above U+00FF). */
export function isSendableHeaderValue(value: string): boolean {
  return SENDABLE_VALUE.test(value);
}

function headerProblem(name: string, value: unknown): string | undefined {
  if (!HEADER_NAME.test(name)) return `the header name ${JSON.stringify(safeName(name))} is not a valid HTTP header name`;
  if (typeof value !== 'string') return `the header ${name} must be a string`;
  if (!isSendableHeaderValue(value)) {
    return `the value of the header ${name} holds a character HTTP headers cannot carry (CR, LF, NUL or above U+00FF); the value is not shown`;
  }
  return undefined;
}

/** A header name fit for an error message: at most 100 characters. */
function safeName(name: string): string {
  return name.length > 100 ? `${name.slice(0, 100)}…` : name;
}
