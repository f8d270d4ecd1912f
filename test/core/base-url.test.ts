import { describe, expect, it } from 'vitest';
import { isLoopback, resolveEndpoint } from '../../src/core/base-url.js';
import { ConfigurationError } from '../../src/core/errors.js';

const API_PATH = '/api/v2';

describe('resolveEndpoint with `domain`', () => {
  it.each(['acme.example.com', 'https://acme.example.com', 'https://acme.example.com/', 'acme.example.com/', 'ACME.Example.com'])(
    'turns %j into https://acme.example.com/api/v2',
    (domain) => {
      expect(resolveEndpoint({ domain }, API_PATH)).toEqual({
        baseUrl: 'https://acme.example.com/api/v2',
        origin: 'https://acme.example.com',
      });
    },
  );

  it('drops the root dot of a fully qualified name (the tenant and its audience know it without)', () => {
    expect(resolveEndpoint({ domain: 'acme.example.com.' }, API_PATH)).toEqual({
      baseUrl: 'https://acme.example.com/api/v2',
      origin: 'https://acme.example.com',
    });
    expect(resolveEndpoint({ baseUrl: 'https://acme.example.com./api/v2' }, API_PATH).origin).toBe('https://acme.example.com');
    expect(() => resolveEndpoint({ domain: 'localhost.' }, API_PATH)).toThrow('is a loopback host');
  });

  it('keeps a port', () => {
    expect(resolveEndpoint({ domain: 'acme.example.com:8443' }, API_PATH).baseUrl).toBe('https://acme.example.com:8443/api/v2');
  });

  it.each([
    'acme.example.com/api',
    'https://acme.example.com/tenant',
    'acme.example.com?x=1',
    'acme.example.com#frag',
    'acme.example.com?',
  ])('refuses %j, which is more than a host', (domain) => {
    expect(() => resolveEndpoint({ domain }, API_PATH)).toThrow(ConfigurationError);
  });

  it.each(['', '   '])('refuses the empty domain %j', (domain) => {
    expect(() => resolveEndpoint({ domain }, API_PATH)).toThrow(/required/);
  });

  it('requires `domain` or `baseUrl`', () => {
    expect(() => resolveEndpoint({}, API_PATH)).toThrow(ConfigurationError);
  });

  it('refuses `domain` and `baseUrl` together', () => {
    expect(() => resolveEndpoint({ domain: 'acme.example.com', baseUrl: 'https://acme.example.com/api/v2' }, API_PATH)).toThrow(
      /either `domain` or `baseUrl`/,
    );
  });
});

describe('resolveEndpoint with `baseUrl`', () => {
  it.each(['https://acme.example.com/api/v2?', 'https://acme.example.com/api/v2#', 'https://acme.example.com/api/v2?x=1'])(
    'refuses %j: a query or fragment, even an empty one, would come before every path',
    (baseUrl) => {
      expect(() => resolveEndpoint({ baseUrl }, API_PATH)).toThrow('must not contain a query or a fragment');
    },
  );

  it('keeps the path, drops trailing slashes and takes the origin for the token endpoint', () => {
    expect(resolveEndpoint({ baseUrl: 'https://proxy.example.com/idp/api/v2//' }, API_PATH)).toEqual({
      baseUrl: 'https://proxy.example.com/idp/api/v2',
      origin: 'https://proxy.example.com',
    });
  });

  it.each(['http://localhost:3000/api/v2', 'http://127.0.0.1:4000/api/v2', 'http://127.8.9.10/api/v2', 'http://[::1]:5000/api/v2'])(
    'allows http: for the loopback URL %s',
    (baseUrl) => {
      expect(resolveEndpoint({ baseUrl }, API_PATH).baseUrl).toBe(baseUrl);
    },
  );

  it.each(['http://example.com/api/v2', 'http://10.0.0.1/api/v2', 'http://localhost.example.com/api/v2', 'http://127.0.0.1.nip.io/api/v2'])(
    'refuses http: for the non-loopback URL %s',
    (baseUrl) => {
      expect(() => resolveEndpoint({ baseUrl }, API_PATH)).toThrow(/http: only for a loopback host/);
    },
  );

  it.each(['ftp://example.com/api/v2', 'ws://localhost/api/v2', 'file:///etc/passwd', 'javascript:alert(1)'])(
    'refuses the scheme of %s',
    (baseUrl) => {
      expect(() => resolveEndpoint({ baseUrl }, API_PATH)).toThrow(/must be an https: URL/);
    },
  );

  it.each(['https://acme.example.com/api/v2?tenant=1', 'https://acme.example.com/api/v2#top'])(
    'refuses the query or fragment of %s',
    (baseUrl) => {
      expect(() => resolveEndpoint({ baseUrl }, '/api/v2')).toThrow('must not contain a query or a fragment');
    },
  );

  it('refuses a string that is not a URL', () => {
    expect(() => resolveEndpoint({ baseUrl: 'not a url' }, API_PATH)).toThrow(/not a valid URL/);
  });

  it.each([
    ['baseUrl', { baseUrl: 'https://user:pass@acme.example.com/api/v2' }],
    ['baseUrl', { baseUrl: 'http://user@localhost/api/v2' }],
    ['domain', { domain: 'user:hunter22@acme.example.com' }],
  ])('refuses credentials in `%s` without repeating them', (_option, options) => {
    let caught: unknown;
    try {
      resolveEndpoint(options, API_PATH);
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(ConfigurationError);
    expect((caught as Error).message).toMatch(/must not contain credentials/);
    expect((caught as Error).message).not.toMatch(/hunter22|pass@/);
  });

  it('refuses http: for a domain that is not loopback', () => {
    expect(() => resolveEndpoint({ domain: 'http://example.com' }, API_PATH)).toThrow(ConfigurationError);
  });
});

describe('isLoopback', () => {
  it.each(['localhost', '127.0.0.1', '127.255.255.254', '127.1.2.3', '[::1]'])('says %s is the local machine', (host) => {
    expect(isLoopback(host)).toBe(true);
  });

  it.each(['example.com', '10.0.0.1', '128.0.0.1', '127.0.0.1.example.com', 'localhost.example.com', '::1', '[::2]', '0.0.0.0'])(
    'says %s is not',
    (host) => {
      expect(isLoopback(host)).toBe(false);
    },
  );
});
