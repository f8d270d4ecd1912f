import { RequestValidationError } from './errors.js';

/** Whether `value` is well-formed Unicode: no lone surrogate (which URLs would turn into U+FFFD, or refuse). */
export function isWellFormed(value: string): boolean {
  return !/[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/.test(value);
}

/**
 * Throws `RequestValidationError` (nothing is sent) when a value that goes into a
 * URL is not a well-formed string: encoding it would fail (`URIError`) or change it.
 */
export function checkUrlValue(path: readonly PropertyKey[], value: unknown): void {
  if (typeof value !== 'string') {
    throw new RequestValidationError([{ code: 'invalid_type', path, message: 'expected string' }]);
  }
  if (!isWellFormed(value)) {
    throw new RequestValidationError([{ code: 'invalid_string', path, message: 'must not hold a lone surrogate (not valid Unicode)' }]);
  }
}
