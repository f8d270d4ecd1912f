import { exportPKCS8, generateKeyPair } from 'jose';
import { describe, expect, it, vi } from 'vitest';
import { AuthenticationClient, type AuthenticationClientOptions, ConfigurationError } from '../../src/auth/index.js';
import { stubBrowser } from '../helpers/browser.js';

const base = { domain: 'tenant.test', clientId: 'app' };
const edgeHeaders = {
  cnameApiKey: 'key',
  clientCertificate: '-----BEGIN CERTIFICATE-----\nMII\n-----END CERTIFICATE-----',
  clientCertificateCaVerified: 'SUCCESS',
};

describe('AuthenticationClient options', () => {
  const inferred: [string, Record<string, unknown>, string][] = [
    ['client id only', {}, 'none'],
    ['a secret', { clientSecret: 's' }, 'client_secret_post'],
    ['a signing key', { clientAssertionSigningKey: { kty: 'RSA', d: 'private-exponent' } }, 'private_key_jwt'],
    ['mtls edge headers', { mtls: { edgeHeaders } }, 'tls_client_auth'],
    ['an mtls fetch', { mtls: { fetch: globalThis.fetch } }, 'tls_client_auth'],
    ['a secret with Basic', { clientSecret: 's', tokenEndpointAuthMethod: 'client_secret_basic' }, 'client_secret_basic'],
  ];
  it.each(inferred)('infers the method from %s', (_, options, method) => {
    expect(new AuthenticationClient({ ...base, ...options } as AuthenticationClientOptions).toJSON().method).toBe(method);
  });

  // Plain JavaScript can pass what the options type refuses; the constructor says what is wrong.
  const refused: [string, Record<string, unknown>, string][] = [
    ['no client id', { clientId: '' }, '`clientId` is required'],
    [
      'a secret and a key without a method',
      { clientSecret: 's', clientAssertionSigningKey: { kty: 'RSA', d: 'private-exponent' } },
      '`clientSecret` and `clientAssertionSigningKey` were both given',
    ],
    [
      'a key the chosen method does not use',
      {
        clientSecret: 's',
        clientAssertionSigningKey: { kty: 'RSA', d: 'private-exponent' },
        tokenEndpointAuthMethod: 'client_secret_post',
      },
      "`clientAssertionSigningKey` cannot be used with tokenEndpointAuthMethod 'client_secret_post'",
    ],
    ['an algorithm without a key', { clientSecret: 's', clientAssertionSigningAlg: 'ES256' }, '`clientAssertionSigningAlg` goes with'],
    ['Basic without a secret', { tokenEndpointAuthMethod: 'client_secret_basic' }, "'client_secret_basic' needs `clientSecret`"],
    ['private_key_jwt without a key', { tokenEndpointAuthMethod: 'private_key_jwt' }, 'needs `clientAssertionSigningKey`'],
    ['a public JWK as the signing key (no `d`)', { clientAssertionSigningKey: { kty: 'RSA', n: 'AQAB', e: 'AQAB' } }, 'JWK without `d`'],
    ['tls_client_auth without mtls', { tokenEndpointAuthMethod: 'tls_client_auth' }, 'needs `mtls`'],
    ['mtls with both fetch and headers', { mtls: { fetch: globalThis.fetch, edgeHeaders } }, 'either `fetch`'],
    // One of the two would be dropped unsaid: every request goes through one fetch.
    ['an mtls fetch and a top-level fetch', { mtls: { fetch: globalThis.fetch }, fetch: globalThis.fetch }, 'not also as `fetch`'],
    ['an unknown method', { tokenEndpointAuthMethod: 'magic' as 'none' }, '`tokenEndpointAuthMethod` must be one of'],
    ['http to a remote host', { domain: undefined, baseUrl: 'http://example.com' }, 'loopback'],
    ['a baseUrl with a path (it would be dropped)', { domain: undefined, baseUrl: 'https://proxy.example.com/idp' }, 'without a path'],
    ['a header name that is not one', { headers: { 'bad header name': 'x' } }, '`headers`: the header name'],
    ['a header value with a line break', { headers: { 'x-trace': 'a\nb' } }, 'the value is not shown'],
  ];
  it.each(refused)('refuses %s with ConfigurationError', (_, options, message) => {
    const create = () => new AuthenticationClient({ ...base, ...options } as unknown as AuthenticationClientOptions);
    expect(create).toThrow(ConfigurationError);
    expect(create).toThrow(message);
  });

  it.each([
    ['a page (document)', 'document', {}],
    ['a Web Worker (importScripts)', 'importScripts', () => {}],
  ])('refuses a secret when running in a browser: %s', (_, global, value) => {
    stubBrowser(global, value);
    try {
      expect(() => new AuthenticationClient({ ...base, clientSecret: 's' })).toThrow('never be shipped to a browser');
      // The edge headers carry the edge's API key: a secret too.
      const edgeHeaders = { cnameApiKey: 'edge-api-key', clientCertificate: 'PEM', clientCertificateCaVerified: 'SUCCESS' };
      expect(() => new AuthenticationClient({ ...base, mtls: { edgeHeaders } })).toThrow('never be shipped to a browser');
      expect(() => new AuthenticationClient(base)).not.toThrow();
    } finally {
      vi.unstubAllGlobals();
    }
  });

  it('shows no secret or key in its inspect and JSON output', async () => {
    const { inspect } = await import('node:util');
    const { privateKey } = await generateKeyPair('RS256', { extractable: true });
    const pem = await exportPKCS8(privateKey);
    for (const options of [{ clientSecret: 'hidden-secret-value' }, { clientAssertionSigningKey: pem }]) {
      const auth = new AuthenticationClient({ ...base, ...options });
      const shown = `${inspect(auth, { depth: 10, showHidden: true })} ${JSON.stringify(auth)}`;
      expect(shown).not.toContain('hidden-secret-value');
      expect(shown).not.toContain('PRIVATE KEY');
    }
  });
});
