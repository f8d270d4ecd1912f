const REDACTED = '[REDACTED]';

/**
 * Replaces every occurrence of the given secrets (client secret, assertion,
 * token) in `value` — a string, or any JSON-like structure, keys included — with `[REDACTED]`.
 * Used on server-sent text before it becomes part of an error, in case a
 * server echoes a credential back.
 */
export function redact<T>(value: T, secrets: readonly (string | undefined)[]): T {
  const known = secrets.filter((secret): secret is string => typeof secret === 'string' && secret.length >= 4);
  return known.length === 0 ? value : (redactWith(value, known) as T);
}

function redactWith(value: unknown, secrets: readonly string[]): unknown {
  if (typeof value === 'string') return secrets.reduce((text, secret) => text.split(secret).join(REDACTED), value);
  if (Array.isArray(value)) return value.map((item) => redactWith(item, secrets));
  if (value !== null && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([key, item]) => [redactWith(key, secrets), redactWith(item, secrets)]));
  }
  return value;
}
