import * as z from 'zod/mini';

/**
 * A string enum read forward-compatibly (DESIGN "Responses are read
 * forward-compatibly"): the known values are named in the type, and a value the
 * platform adds later is kept instead of failing validation. A non-string still
 * fails. For response schemas only; request parameters stay strict enums.
 *
 * ```ts
 * const MessageType = openEnum(['sms', 'voice']); // 'sms' | 'voice' | (string & {})
 * ```
 */
export function openEnum<const T extends readonly [string, ...string[]]>(
  known: T,
): z.ZodMiniType<T[number] | (string & {}), T[number] | (string & {})> {
  void known; // named for the type only: every string is accepted
  return z.string() as z.ZodMiniType<T[number] | (string & {}), T[number] | (string & {})>;
}
