import * as z from 'zod/mini';

/**
 * A free-form JSON object (spec 2.1 `app_metadata`, `user_metadata`: "additional
 * properties allowed"): any object that is not an array or `null`, its members
 * unchecked. Response bodies are checked and returned as parsed, so the members
 * are kept; the check itself never walks them (a `record(string, unknown)` would
 * visit every key to learn nothing).
 */
export function freeFormObject(): z.ZodMiniType<Record<string, unknown>, Record<string, unknown>> {
  return z.object({}) as unknown as z.ZodMiniType<Record<string, unknown>, Record<string, unknown>>;
}

/**
 * An absolute `https:` URL (the spec's `strict-https-uri`): a string that starts
 * with `https://` and that the runtime's URL parser accepts. `URL.canParse` decides
 * without building a `URL` object, which keeps checking a page of records cheap.
 */
export function httpsUrl(): z.ZodMiniType<string, string> {
  return z.string().check(z.refine((value) => value.startsWith('https://') && URL.canParse(value), 'must be an absolute https URL'));
}
