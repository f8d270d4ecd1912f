const REDACTED = '[REDACTED]';

/** The deepest nesting of a body an error keeps; deeper becomes `'[nested too deep]'`, so no logger recurses through a hostile answer. */
export const MAX_ERROR_BODY_DEPTH = 64;

/**
 * `value` (text or a JSON-like structure, keys included) with each secret, raw, form-, URI- or JSON-encoded, replaced by `[REDACTED]` and
 * cut at {@link MAX_ERROR_BODY_DEPTH} levels: for server text that enters an error. `value` is never changed; it is returned when clean.
 */
export function redact<T>(value: T, secrets: readonly (string | undefined)[]): T {
  const known = secrets.filter((secret): secret is string => typeof secret === 'string' && secret.length >= 4);
  if (known.length === 0 && !nestsDeeperThan(value, MAX_ERROR_BODY_DEPTH)) return value;
  // Longest first, so that a secret containing another is replaced whole.
  const forms = [...new Set(known.flatMap(encodedForms))].sort((a, b) => b.length - a.length);
  return redactWith(value, forms, 0) as T;
}

function encodedForms(secret: string): string[] {
  const forms = [secret, new URLSearchParams([['', secret]]).toString().slice(1), JSON.stringify(secret).slice(1, -1)];
  try {
    forms.push(encodeURIComponent(secret));
  } catch {
    // A lone surrogate cannot be URI-encoded, so it was never sent that way.
  }
  return forms.filter((form) => form.length >= 4);
}

function redactWith(value: unknown, secrets: readonly string[], depth: number): unknown {
  if (typeof value === 'string') return secrets.reduce((text, secret) => text.split(secret).join(REDACTED), value);
  if (value === null || typeof value !== 'object') return value;
  if (depth >= MAX_ERROR_BODY_DEPTH) return '[nested too deep]';
  if (Array.isArray(value)) return value.map((item) => redactWith(item, secrets, depth + 1));
  return Object.fromEntries(
    Object.entries(value).map(([key, item]) => [redactWith(key, secrets, depth + 1), redactWith(item, secrets, depth + 1)]),
  );
}

/** Whether arrays and objects in `value` nest deeper than `levelsLeft`; it recurses at most that deep, and allocates nothing. */
function nestsDeeperThan(value: unknown, levelsLeft: number): boolean {
  if (typeof value !== 'object' || value === null) return false;
  if (levelsLeft === 0) return true;
  for (const key in value) if (nestsDeeperThan((value as Record<string, unknown>)[key], levelsLeft - 1)) return true;
  return false;
}
