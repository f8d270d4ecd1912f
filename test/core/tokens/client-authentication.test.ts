import { decodeProtectedHeader, exportJWK, exportPKCS8, generateKeyPair, type JWTPayload, jwtVerify } from 'jose';
import { describe, expect, it } from 'vitest';
import { ConfigurationError, IdPlatformError } from '../../../src/core/errors.js';
import { clientSecretBasic, clientSecretPost } from '../../../src/core/tokens/client-authentication/client-secret.js';
import { privateKeyJwt } from '../../../src/core/tokens/client-authentication/private-key-jwt.js';
import {
  type ClientAssertionSigningAlg,
  type ClientAssertionSigningKey,
  checkSigningKeyOptions,
} from '../../../src/core/tokens/client-authentication/signing-key.js';
import type { ClientAuthentication, TokenEndpointRequest } from '../../../src/core/tokens/client-authentication/types.js';

const ISSUER = 'https://tenant.test/';
const ASSERTION_TYPE = 'urn:ietf:params:oauth:client-assertion-type:jwt-bearer';

/** Applies `authentication` to an empty token request and returns it, with the secrets `apply` reported. */
async function applyTo(authentication: ClientAuthentication): Promise<TokenEndpointRequest & { secrets: readonly string[] }> {
  const request = { body: new URLSearchParams({ grant_type: 'client_credentials' }), headers: {} };
  const secrets = await authentication.apply(request, ISSUER);
  return { ...request, secrets };
}

/** `application/x-www-form-urlencoded` decoding of one value: `+` is a space. */
const formDecode = (value: string) => decodeURIComponent(value.replaceAll('+', ' '));

describe('clientSecretPost', () => {
  it('puts client_id and client_secret in the form body and no header', async () => {
    const authentication = clientSecretPost('client:1', 'secret value');
    const { body, headers, secrets } = await applyTo(authentication);
    expect(body.get('client_id')).toBe('client:1');
    expect(body.get('client_secret')).toBe('secret value');
    expect(body.get('grant_type')).toBe('client_credentials');
    expect(headers).toEqual({});
    expect(authentication.method).toBe('client_secret_post');
    expect(secrets).toEqual(['secret value']);
  });
});

describe('clientSecretBasic', () => {
  it.each([
    ['plain ASCII', 'client_1', 'secret_1'],
    ['a colon', 'urn:client:1', 'pass:word:'],
    ['non-ASCII characters', 'clíent-東京', 'sécret-😀'],
    ['spaces and plus signs', 'my client', 'a+b c%20d'],
    ['form-special characters', 'a&b=c', '?#/\\"\''],
  ])('sends Basic base64(urlencode(id):urlencode(secret)) for an id and secret with %s', async (_kind, clientId, clientSecret) => {
    const authentication = clientSecretBasic(clientId, clientSecret);
    const { body, headers, secrets } = await applyTo(authentication);
    expect([...body.keys()]).toEqual(['grant_type']);

    const [scheme, credentials = ''] = (headers.authorization ?? '').split(' ');
    expect(scheme).toBe('Basic');
    const decoded = atob(credentials);
    const colon = decoded.indexOf(':');
    expect(formDecode(decoded.slice(0, colon))).toBe(clientId);
    expect(formDecode(decoded.slice(colon + 1))).toBe(clientSecret);
    expect(secrets).toEqual([clientSecret, decoded.slice(colon + 1), credentials]);
  });
});

describe('privateKeyJwt', () => {
  const CLIENT_ID = 'client-with-key';
  const NOW = 1_700_000_000_000;

  async function assertionsOf(signingKey: ClientAssertionSigningKey, alg: 'RS256' | 'ES256' = 'RS256') {
    const authentication = privateKeyJwt(CLIENT_ID, signingKey, alg, () => NOW);
    const first = await applyTo(authentication);
    const second = await applyTo(authentication);
    return { authentication, requests: [first, second] };
  }

  async function verify(assertion: string, publicKey: CryptoKey): Promise<JWTPayload> {
    const { payload } = await jwtVerify(assertion, publicKey, {
      issuer: CLIENT_ID,
      subject: CLIENT_ID,
      audience: ISSUER,
      currentDate: new Date(NOW + 1000),
    });
    return payload;
  }

  it('signs a fresh 60-second RS256 assertion (iss = sub = client id, aud = issuer, unique jti) on every apply, from a PKCS#8 PEM', async () => {
    const { publicKey, privateKey } = await generateKeyPair('RS256', { extractable: true });
    const pem = await exportPKCS8(privateKey);
    const { authentication, requests } = await assertionsOf(pem);

    const payloads: JWTPayload[] = [];
    for (const { body, headers, secrets } of requests) {
      expect(secrets).toEqual([body.get('client_assertion')]);
      expect(body.get('client_id')).toBe(CLIENT_ID);
      expect(body.get('client_assertion_type')).toBe(ASSERTION_TYPE);
      expect(body.has('client_secret')).toBe(false);
      expect(headers).toEqual({});
      const assertion = body.get('client_assertion') ?? '';
      expect(decodeProtectedHeader(assertion)).toEqual({ alg: 'RS256', typ: 'JWT' });
      const payload = await verify(assertion, publicKey);
      expect(payload).toMatchObject({ iss: CLIENT_ID, sub: CLIENT_ID, aud: ISSUER, iat: NOW / 1000 });
      expect((payload.exp ?? 0) - (payload.iat ?? 0)).toBe(60);
      expect(payload.jti).toEqual(expect.any(String));
      payloads.push(payload);
    }
    expect(payloads[0]?.jti).not.toBe(payloads[1]?.jti);
    expect(requests[0]?.body.get('client_assertion')).not.toBe(requests[1]?.body.get('client_assertion'));
    expect(authentication.method).toBe('private_key_jwt');
  });

  it('accepts a CryptoKey', async () => {
    const { publicKey, privateKey } = await generateKeyPair('RS256');
    const { requests } = await assertionsOf(privateKey);
    const payload = await verify(requests[0]?.body.get('client_assertion') ?? '', publicKey);
    expect(payload.sub).toBe(CLIENT_ID);
  });

  it('accepts a private JWK, with another algorithm', async () => {
    const { publicKey, privateKey } = await generateKeyPair('ES256', { extractable: true });
    const { requests } = await assertionsOf(await exportJWK(privateKey), 'ES256');
    const assertion = requests[0]?.body.get('client_assertion') ?? '';
    expect(decodeProtectedHeader(assertion).alg).toBe('ES256');
    expect((await verify(assertion, publicKey)).sub).toBe(CLIENT_ID);
  });

  it('names a JWK’s kid in the assertion header (the key among those the client registered), and no kid without one', async () => {
    const { privateKey } = await generateKeyPair('RS256', { extractable: true });
    const jwk = await exportJWK(privateKey);
    const named = await assertionsOf({ ...jwk, kid: 'key-2024' });
    expect(decodeProtectedHeader(named.requests[0]?.body.get('client_assertion') ?? '')).toEqual({
      alg: 'RS256',
      typ: 'JWT',
      kid: 'key-2024',
    });
    const unnamed = await assertionsOf(jwk);
    expect(decodeProtectedHeader(unnamed.requests[0]?.body.get('client_assertion') ?? '')).toEqual({ alg: 'RS256', typ: 'JWT' });
  });

  it('rejects an assertion checked against another key', async () => {
    const signer = await generateKeyPair('RS256');
    const other = await generateKeyPair('RS256');
    const { requests } = await assertionsOf(signer.privateKey);
    await expect(verify(requests[0]?.body.get('client_assertion') ?? '', other.publicKey)).rejects.toThrow();
  });

  // Keys that cannot sign the configured algorithm: each fails with ConfigurationError
  // (an IdPlatformError), never with jose's TypeError, and nothing is added to the request.
  const rsaKey = async (alg: 'RS256' | 'PS256' = 'RS256') => (await generateKeyPair(alg, { extractable: true })).privateKey;
  const unusable: [string, () => Promise<{ key: ClientAssertionSigningKey; alg: ClientAssertionSigningAlg }>, RegExp][] = [
    ['a public CryptoKey', async () => ({ key: (await generateKeyPair('RS256')).publicKey, alg: 'RS256' }), /is a public key/],
    [
      'a public JWK',
      async () => ({ key: await exportJWK((await generateKeyPair('RS256', { extractable: true })).publicKey), alg: 'RS256' }),
      /public key/,
    ],
    ['an RSA CryptoKey for ES256', async () => ({ key: await rsaKey(), alg: 'ES256' }), /not a ES256 key/],
    ['an RS256 CryptoKey for RS384 (another hash)', async () => ({ key: await rsaKey(), alg: 'RS384' }), /not a RS384 key/],
    ['an RSA-PSS CryptoKey for RS256', async () => ({ key: await rsaKey('PS256'), alg: 'RS256' }), /not a RS256 key/],
    ['a P-256 CryptoKey for ES384', async () => ({ key: (await generateKeyPair('ES256')).privateKey, alg: 'ES384' }), /not a ES384 key/],
    [
      'an RSA private JWK for ES256',
      async () => ({ key: await exportJWK(await rsaKey()), alg: 'ES256' }),
      /could not be used as a ES256 private key/,
    ],
    [
      'an RSA PEM for ES256',
      async () => ({ key: await exportPKCS8(await rsaKey()), alg: 'ES256' }),
      /could not be used as a ES256 private key/,
    ],
    [
      'a 1024-bit RSA key, which jose refuses only when it signs',
      async () => {
        const algorithm = { name: 'RSASSA-PKCS1-v1_5', modulusLength: 1024, publicExponent: new Uint8Array([1, 0, 1]), hash: 'SHA-256' };
        const { privateKey } = (await crypto.subtle.generateKey(algorithm, false, ['sign', 'verify'])) as CryptoKeyPair;
        return { key: privateKey, alg: 'RS256' };
      },
      /could not sign a RS256 client assertion/,
    ],
  ];
  it.each(unusable)('fails with ConfigurationError, not a jose TypeError, for %s', async (_, make, message) => {
    const { key, alg } = await make();
    const request = { body: new URLSearchParams(), headers: {} };
    const error = await Promise.resolve(privateKeyJwt(CLIENT_ID, key, alg).apply(request, ISSUER)).then(
      () => undefined,
      (reason: unknown) => reason,
    );
    expect(error).toBeInstanceOf(ConfigurationError);
    expect(IdPlatformError.is(error)).toBe(true);
    expect((error as Error).message).toMatch(message);
    expect([...request.body.keys()]).toEqual([]);
  });
});

describe('checkSigningKeyOptions', () => {
  it('accepts a private key: PEM, CryptoKey or JWK', async () => {
    const rsa = await generateKeyPair('RS256', { extractable: true });
    const ec = await generateKeyPair('ES256', { extractable: true });
    expect(checkSigningKeyOptions(await exportPKCS8(rsa.privateKey), undefined).alg).toBe('RS256');
    expect(checkSigningKeyOptions(rsa.privateKey, 'RS256').alg).toBe('RS256');
    expect(checkSigningKeyOptions(await exportJWK(rsa.privateKey), 'PS256').alg).toBe('PS256');
    expect(checkSigningKeyOptions(await exportJWK(ec.privateKey), 'ES256').alg).toBe('ES256');
  });

  it('refuses a public JWK (no `d`) with ConfigurationError, before jose is loaded', async () => {
    for (const { publicKey } of [
      await generateKeyPair('RS256', { extractable: true }),
      await generateKeyPair('ES256', { extractable: true }),
    ]) {
      const check = async () => checkSigningKeyOptions(await exportJWK(publicKey), 'RS256');
      await expect(check()).rejects.toBeInstanceOf(ConfigurationError);
      await expect(check()).rejects.toThrow('JWK without `d`');
    }
  });
});
