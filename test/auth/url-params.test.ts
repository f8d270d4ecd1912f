import { describe, expect, it } from 'vitest';
import { anyText, checkUrlParams, flag, matching, navigationUrl, oneOf, wholeNumber } from '../../src/auth/url-params.js';
import { RequestValidationError } from '../../src/core/errors.js';

const rules = {
  to: navigationUrl('to must be an absolute URL', { required: true }),
  mode: oneOf(['a', 'b'], "mode must be 'a' or 'b'"),
  note: anyText('note'),
  code: matching(/^[0-9]{3}$/, 'code must be 3 digits'),
  on: flag('on'),
  age: wholeNumber('age'),
};

function issuesOf(given: unknown) {
  try {
    checkUrlParams(rules, given);
  } catch (error) {
    expect(error).toBeInstanceOf(RequestValidationError);
    return (error as RequestValidationError).issues;
  }
  throw new Error('expected RequestValidationError');
}

describe('checkUrlParams', () => {
  it('returns the parameters that follow every rule', () => {
    const given = { to: 'https://app.example.com/x', mode: 'b', note: '', code: '042', on: false, age: 0 };
    expect(checkUrlParams<typeof given>(rules, given)).toEqual(given);
  });

  it('names every broken rule with zod-style issues', () => {
    expect(issuesOf({ to: '/relative', mode: 'c', note: 1, code: '42', on: 'yes', age: 1.5 })).toEqual([
      { code: 'invalid_format', path: ['to'], message: 'to must be an absolute URL' },
      { code: 'invalid_value', path: ['mode'], message: "mode must be 'a' or 'b'" },
      { code: 'invalid_type', path: ['note'], message: 'note must be a string' },
      { code: 'invalid_format', path: ['code'], message: 'code must be 3 digits' },
      { code: 'invalid_type', path: ['on'], message: 'on must be a boolean' },
      { code: 'too_small', path: ['age'], message: 'age must be an integer >= 0' },
    ]);
  });

  it('navigationUrl: refuses script and local schemes, and a fragment where none may be; native app schemes pass', () => {
    const redirect = { to: navigationUrl('to must be a redirect URL', { required: true, fragment: false }) };
    for (const to of [
      'javascript:alert(1)',
      'JavaScript:alert(1)',
      'data:text/html,x',
      'vbscript:x',
      'file:///etc/passwd',
      'https://app/cb#f',
    ]) {
      expect(() => checkUrlParams(redirect, { to }), to).toThrow(RequestValidationError);
    }
    for (const to of ['https://app.example.com/cb', 'http://localhost:3000/cb', 'com.example.app:/callback']) {
      expect(checkUrlParams(redirect, { to })).toEqual({ to });
    }
    expect(checkUrlParams(rules, { to: 'https://app.example.com/#/after' })).toEqual({ to: 'https://app.example.com/#/after' });
  });

  it('refuses a missing required parameter, and takes an optional one left out or undefined', () => {
    expect(issuesOf({})).toEqual([{ code: 'invalid_type', path: ['to'], message: 'to must be an absolute URL' }]);
    expect(checkUrlParams(rules, { to: 'https://a.example', mode: undefined })).toEqual({ to: 'https://a.example', mode: undefined });
    expect(issuesOf({ to: 'https://a.example', age: -1 })[0]?.path).toEqual(['age']);
  });

  it('refuses unknown members, as a strict object does', () => {
    expect(issuesOf({ to: 'https://a.example', scopes: 'x', b: 1 })).toEqual([
      { code: 'unrecognized_keys', path: [], message: 'unknown keys "scopes", "b"' },
    ]);
  });

  it('refuses what is not an object', () => {
    for (const given of [undefined, null, 'https://a.example', ['https://a.example']]) {
      expect(issuesOf(given)).toEqual([{ code: 'invalid_type', path: [], message: 'the parameters must be an object' }]);
    }
  });
});
