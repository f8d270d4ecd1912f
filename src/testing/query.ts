/** Checks a query string against an operation's parameters, collecting every problem with its reason. */
export class QueryReader {
  /** Every problem found so far, readable (`page must be an integer >= 0 (got "-1")`). */
  readonly issues: string[] = [];
  readonly #params: URLSearchParams;

  /** Reports unknown parameters (not in `allowed`) and parameters given more than once. */
  constructor(params: URLSearchParams, allowed: readonly string[]) {
    this.#params = params;
    const seen = new Set<string>();
    for (const name of params.keys()) {
      if (seen.has(name)) continue;
      seen.add(name);
      if (!allowed.includes(name)) {
        this.issues.push(
          `unknown parameter "${name}"${allowed.length ? ` (allowed: ${allowed.join(', ')})` : ' (this operation takes none)'}`,
        );
      } else if (params.getAll(name).length > 1) {
        this.issues.push(`parameter "${name}" must be given once`);
      }
    }
  }

  /** The raw value of a parameter, if given. */
  string(name: string): string | undefined {
    return this.#params.get(name) ?? undefined;
  }

  /** A decimal integer in `[min, max]`; `fallback` when absent. */
  integer(name: string, bounds: { readonly min: number; readonly max?: number }, fallback: number): number {
    const raw = this.#params.get(name);
    if (raw === null) return fallback;
    const value = /^\d+$/.test(raw) ? Number(raw) : Number.NaN;
    const { min, max } = bounds;
    if (!Number.isSafeInteger(value) || value < min || (max !== undefined && value > max)) {
      const range = max === undefined ? `>= ${min}` : `between ${min} and ${max}`;
      this.issues.push(`${name} must be an integer ${range} (got "${raw}")`);
      return fallback;
    }
    return value;
  }

  /** `true` or `false`; `fallback` when absent. */
  boolean(name: string, fallback: boolean): boolean {
    const raw = this.#params.get(name);
    if (raw === null) return fallback;
    if (raw === 'true' || raw === 'false') return raw === 'true';
    this.issues.push(`${name} must be true or false (got "${raw}")`);
    return fallback;
  }

  /** The message of a 400 for the problems found. */
  get message(): string {
    return `Query validation error: ${this.issues.join('; ')}`;
  }
}
