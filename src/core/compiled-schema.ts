import { compile, type ZodMiniType } from 'zod/mini';

/**
 * zod's ahead-of-time compiled form of `schema` (generated code, the same answers
 * as the runtime parser, several times faster). Where code generation is not
 * allowed (a Content-Security-Policy without `unsafe-eval`, Cloudflare Workers)
 * zod hands the schema back unchanged and it keeps working on the runtime parser.
 *
 * Loaded lazily by `validation.ts` as `#compile-schema` (package.json `imports`):
 * servers get this module; browser bundles get `compiled-schema.browser.ts`, which
 * compiles nothing, because zod's compiler (about 10 KB min+gzip) would otherwise
 * land in their eager chunk (bundlers place a module by the imports that reach it,
 * and every `zod/mini` import reaches the compiler's module).
 */
export function compileSchema<T, Input>(schema: ZodMiniType<T, Input>): ZodMiniType<T, Input> {
  return compile(schema);
}
