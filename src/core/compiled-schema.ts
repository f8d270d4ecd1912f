import { compile, type ZodMiniType } from 'zod/mini';

/**
 * zod's ahead-of-time compiled form of `schema` (generated code, the same answers
 * as the runtime parser, several times faster). Where code generation is not
 * allowed (a Content-Security-Policy without `unsafe-eval`, Cloudflare Workers)
 * zod hands the schema back unchanged and it keeps working on the runtime parser.
 * Loaded lazily by `validation.ts`, so that browser bundles load the compiler only
 * once a response is validated, in a chunk of its own.
 */
export function compileSchema<T, Input>(schema: ZodMiniType<T, Input>): ZodMiniType<T, Input> {
  return compile(schema);
}
