import type { ZodMiniType } from 'zod/mini';

/**
 * The browser build of `#compile-schema`: schemas stay on zod's runtime parser (the
 * same answers), so that zod's compiler never enters a browser bundle. See
 * `compiled-schema.ts`. This module imports nothing from zod: a bundler would
 * otherwise split the zod code it shares with the eager bundle into a chunk of its own.
 */
export function compileSchema<T, Input>(schema: ZodMiniType<T, Input>): ZodMiniType<T, Input> {
  return schema;
}

/** The browser build of `compileResponseCheck`: none (`validation.ts` then checks with `z.validate`). */
export function compileResponseCheck(_schema: ZodMiniType): undefined {
  return undefined;
}
