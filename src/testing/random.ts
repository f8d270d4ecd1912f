/**
 * A small seeded pseudo-random generator (mulberry32), so that every record the
 * emulator makes up is the same on every run: tests and examples print stable output.
 * Not for anything secret.
 */
export interface Random {
  /** A float in [0, 1). */
  next(): number;
  /** An integer in [0, max). */
  int(max: number): number;
  /** Whether a coin with probability `p` of heads came up heads. */
  chance(p: number): boolean;
  /** One item of a non-empty list. */
  pick<T>(items: readonly T[]): T;
  /** `length` characters of `alphabet` (default: letters and digits). */
  chars(length: number, alphabet?: string): string;
}

const ALPHANUMERIC = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';

/** A generator seeded with a number, or with a string (hashed with FNV-1a). */
export function createRandom(seed: number | string): Random {
  let state = (typeof seed === 'string' ? hash(seed) : seed) >>> 0;
  const next = () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const int = (max: number) => Math.floor(next() * max);
  return {
    next,
    int,
    chance: (p) => next() < p,
    pick: <T>(items: readonly T[]): T => {
      if (items.length === 0) throw new RangeError('pick() needs at least one item');
      return items[int(items.length)] as T;
    },
    chars: (length, alphabet = ALPHANUMERIC) => {
      const codes = new Array<number>(length);
      for (let index = 0; index < length; index++) codes[index] = alphabet.charCodeAt(int(alphabet.length));
      return String.fromCharCode(...codes);
    },
  };
}

/** 32-bit FNV-1a hash of a string. */
function hash(text: string): number {
  let value = 0x811c9dc5;
  for (let index = 0; index < text.length; index++) {
    value ^= text.charCodeAt(index);
    value = Math.imul(value, 0x01000193);
  }
  return value >>> 0;
}
