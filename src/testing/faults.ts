import { MAX_TIMER_MS } from './sleep.js';
/** Scripted faults: the next N matching responses are rate-limited, unavailable, slow or malformed. */

/** Which requests a fault applies to; by default every request. */
export interface FaultMatch {
  /** HTTP method, any case, e.g. `'GET'`. */
  readonly method?: string;
  /**
   * The URL path as sent (percent-encoded), e.g. `/api/v2/guardian/factors/phone/message-types`.
   * A string matches exactly, or as a prefix when it ends with `*`; a RegExp is tested.
   */
  readonly path?: string | RegExp;
}

/** Answer 429 with `X-RateLimit-Remaining: 0`, `X-RateLimit-Reset` in the future and `Retry-After`. */
export interface RateLimitFault extends FaultMatch {
  readonly status: 429;
  /** Seconds until the (pretend) bucket refills; default 1. */
  readonly retryAfterSeconds?: number;
}

/** Answer a server error (503 Service Unavailable, or 500/502/504) without touching the data. */
export interface ServerErrorFault extends FaultMatch {
  readonly status: 500 | 502 | 503 | 504;
}

/** Wait `delayMs` before answering normally (aborts with the request's signal). */
export interface SlowFault extends FaultMatch {
  readonly delayMs: number;
}

/**
 * Answer normally, but replace a 2xx JSON body with one that breaks its schema
 * (a field of the wrong type), or with `body` when given. Error responses pass unchanged.
 */
export interface MalformedFault extends FaultMatch {
  readonly malformed: true;
  /** The exact body to send instead. */
  readonly body?: unknown;
}

/** One scripted fault. */
export type Fault = RateLimitFault | ServerErrorFault | SlowFault | MalformedFault;

/** The fault script of an emulator (`emulator.faults`). */
export interface FaultScript {
  /**
   * The next `count` requests that match `fault` (see {@link FaultMatch}) get it.
   * Scripts queue up: a request takes the first pending fault it matches.
   */
  next(count: number, fault: Fault): void;
  /** Drops every pending fault. */
  clear(): void;
  /** How many faulted responses are still pending. */
  readonly pending: number;
}

/** The longest scripted delay: what a timer can hold (2^31 − 1 ms, about 24.8 days). */
export const MAX_DELAY_MS = MAX_TIMER_MS;

interface Scripted {
  readonly fault: Fault;
  remaining: number;
}

/** The queue behind {@link FaultScript}. */
export class FaultQueue implements FaultScript {
  readonly #queue: Scripted[] = [];

  next(count: number, fault: Fault): void {
    if (!Number.isSafeInteger(count) || count < 1) throw new RangeError('faults.next(count, fault): count must be a positive integer');
    checkFault(fault);
    this.#queue.push({ fault, remaining: count });
  }

  clear(): void {
    this.#queue.length = 0;
  }

  get pending(): number {
    return this.#queue.reduce((sum, entry) => sum + entry.remaining, 0);
  }

  /** Takes the fault for a request, if one is scripted for it. */
  take(method: string, pathname: string): Fault | undefined {
    const index = this.#queue.findIndex(({ fault }) => matches(fault, method, pathname));
    const entry = this.#queue[index];
    if (entry === undefined) return undefined;
    entry.remaining--;
    if (entry.remaining === 0) this.#queue.splice(index, 1);
    return entry.fault;
  }
}

function matches(fault: FaultMatch, method: string, pathname: string): boolean {
  if (fault.method !== undefined && fault.method.toUpperCase() !== method.toUpperCase()) return false;
  const { path } = fault;
  if (path === undefined) return true;
  if (path instanceof RegExp) {
    path.lastIndex = 0;
    return path.test(pathname);
  }
  return path.endsWith('*') ? pathname.startsWith(path.slice(0, -1)) : pathname === path;
}

function checkFault(fault: Fault): void {
  if ('status' in fault) {
    if (![429, 500, 502, 503, 504].includes(fault.status)) throw new RangeError('a fault status must be 429, 500, 502, 503 or 504');
    if ('retryAfterSeconds' in fault && fault.retryAfterSeconds !== undefined) {
      if (!Number.isSafeInteger(fault.retryAfterSeconds) || fault.retryAfterSeconds < 1) {
        throw new RangeError('retryAfterSeconds must be a positive integer');
      }
    }
  } else if ('delayMs' in fault) {
    // Above 2^31 − 1 ms a timer fires at once instead of never.
    if (!Number.isFinite(fault.delayMs) || fault.delayMs < 0 || fault.delayMs > MAX_DELAY_MS) {
      throw new RangeError(`delayMs must be a number from 0 to ${MAX_DELAY_MS}`);
    }
  } else if (!('malformed' in fault) || fault.malformed !== true) {
    throw new TypeError('a fault is { status }, { delayMs } or { malformed: true }');
  }
}

/**
 * Makes a JSON value break any schema that accepted it.
 * In an array the first item is broken; an empty array gets a number.
 * In an object the first property gets a value of another type.
 * An empty object becomes a string: an added property would not break it, since the SDK keeps properties the platform adds.
 * `{ message_types: ['sms'] }` becomes `{ message_types: 'not-an-array' }`.
 */
export function malform(value: unknown): unknown {
  if (Array.isArray(value)) return value.length === 0 ? [42] : [malform(value[0]), ...value.slice(1)];
  if (typeof value === 'object' && value !== null) {
    const entries = Object.entries(value);
    const [first, ...rest] = entries;
    if (first === undefined) return mistyped(value);
    return Object.fromEntries([[first[0], mistyped(first[1])], ...rest]);
  }
  return mistyped(value);
}

function mistyped(value: unknown): unknown {
  if (typeof value === 'string') return 42;
  if (typeof value === 'number') return 'not-a-number';
  if (typeof value === 'boolean') return 'not-a-boolean';
  if (Array.isArray(value)) return 'not-an-array';
  if (typeof value === 'object' && value !== null) return 'not-an-object';
  return { unexpected: true };
}
