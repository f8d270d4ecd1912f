/**
 * `value` as JSON text for the emulator's messages and sort keys, whatever it holds.
 * A request body may nest thousands of levels within its 64 KiB, too deep for `JSON.stringify`.
 * Such a value gives a placeholder instead of a stack overflow, which the emulator would answer as a 500.
 */
export function jsonText(value: unknown): string {
  try {
    return JSON.stringify(value) ?? String(value);
  } catch {
    return '"(a value nested too deep to show)"';
  }
}
