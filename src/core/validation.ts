import type * as z from 'zod/mini';
import { RequestValidationError, ResponseValidationError, type ValidationIssue } from './errors.js';
import { ownProperties } from './own-properties.js';
import { redact } from './redaction.js';

/** A zod (mini) schema that yields a `T`; only `safeParse` is used, so a union of schemas is a schema of the union. */
export interface Schema<T> {
  safeParse(value: unknown): { success: true; data: T } | { success: false; error: { issues: z.core.$ZodIssue[] } };
}

/** Checks `value` against a parameter schema; throws `RequestValidationError` (nothing is sent) when it fails. */
export function validateParams<T>(schema: Schema<T>, value: unknown): T {
  let result: ReturnType<Schema<T>['safeParse']>;
  try {
    result = schema.safeParse(ownProperties(value)); // never a parameter from a polluted Object.prototype
  } catch (error) {
    // A rule that could not even read the value (e.g. an object where a number belongs, on a polluted prototype).
    const reason = error instanceof Error ? error.message : String(error);
    throw new RequestValidationError([{ code: 'custom', path: [], message: `the parameters could not be checked: ${reason}` }]);
  }
  if (!result.success) throw new RequestValidationError(toIssues(result.error.issues));
  return ownProperties(result.data); // read by name later: no fallback to Object.prototype
}

/**
 * Checks a 2xx body against its schema; throws `ResponseValidationError` carrying
 * the body, scrubbed of `secrets`, when it fails.
 */
export function validateResponse<T>(schema: Schema<T>, body: unknown, secrets: readonly string[] = []): T {
  const result = schema.safeParse(body);
  if (!result.success) throw new ResponseValidationError(redact(toIssues(result.error.issues), secrets), redact(body, secrets));
  return result.data;
}

function toIssues(issues: readonly z.core.$ZodIssue[]): ValidationIssue[] {
  return issues.map((issue) => ({ code: issue.code, path: issue.path, message: describe(issue) }));
}

/** zod/mini ships no messages ("Invalid input"); schemas may give their own, else this says what was expected. */
function describe(issue: z.core.$ZodIssue): string {
  if (issue.message !== 'Invalid input') return issue.message;
  switch (issue.code) {
    case 'invalid_type':
      return `expected ${issue.expected}`;
    case 'too_big':
      return `must be at most ${issue.maximum}${issue.origin === 'string' ? ' characters' : issue.origin === 'array' ? ' items' : ''}`;
    case 'too_small':
      return `must be at least ${issue.minimum}${issue.origin === 'string' ? ' characters' : issue.origin === 'array' ? ' items' : ''}`;
    case 'invalid_format':
      return `must be a valid ${issue.format}`;
    case 'unrecognized_keys':
      return `unknown ${issue.keys.length === 1 ? 'key' : 'keys'} ${issue.keys.map((key) => `"${key}"`).join(', ')}`;
    case 'invalid_value':
      return `must be one of ${issue.values.map((value) => JSON.stringify(value)).join(', ')}`;
    default:
      return issue.message;
  }
}
