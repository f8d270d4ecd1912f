import type { ZodMiniType } from 'zod/mini';

/**
 * The browser build of `#compile-schema`: schemas stay on zod's runtime parser (the
 * same answers), so that zod's compiler never enters a browser bundle. See
 * `compiled-schema.ts`.
 */
export function compileSchema<T, Input>(schema: ZodMiniType<T, Input>): ZodMiniType<T, Input> {
  return schema;
}
