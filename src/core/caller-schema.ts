import { messageOf, ResponseValidationError } from './errors.js';
import { redact } from './redaction.js';
import { failedCheck, type Schema } from './validation.js';

/**
 * Parses a 2xx body with a caller's schema (`management.request({ schema })`) through
 * the schema's own `safeParse`, so a schema of the caller's zod copy (classic or mini,
 * transforms included) answers as it would in the caller's code (one with
 * asynchronous checks through its `safeParseAsync`); throws `ResponseValidationError`
 * as {@link validateResponse} does, also when the schema itself throws.
 */
export function parseWithCallerSchema<T>(schema: Schema<T>, body: unknown, secrets: readonly string[] = []): T | Promise<T> {
  const settle = (result: ReturnType<Schema<T>['safeParse']>): T => {
    if (result.success) return result.data;
    throw failedCheck(result.error.issues, body, secrets);
  };
  const cannotCheck = (error: unknown) =>
    new ResponseValidationError(
      [{ code: 'custom', path: [], message: redact(`the schema could not check the body: ${messageOf(error)}`, secrets) }],
      redact(body, secrets),
    );
  let result: ReturnType<Schema<T>['safeParse']>;
  try {
    result = schema.safeParse(body);
  } catch (error) {
    // A schema with asynchronous checks (zod throws on those in safeParse) is parsed with its safeParseAsync.
    const { safeParseAsync } = schema as { safeParseAsync?: (value: unknown) => Promise<ReturnType<Schema<T>['safeParse']>> };
    if (typeof safeParseAsync !== 'function') throw cannotCheck(error);
    return Promise.resolve()
      .then(() => safeParseAsync.call(schema, body))
      .then(settle, (asyncError: unknown) => {
        throw cannotCheck(asyncError);
      });
  }
  return settle(result);
}
