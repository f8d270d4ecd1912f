import * as z from 'zod/mini';
import { compile, type ZodMiniType } from 'zod/mini';

/**
 * zod's compiled form of `schema` (generated code: the runtime parser's answers, several times faster), or the schema itself where code
 * generation is not allowed (a CSP without `unsafe-eval`, Cloudflare Workers). Loaded lazily as `#compile-schema`; browsers get
 * `compiled-schema.browser.ts`, as zod's compiler (about 10 KB gzipped) would land in their eager chunk: each `zod/mini` import reaches it.
 */
export function compileSchema<T, Input>(schema: ZodMiniType<T, Input>): ZodMiniType<T, Input> {
  return compile(schema);
}

/** Whether a body passes a response schema (zod's `validate`: a check, nothing built). */
export type ResponseCheck = (body: unknown) => boolean;

/** The most key sets one schema's records are checked with a schema of their own; past that, the schema itself answers. */
const MAX_KEY_SETS = 8;

/**
 * A compiled check with the answers of `z.validate(schema, body)`. A list of records with optional properties is checked with a copy
 * requiring those all the body's records have: zod's compiler checks a required property in place, but an optional one through a
 * function that allocates per record (40 KB of garbage a page of 50 invitations, against 1.6 KB). At most {@link MAX_KEY_SETS} copies.
 */
export function compileResponseCheck(schema: ZodMiniType): ResponseCheck | undefined {
  const general = compile(schema);
  const checkGeneral = checkWith(general);
  // No code generation here (zod handed the schema back): a copy would not be compiled either.
  const list = general === schema ? undefined : recordListOf(schema);
  if (list === undefined) return checkGeneral;
  const { optionalKeys, recordsOf } = list;
  const keysInEvery = keySetOf(optionalKeys);
  const checks = new Map<number, ResponseCheck>([[0, checkGeneral]]);
  return (body) => {
    const records = recordsOf(body);
    const keySet = Array.isArray(records) ? keysInEvery(records) : 0;
    let check = checks.get(keySet);
    if (check === undefined) {
      if (checks.size > MAX_KEY_SETS) return checkGeneral(body);
      check = checkWith(compile(list.requiring(keySet)));
      checks.set(keySet, check);
    }
    return check(body);
  };
}

/** `z.validate` with `schema`, as a {@link ResponseCheck}. */
function checkWith(schema: ZodMiniType): ResponseCheck {
  return (body) => z.validate(schema, body);
}

/** Where a schema's records are: their optional keys, how to find them in a body, and the schema with some of those keys required. */
interface RecordList {
  readonly optionalKeys: readonly string[];
  recordsOf(body: unknown): unknown;
  /** `schema` with the optional keys of `keySet` (bit i: `optionalKeys[i]`) required in each record. */
  requiring(keySet: number): ZodMiniType;
}

/** A key set holds at most this many keys (bits of a number). */
const MAX_OPTIONAL_KEYS = 30;

/** The records of `schema`: the schema is an array of objects, or an object with an array of objects as a property. */
function recordListOf(schema: ZodMiniType): RecordList | undefined {
  const def = schema._zod.def;
  if (def.type === 'array')
    return recordList(
      schema as z.ZodMiniArray,
      (records) => records,
      (body) => body,
    );
  if (def.type !== 'object') return undefined;
  const object = schema as z.ZodMiniObject;
  for (const [property, member] of Object.entries(object.def.shape)) {
    if (member._zod.def.type !== 'array') continue;
    return recordList(
      member as z.ZodMiniArray,
      (records) => object.clone({ ...object.def, shape: { ...object.def.shape, [property]: records } }),
      (body) => (typeof body === 'object' && body !== null ? (body as Record<string, unknown>)[property] : undefined),
    );
  }
  return undefined;
}

/** The {@link RecordList} of `array` (its element is the record), which `withRecords` puts back in place of the original. */
function recordList(
  array: z.ZodMiniArray,
  withRecords: (records: ZodMiniType) => ZodMiniType,
  recordsOf: (body: unknown) => unknown,
): RecordList | undefined {
  const record = array.def.element as ZodMiniType;
  if (record._zod.def.type !== 'object') return undefined;
  const object = record as z.ZodMiniObject;
  const shape = object.def.shape;
  // An optional property with checks of its own stays optional: its inner schema alone would drop them.
  const optionalKeys = Object.keys(shape).filter((key) => {
    const def = shape[key]?._zod.def;
    return def?.type === 'optional' && !def.checks?.length;
  });
  if (optionalKeys.length === 0 || optionalKeys.length > MAX_OPTIONAL_KEYS) return undefined;
  return {
    optionalKeys,
    recordsOf,
    requiring(keySet) {
      const required = { ...shape };
      optionalKeys.forEach((key, bit) => {
        if (keySet & (1 << bit)) required[key] = (shape[key] as z.ZodMiniOptional).def.innerType;
      });
      return withRecords(array.clone({ ...array.def, element: object.clone({ ...object.def, shape: required }) }));
    },
  };
}

/** The key set (bit i: `keys[i]`) of keys all records define (0 for a non-object), in generated code as zod's: a loop is ~4× slower. */
function keySetOf(keys: readonly string[]): (records: readonly unknown[]) => number {
  const tests = keys.map((key, bit) => `if (record[${JSON.stringify(key)}] === undefined) keySet &= ${~(1 << bit)};`);
  const source = `let keySet = ${2 ** keys.length - 1};
for (let i = 0; i < records.length; i++) {
  const record = records[i];
  if (typeof record !== "object" || record === null) return 0;
  ${tests.join('\n  ')}
}
return keySet;`;
  return new Function('records', source) as (records: readonly unknown[]) => number;
}
