import { inheritsEnumerableMembers } from './own-properties.js';

const REDACTED = '[REDACTED]';

/**
 * The deepest nesting of a body an error keeps: 64 levels. The platform's bodies
 * nest 4 levels (metadata is free-form, but flat in practice); a structure nested
 * deeper is replaced whole by `'[nested too deep]'`, so that neither the SDK nor a
 * logger serializing the error recurses through hostile input.
 */
export const MAX_ERROR_BODY_DEPTH = 64;

/**
 * Replaces every occurrence of the given secrets (client secret, assertion,
 * token) in `value` — a string, or any JSON-like structure, keys included — with `[REDACTED]`,
 * and cuts a structure at {@link MAX_ERROR_BODY_DEPTH} levels (secrets or none).
 * Used on server-sent text and bodies before they become part of an error, in case a
 * server echoes a credential back. The value itself is never changed: without
 * secrets, a structure no deeper than the limit is returned as it is, else a copy.
 * Each secret is found in every form the SDK sends it in: raw, form-encoded
 * (`p+q/r=s t` → `p%2Bq%2Fr%3Ds+t`), URI-encoded, and JSON-escaped (a server
 * echoing a JSON body as text).
 */
export function redact<T>(value: T, secrets: readonly (string | undefined)[]): T {
  const known = secrets.filter((secret): secret is string => typeof secret === 'string' && secret.length >= 4);
  if (known.length === 0) return depthBounded(value);
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

/**
 * `value` with every structure nested deeper than {@link MAX_ERROR_BODY_DEPTH}
 * levels replaced by `'[nested too deep]'`: `value` itself when it nests no deeper
 * (the common case: nothing is copied), else a copy. For what is serialized or
 * compared whole (an error's body, a sort key), so that nothing recurses through
 * hostile input.
 */
export function depthBounded<T>(value: T): T {
  return typeof value === 'object' && value !== null && nestsDeeperThan(value, MAX_ERROR_BODY_DEPTH, inheritsEnumerableMembers())
    ? (redactWith(value, [], 0) as T)
    : value;
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

/**
 * Whether arrays and objects in `container` nest deeper than `levelsLeft`. It
 * recurses at most `levelsLeft` levels, whatever the input, and allocates nothing.
 * Only own members count (`checkOwn`: `Object.prototype` carries enumerable members,
 * which a `for…in` would visit on every object).
 */
function nestsDeeperThan(container: object, levelsLeft: number, checkOwn: boolean): boolean {
  if (levelsLeft === 0) return true;
  if (Array.isArray(container)) {
    for (const item of container)
      if (typeof item === 'object' && item !== null && nestsDeeperThan(item, levelsLeft - 1, checkOwn)) return true;
    return false;
  }
  const record = container as Record<string, unknown>;
  for (const key in record) {
    if (checkOwn && !Object.hasOwn(record, key)) continue;
    const item = record[key];
    if (typeof item === 'object' && item !== null && nestsDeeperThan(item, levelsLeft - 1, checkOwn)) return true;
  }
  return false;
}
