import { describe, expect, it } from 'vitest';
import { MAX_ERROR_BODY_DEPTH, redact } from '../../../src/core/http/redaction.js';

const SECRET = 'super-secret-value-123';
const TOKEN = 'eyJ.token.sig';

describe('redact', () => {
  it('replaces every occurrence of each secret in a string', () => {
    expect(redact(`secret ${SECRET} and again ${SECRET}, token ${TOKEN}`, [SECRET, TOKEN])).toBe(
      'secret [REDACTED] and again [REDACTED], token [REDACTED]',
    );
  });

  it('redacts inside nested objects and arrays and keeps other values', () => {
    const body = { error: 'invalid_client', details: [{ echoed: `Bearer ${TOKEN}`, count: 3, ok: true, none: null }] };
    expect(redact(body, [TOKEN])).toEqual({
      error: 'invalid_client',
      details: [{ echoed: 'Bearer [REDACTED]', count: 3, ok: true, none: null }],
    });
  });

  it('redacts keys as well as values', () => {
    expect(redact({ [`unknown ${TOKEN}`]: true }, [TOKEN])).toEqual({ 'unknown [REDACTED]': true });
  });

  it('does not change the value it was given', () => {
    const body = { message: SECRET };
    redact(body, [SECRET]);
    expect(body.message).toBe(SECRET);
  });

  it('ignores secrets shorter than 4 characters, which would shred ordinary text', () => {
    expect(redact('a b abc', ['a', 'ab', 'abc'])).toBe('a b abc');
    expect(redact('abcd', ['abcd'])).toBe('[REDACTED]');
  });

  it('ignores undefined secrets and returns the value when none is left', () => {
    const body = { message: 'hello' };
    expect(redact(body, [undefined])).toBe(body);
    expect(redact(body, [])).toBe(body);
  });

  describe('bodies nested deeper than MAX_ERROR_BODY_DEPTH', () => {
    // Objects and arrays in turn, `levels` containers deep, around the number 1.
    const nested = (levels: number): unknown => {
      let value: unknown = 1;
      for (let level = levels; level > 0; level--) value = level % 2 ? { a: value } : [value];
      return value;
    };
    /** How many containers deep `value` nests along its first members, and what is at the bottom. */
    const bottom = (value: unknown): { depth: number; at: unknown } => {
      let depth = 0;
      let at = value;
      while (typeof at === 'object' && at !== null) {
        at = Array.isArray(at) ? at[0] : (at as { a: unknown }).a;
        depth++;
      }
      return { depth, at };
    };

    it('returns a body of exactly that depth as it is, secrets or none', () => {
      const body = nested(MAX_ERROR_BODY_DEPTH);
      expect(redact(body, [])).toBe(body);
      expect(redact(body, [SECRET])).toEqual(body);
    });

    it('cuts a deeper body at that depth even when there is no secret to redact, and leaves the body itself alone', () => {
      const body = { message: 'kept', deep: nested(100_000) };
      for (const secrets of [[], [SECRET]]) {
        const cut = redact(body, secrets);
        expect(cut).not.toBe(body);
        expect(cut.message).toBe('kept');
        // The top object is level 1: 63 more containers, then the marker in place of the 65th.
        expect(bottom(cut.deep)).toEqual({ depth: MAX_ERROR_BODY_DEPTH - 1, at: '[nested too deep]' });
      }
      expect(bottom(body.deep).depth).toBe(100_000);
    });
  });

  it('leaves numbers, booleans, null and undefined as they are', () => {
    expect(redact(1234, ['1234'])).toBe(1234);
    expect(redact(null, [SECRET])).toBeNull();
    expect(redact(undefined, [SECRET])).toBeUndefined();
    expect(redact(true, [SECRET])).toBe(true);
  });
});
