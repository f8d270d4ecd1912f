import { exportPKCS8, generateKeyPair } from 'jose';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { AuthenticationClient } from '../../../src/auth/index.js';
import { ConfigurationError } from '../../../src/core/errors.js';
import {
  clientIdOnlyCredentials,
  clientSecretCredentials,
  resolveCredentials,
  signingKeyCredentials,
} from '../../../src/core/tokens/credentials.js';
import { mtlsCredentials } from '../../../src/core/tokens/mtls-options.js';
import { ManagementClient } from '../../../src/management/index.js';
import { stubBrowser } from '../../helpers/browser.js';

const domain = 'tenant.test';
const edgeHeaders = { cnameApiKey: 'edge-api-key', clientCertificate: 'PEM', clientCertificateCaVerified: 'SUCCESS' };

describe('resolveCredentials', () => {
  afterEach(() => {
    vi.unstubAllGlobals();
  });

  it('decides the method from the one credential given', () => {
    const checks = { client_secret_post: clientSecretCredentials, none: clientIdOnlyCredentials };
    expect(resolveCredentials({ clientId: 'c', clientSecret: 's' }, checks).method).toBe('client_secret_post');
    expect(resolveCredentials({ clientId: 'c' }, checks).method).toBe('none');
  });

  it.each([
    ['a cnameApiKey with a trailing newline (read from a file)', { cnameApiKey: 'edge-key\n' }],
    ['a cnameApiKey with an inner CRLF', { cnameApiKey: 'edge\r\nX-Injected: 1' }],
    ['a clientCertificateCaVerified with a newline', { clientCertificateCaVerified: 'SUCCESS\nx' }],
    ['a cnameApiKey above U+00FF', { cnameApiKey: 'clé-€' }],
  ])('refuses mTLS edge headers with %s in the constructor: a header could not carry it', (_, bad) => {
    const mtls = {
      edgeHeaders: { ...edgeHeaders, clientCertificate: '-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----\n', ...bad },
    };
    expect(() => new AuthenticationClient({ domain, clientId: 'c', mtls })).toThrow(ConfigurationError);
    expect(() => new AuthenticationClient({ domain, clientId: 'c', mtls })).toThrow(
      /`mtls\.edgeHeaders\.\w+` holds a character a header cannot carry/,
    );
  });

  describe.each([
    ['a page (document)', 'document', {}],
    ['a Web Worker (importScripts)', 'importScripts', () => {}],
  ])('in a browser: %s', (_, global, value) => {
    it('ManagementClient refuses a client secret and a signing key (they can mint tokens for the whole tenant)', async () => {
      stubBrowser(global, value);
      const pem = await exportPKCS8((await generateKeyPair('RS256', { extractable: true })).privateKey);
      for (const credential of [{ clientSecret: 's' }, { clientAssertionSigningKey: pem }]) {
        const create = () => new ManagementClient({ domain, clientId: 'c', ...credential });
        expect(create).toThrow(ConfigurationError);
        expect(create).toThrow('never be shipped to a browser: pass a `token`');
      }
    });

    it('in a simulated DOM (jsdom, happy-dom: tests running in Node), both clients take a client secret', () => {
      vi.stubGlobal(global, value);
      for (const userAgent of [
        'Mozilla/5.0 (linux) AppleWebKit/537.36 (KHTML, like Gecko) jsdom/26.1.0',
        'Mozilla/5.0 (X11; Linux x64) AppleWebKit/537.36 (KHTML, like Gecko) HappyDOM/17.4.4',
      ]) {
        vi.stubGlobal('navigator', { userAgent });
        expect(() => new ManagementClient({ domain, clientId: 'c', clientSecret: 's' })).not.toThrow();
        expect(() => new AuthenticationClient({ domain, clientId: 'c', clientSecret: 's' })).not.toThrow();
      }
    });

    it('ManagementClient still takes a bearer token, and AuthenticationClient a client id alone', () => {
      stubBrowser(global, value);
      expect(() => new ManagementClient({ domain, token: 't' })).not.toThrow();
      expect(() => new ManagementClient({ domain, token: async () => 't' })).not.toThrow();
      expect(() => new AuthenticationClient({ domain, clientId: 'c' })).not.toThrow();
    });

    it('resolveCredentials refuses every credential that holds a secret, for either client', () => {
      stubBrowser(global, value);
      const refused = [{ clientSecret: 's' }, { clientAssertionSigningKey: { kty: 'RSA', d: 'x' } }, { mtls: { edgeHeaders } }];
      for (const credential of refused) {
        expect(() =>
          resolveCredentials(
            { clientId: 'c', ...credential },
            { client_secret_post: clientSecretCredentials, private_key_jwt: signingKeyCredentials, tls_client_auth: mtlsCredentials },
          ),
        ).toThrow('never be shipped to a browser');
      }
      // A certificate-presenting fetch holds no secret the page could leak.
      const mtls = { fetch: globalThis.fetch };
      expect(resolveCredentials({ clientId: 'c', mtls }, { tls_client_auth: mtlsCredentials }).method).toBe('tls_client_auth');
    });
  });

  // Server runtimes have neither `document` nor `importScripts`: workerd's navigator, Deno's and Bun's globals do not count.
  it.each([
    ['workerd', { navigator: { userAgent: 'Cloudflare-Workers' } }],
    ['Deno', { Deno: { version: { deno: '2.5.0' } }, navigator: { userAgent: 'Deno/2.5.0' } }],
    ['Bun', { Bun: { version: '1.3.0' }, navigator: { userAgent: 'Bun/1.3.0' } }],
  ])('ManagementClient keeps a client secret in %s', (_, globals) => {
    for (const [name, value] of Object.entries(globals)) vi.stubGlobal(name, value);
    expect(() => new ManagementClient({ domain, clientId: 'c', clientSecret: 's' })).not.toThrow();
    expect(() => new AuthenticationClient({ domain, clientId: 'c', clientSecret: 's' })).not.toThrow();
  });
});
