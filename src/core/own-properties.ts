/**
 * A copy of an object's own enumerable properties on a null prototype, so that a
 * polluted `Object.prototype` (a `per_page`, `headers` or `signal` added by some
 * other code) can never be read as a parameter or an option. Other values are
 * returned unchanged.
 */
export function ownProperties<T>(value: T): T {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return value;
  return Object.assign(Object.create(null), value) as T;
}

/**
 * Whether plain objects inherit enumerable members: a polluted `Object.prototype`,
 * which `for…in` would visit and option readers (ky's too) would take as set.
 */
export function inheritsEnumerableMembers(): boolean {
  for (const _ in {}) return true;
  return false;
}
