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

// What a browser's email input accepts passes, and internationalized addresses (RFC 6531) too.
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
    'ivan@example.xn--p1ai',
    '山田@日本.com',
    'user@münchen.de',
    'josé@example.com',
    'пользователь@пример.рф',
    'अजय@डाटा.भारत',
    `a@${'x'.repeat(63)}.com`,
  ],
  [
    ...['no-at-sign', 'two@@example.com', 'sp ace@example.com', '@example.com', 'ada@', 'ada@-example.com'].map(
      (value) => [value, value] as const,
    ),
    ['an empty label', 'ada@example..com'],
    ['a trailing dot', 'ada@example.com.'],
    ['a label ending in a hyphen', 'ada@example-.com'],
    ['a label over 63 characters', `ada@${'x'.repeat(64)}.com`],
    ['an internationalized label over 63 characters', `ada@${'ü'.repeat(64)}.de`],
    ['a no-break space in the local part', 'a\u00a0b@example.com'],
    ['an ideographic space in the domain', '山田@日本\u3000.com'],
    ['a C1 control', 'a\u0085@example.com'],
    ['a line feed', 'ada@example.com\n'],
    ['a lone surrogate', 'a\ud800@example.com'],
    ['a quoted local part', '"a b"@example.com'],
    ['an IP literal', 'ada@[192.0.2.1]'],
    ['the empty string', ''],
  ],
);

describe('emailAddress on ASCII', () => {
  // The HTML standard's "valid email address", which the check was before it took other scripts.
  const HTML_EMAIL =
    /^[a-zA-Z0-9.!#$%&'*+/=?^_`{|}~-]+@[a-zA-Z0-9](?:[a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?(?:\.[a-zA-Z0-9](?:[a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?)*$/;

  it('accepts exactly what a browser email input accepts (responses read as before, no stricter)', () => {
    const schema = emailAddress();
    const alphabet = 'aZ09.-@_!"(),:;<>[\\] \t~`';
    let seed = 7;
    const next = () => {
      seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31;
      return seed;
    };
    for (let round = 0; round < 20_000; round++) {
      const value = Array.from({ length: 1 + (next() % 10) }, () => alphabet[next() % alphabet.length]).join('');
      expect(schema.safeParse(value).success, JSON.stringify(value)).toBe(HTML_EMAIL.test(value));
    }
  });
});

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
