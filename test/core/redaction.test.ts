import { describe, expect, it } from 'vitest';
import { redact } from '../../src/core/redaction.js';

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

  it('leaves numbers, booleans, null and undefined as they are', () => {
    expect(redact(1234, ['1234'])).toBe(1234);
    expect(redact(null, [SECRET])).toBeNull();
    expect(redact(undefined, [SECRET])).toBeUndefined();
    expect(redact(true, [SECRET])).toBe(true);
  });
});
