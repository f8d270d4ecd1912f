import { ConfigurationError, RequestValidationError } from '../errors.js';

/** A header value `fetch` can send: no CR, LF or NUL, and no character above U+00FF. */
const SENDABLE_VALUE = /^[^\0\r\n\u0100-\uffff]*$/;
/** A header name (an RFC 9110 token). */
const HEADER_NAME = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;

/** Whether `fetch` can send `value` as a header value (no CR, LF or NUL, nothing above U+00FF). */
export function isSendableHeaderValue(value: string): boolean {
  return SENDABLE_VALUE.test(value);
}

/**
 * Checks a caller's headers before anything is sent and lower-cases their names, so a caller's `Authorization` replaces the SDK's. A bad
 * one throws `RequestValidationError` naming the header only: the runtime's error would quote the value, which may be a token.
 */
export function checkedHeaders(headers: unknown): Record<string, string> {
  // A `Headers`, `Map` or array has no own members: every header in it would be dropped unsaid.
  if (typeof headers !== 'object' || headers === null || Symbol.iterator in headers) {
    throw headerError([], 'headers must be a plain object of strings (not a Headers, a Map or an array)');
  }
  const checked: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) {
    const shown = name.length > 100 ? `${name.slice(0, 100)}…` : name;
    if (!HEADER_NAME.test(name)) throw headerError([shown], `the header name ${JSON.stringify(shown)} is not a valid HTTP header name`);
    if (typeof value !== 'string') throw headerError([name], `the header ${name} must be a string`);
    if (!isSendableHeaderValue(value)) {
      throw headerError(
        [name],
        `the header ${name} holds a character HTTP headers cannot carry (CR, LF, NUL or above U+00FF); the value is not shown`,
      );
    }
    checked[name.toLowerCase()] = value;
  }
  return checked;
}

/** As {@link checkedHeaders}, for a client's `headers` option: throws `ConfigurationError`. */
export function checkedClientHeaders(headers: unknown): Record<string, string> {
  try {
    return checkedHeaders(headers);
  } catch (error) {
    throw new ConfigurationError(`\`headers\`: ${(error as RequestValidationError).issues[0]?.message}`);
  }
}

function headerError(path: string[], message: string): RequestValidationError {
  return new RequestValidationError([{ code: 'invalid_header', path: ['headers', ...path], message }]);
}
