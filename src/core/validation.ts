import * as z from 'zod/mini';
import { messageOf, RequestValidationError, ResponseValidationError, unknownKeysMessage, type ValidationIssue } from './errors.js';
import { redact } from './http/redaction.js';

/** A zod/mini schema of a `T`. Response schemas never transform: a body that passes is returned as parsed, unknown members kept. */
export type Schema<T> = z.ZodMiniType<T>;

/** Checks `value` against a parameter schema; throws `RequestValidationError` (nothing is sent) when it fails. */
export function validateParams<T>(schema: z.ZodMiniType<T, unknown>, value: unknown): T {
  const result = fastSchema(schema).safeParse(value);
  if (!result.success) throw new RequestValidationError(toIssues(result.error.issues));
  return result.data;
}

/** What `#compile-schema` exports: zod's compiler on servers, a stand-in that compiles nothing in browsers. */
type SchemaCompiler = typeof import('#compile-schema');

/** The compiler once it has loaded (lazily, on the first check); `undefined` before. */
let compiler: SchemaCompiler | undefined;
let compilerRequested = false;

/** Loads the compiler on the first call; until it has loaded, schemas are checked by zod's runtime parser (the same answers). */
function loadedCompiler(): SchemaCompiler | undefined {
  if (compiler === undefined && !compilerRequested) {
    compilerRequested = true;
    import('#compile-schema').then(
      (module) => {
        compiler = module;
      },
      () => {}, // no compiler: the runtime parser answers the same
    );
  }
  return compiler;
}

/** Compiled forms of parameter schemas, made once per schema. */
const compiledSchemas = new WeakMap<object, z.ZodMiniType>();

/** The schema to check parameters with: its compiled form once zod's compiler has loaded, the schema itself before. */
function fastSchema<T, Input>(schema: z.ZodMiniType<T, Input>): z.ZodMiniType<T, Input> {
  const known = compiledSchemas.get(schema) as z.ZodMiniType<T, Input> | undefined;
  if (known) return known;
  const loaded = loadedCompiler();
  if (loaded === undefined) return schema;
  const fast = loaded.compileSchema(schema);
  compiledSchemas.set(schema, fast);
  return fast;
}

/** Compiled checks of response schemas, made once per schema. */
const responseChecks = new WeakMap<object, (body: unknown) => boolean>();

/** Whether `body` passes `schema`: with its compiled check once the compiler has loaded, with `z.validate` before. */
function passes(schema: z.ZodMiniType, body: unknown): boolean {
  let check = responseChecks.get(schema);
  if (check === undefined) {
    const loaded = loadedCompiler();
    if (loaded === undefined) return z.validate(schema, body);
    check = loaded.compileResponseCheck(schema) ?? ((value) => z.validate(schema, value));
    responseChecks.set(schema, check);
  }
  return check(body);
}

/** Checks a whole 2xx body against an SDK schema and returns it uncopied; else throws `ResponseValidationError`, scrubbed of `secrets`. */
export function validateResponse<T>(schema: Schema<T>, body: unknown, secrets: readonly string[] = []): T {
  if (passes(schema, body)) return body as T;
  const result = schema.safeParse(body);
  if (result.success) return body as T;
  throw failedCheck(result.error.issues, body, secrets);
}

/** The `ResponseValidationError` of a body that failed its schema: issues and body scrubbed of `secrets`. */
function failedCheck(issues: readonly z.core.$ZodIssue[], body: unknown, secrets: readonly string[]): ResponseValidationError {
  return new ResponseValidationError(redact(toIssues(issues), secrets), redact(body, secrets));
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
      return unknownKeysMessage(issue.keys);
    case 'invalid_value':
      return `must be one of ${issue.values.map((value) => JSON.stringify(value)).join(', ')}`;
    default:
      return issue.message;
  }
}

/**
 * Parses a 2xx body with a caller's schema (`management.request({ schema })`) through its own `safeParse` or `safeParseAsync`, so it
 * answers as in the caller's code (its zod copy, transforms, async checks). Throws `ResponseValidationError`, also when the schema throws.
 */
export async function parseWithCallerSchema<T>(schema: Schema<T>, body: unknown, secrets: readonly string[]): Promise<T> {
  let result: ReturnType<Schema<T>['safeParse']>;
  try {
    // The async form runs async checks too, where `safeParse` throws; a schema without one has `safeParse` only.
    const { safeParseAsync = schema.safeParse } = schema as { safeParseAsync?: (value: unknown) => Promise<typeof result> };
    result = await (safeParseAsync as (value: unknown) => typeof result | Promise<typeof result>).call(schema, body);
  } catch (error) {
    const message = redact(`the schema could not check the body: ${messageOf(error)}`, secrets);
    throw new ResponseValidationError([{ code: 'custom', path: [], message }], redact(body, secrets));
  }
  if (result.success) return result.data;
  throw failedCheck(result.error.issues, body, secrets);
}
