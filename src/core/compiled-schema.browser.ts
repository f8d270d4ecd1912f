import type { ZodMiniType } from 'zod/mini';

/**
 * The browser build of `#compile-schema`: schemas stay on zod's runtime parser, keeping its compiler out of browser bundles. It imports
 * no zod code, which a bundler would otherwise split from the eager bundle into a chunk of its own.
 */
export function compileSchema<T, Input>(schema: ZodMiniType<T, Input>): ZodMiniType<T, Input> {
  return schema;
}

/** The browser build of `compileResponseCheck`: none (`validation.ts` then checks with `z.validate`). */
export function compileResponseCheck(_schema: ZodMiniType): undefined {
  return undefined;
}
