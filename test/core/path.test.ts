import { describe, expect, it } from 'vitest';
import { RequestValidationError } from '../../src/core/errors.js';
import { encodePath } from '../../src/core/path.js';

/** Where a request for `path` below the API's base URL really goes. */
function resolvedPath(path: string): string {
  return new URL(path, 'https://tenant.test/api/v2/').pathname;
}

describe('encodePath', () => {
  it('leaves the template literal parts alone and inserts plain ids as they are', () => {
    expect(encodePath`organizations/${'org_123'}/invitations`).toBe('organizations/org_123/invitations');
  });

  it('encodes `../x` so that it cannot climb out of the path', () => {
    const path = encodePath`organizations/${'../x'}/invitations`;
    expect(path).toBe('organizations/..%2Fx/invitations');
    expect(resolvedPath(path)).toBe('/api/v2/organizations/..%2Fx/invitations');
  });

  it('encodes `/`, `?` and `#` so that an id stays one path segment', () => {
    const path = encodePath`organizations/${'a/b?c#d'}/invitations`;
    expect(path).toBe('organizations/a%2Fb%3Fc%23d/invitations');
    const url = new URL(path, 'https://tenant.test/api/v2/');
    expect(url.search).toBe('');
    expect(url.hash).toBe('');
  });

  it('encodes spaces, percent signs and non-ASCII characters as UTF-8', () => {
    expect(encodePath`x/${'a b'}`).toBe('x/a%20b');
    expect(encodePath`x/${'100%'}`).toBe('x/100%25');
    expect(encodePath`x/${'équipe-東京-😀'}`).toBe(`x/${'%C3%A9quipe-%E6%9D%B1%E4%BA%AC-%F0%9F%98%80'}`);
  });

  it('encodes every parameter of the template', () => {
    expect(encodePath`a/${'1/2'}/b/${'3?4'}`).toBe('a/1%2F2/b/3%3F4');
  });

  it.each(['.', '..', ''])('refuses the id %j with RequestValidationError', (id) => {
    let caught: unknown;
    try {
      encodePath`organizations/${id}/invitations`;
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(RequestValidationError);
    expect((caught as RequestValidationError).issues).toEqual([expect.objectContaining({ code: 'invalid_path_parameter' })]);
  });

  it('accepts ids that merely contain dots', () => {
    expect(encodePath`x/${'...'}`).toBe('x/...');
    expect(encodePath`x/${'a.b'}`).toBe('x/a.b');
  });
});
