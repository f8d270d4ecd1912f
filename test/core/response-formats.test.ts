import { describe, expect, it } from 'vitest';
import { emailAddress, freeFormObject, httpsUrl } from '../../src/core/response-formats.js';

/** A format's cases: every accepted value passes its schema, every refused one (named) fails it. */
function formatCases(
  name: string,
  schema: { safeParse(value: unknown): { success: boolean } },
  accepted: readonly string[],
  refused: readonly (readonly [string, string])[],
) {
  describe(name, () => {
    it.each(accepted)('accepts %s', (value) => {
      expect(schema.safeParse(value).success).toBe(true);
    });
    it.each(refused)('refuses %s', (_, value) => {
      expect(schema.safeParse(value).success).toBe(false);
    });
  });
}

formatCases(
  'httpsUrl',
  httpsUrl(),
  [
    'https://acme.example.com/invite?invitation=abc&organization=org_1',
    'https://a.example:8443/x#y',
    'https://[::1]/x',
    'https://localhost',
    'https://my_app.example.com/login',
    'https://bücher.example/login?invitation=t1',
    'https://app.example.com./login',
    'HTTPS://APP.EXAMPLE.COM/login',
    'https://[2001:DB8::1]:8443/x',
  ],
  [
    ['plain http', 'http://acme.example.com/'],
    ['user info', 'https://user:pw@acme.example.com/'],
    ['a user name', 'https://user@acme.example.com/'],
    ['no slashes', 'https:acme.example.com'],
    ['no host', 'https://'],
    ['whitespace in the host', 'https://exa mple.com'],
    ['whitespace in the path', 'https://acme.example.com/a b'],
    ['leading whitespace', ' https://acme.example.com'],
    ['another scheme', 'ftp://acme.example.com'],
    ['a relative URL', '/invite'],
  ],
);

// What a browser's email input accepts passes.
formatCases(
  'emailAddress',
  emailAddress(),
  [
    'ada@example.com',
    'a&b@example.com',
    "o'brien@example.com",
    'x!y@example.com',
    'q#1@example.com',
    'a@example.c',
    'a+tag@sub.example.co.uk',
  ],
  ['no-at-sign', 'two@@example.com', 'sp ace@example.com', '@example.com', 'ada@', 'ada@-example.com'].map(
    (value) => [value, value] as const,
  ),
);

describe('freeFormObject', () => {
  const freeForm = freeFormObject();

  it('accepts any object, members unchecked', () => {
    expect(freeForm.safeParse({}).success).toBe(true);
    expect(freeForm.safeParse({ plan: 'pro', nested: { deep: [1, { x: null }] } }).success).toBe(true);
  });

  it.each([null, [], 'text', 1, true])('refuses %j', (value) => {
    expect(freeForm.safeParse(value).success).toBe(false);
  });
});
