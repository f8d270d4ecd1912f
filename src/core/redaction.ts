const REDACTED = '[REDACTED]';

/** Structures nested deeper than this are replaced whole (no recursion on hostile input). */
const MAX_DEPTH = 64;

/**
 * Replaces every occurrence of the given secrets (client secret, assertion,
 * token) in `value` — a string, or any JSON-like structure, keys included — with `[REDACTED]`.
 * Used on server-sent text before it becomes part of an error, in case a
 * server echoes a credential back. Each secret is found in every form the SDK
 * sends it in: raw, form-encoded (`p+q/r=s t` → `p%2Bq%2Fr%3Ds+t`), URI-encoded,
 * and JSON-escaped (a server echoing a JSON body as text).
 */
export function redact<T>(value: T, secrets: readonly (string | undefined)[]): T {
  const known = secrets.filter((secret): secret is string => typeof secret === 'string' && secret.length >= 4);
  if (known.length === 0) return value;
  // Longest first, so that a secret containing another is replaced whole.
  const forms = [...new Set(known.flatMap(encodedForms))].sort((a, b) => b.length - a.length);
  return redactWith(value, forms, 0) as T;
}

/** The forms a secret travels in: raw, form-encoded, URI-encoded, JSON-escaped (distinct, at least 4 characters). */
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
  if (depth >= MAX_DEPTH) return '[nested too deep]';
  if (Array.isArray(value)) return value.map((item) => redactWith(item, secrets, depth + 1));
  return Object.fromEntries(
    Object.entries(value).map(([key, item]) => [redactWith(key, secrets, depth + 1), redactWith(item, secrets, depth + 1)]),
  );
}
