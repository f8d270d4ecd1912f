import { createLocalJWKSet, exportJWK, exportSPKI, generateKeyPair, jwtVerify, SignJWT } from 'jose';
import { beforeAll, describe, expect, it } from 'vitest';
import { clientSecretBasic } from '../../src/core/tokens/client-authentication/client-secret.js';
import { type ClientRegistration, DEFAULT_CLIENT_SCOPES, type TenantEmulator } from '../../src/testing/index.js';
import { defaultGrant, emulatorWithClock, read, tokenRequest } from '../helpers/emulator.js';

const ASSERTION_TYPE = 'urn:ietf:params:oauth:client-assertion-type:jwt-bearer';

describe('POST /oauth/token', () => {
  const { emulator, clock } = emulatorWithClock();
  const audience = `${emulator.origin}/api/v2/`;

  describe('client_secret_post', () => {
    it('issues an RS256 token with the documented claims for a form body', async () => {
      const { status, body, headers } = await read(await tokenRequest(emulator, defaultGrant(emulator)));
      expect(status).toBe(200);
      expect(headers.get('cache-control')).toBe('no-store');
      expect(body).toEqual({
        access_token: expect.any(String),
        token_type: 'Bearer',
        expires_in: 86_400,
        scope: DEFAULT_CLIENT_SCOPES.join(' '),
      });
      const { access_token } = body as { access_token: string };
      const { payload, protectedHeader } = await jwtVerify(access_token, createLocalJWKSet(await emulator.jwks()), {
        currentDate: new Date(clock.now()),
      });
      expect(protectedHeader.alg).toBe('RS256');
      const issuedAt = Math.floor(clock.now() / 1000);
      expect(payload).toEqual({
        iss: `${emulator.origin}/`,
        sub: `${emulator.credentials.clientId}@clients`,
        aud: audience,
        iat: issuedAt,
        exp: issuedAt + 86_400,
        scope: DEFAULT_CLIENT_SCOPES.join(' '),
        gty: 'client-credentials',
        azp: emulator.credentials.clientId,
      });
    });

    it('accepts a JSON body', async () => {
      const response = await emulator.handle(
        new Request(`${emulator.origin}/oauth/token`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify(defaultGrant(emulator)),
        }),
      );
      expect(response.status).toBe(200);
    });

    it('accepts the token URL with a trailing slash (spec 5.1)', async () => {
      const response = await emulator.handle(
        new Request(`${emulator.origin}/oauth/token/`, { method: 'POST', body: new URLSearchParams(defaultGrant(emulator)) }),
      );
      expect(response.status).toBe(200);
    });

    it('answers 401 invalid_client to a wrong secret', async () => {
      const { status, body, headers } = await read(await tokenRequest(emulator, { ...defaultGrant(emulator), client_secret: 'wrong' }));
      expect(status).toBe(401);
      expect(body).toEqual({ error: 'invalid_client', error_description: 'Wrong client credentials' });
      expect(headers.get('x-ratelimit-remaining')).toMatch(/^\d+$/);
    });

    it('answers 401 invalid_client to an unknown client and to a client id alone', async () => {
      expect(await read(await tokenRequest(emulator, { ...defaultGrant(emulator), client_id: 'nobody' }))).toMatchObject({
        status: 401,
        body: { error: 'invalid_client', error_description: 'Unknown client' },
      });
      const { client_secret: _, ...withoutSecret } = defaultGrant(emulator);
      expect(await read(await tokenRequest(emulator, withoutSecret))).toMatchObject({ status: 401, body: { error: 'invalid_client' } });
    });
  });

  describe('client_secret_basic', () => {
    it('decodes form-urlencoded id and secret (RFC 6749 2.3.1), so an id may hold ":"', async () => {
      const credentials = emulator.registerClient({
        clientId: 'partner:app 1',
        clientSecret: 'sécret:with+plus',
        scopes: ['read:actions'],
        tokenEndpointAuthMethod: 'client_secret_basic',
      });
      const headers: Record<string, string> = {};
      clientSecretBasic(credentials.clientId, credentials.clientSecret ?? '').apply({ body: new URLSearchParams(), headers }, '');
      expect(atob(headers.authorization?.slice(6) ?? '')).toBe('partner%3Aapp+1:s%C3%A9cret%3Awith%2Bplus');
      const { status, body } = await read(await tokenRequest(emulator, { grant_type: 'client_credentials', audience }, headers));
      expect(status).toBe(200);
      expect(body).toMatchObject({ scope: 'read:actions' });
    });

    it.each(['abc+def', '100%sure', 'a b~c'])(
      'takes Base64 of `id:secret` as the spec writes it too, for the secret %j',
      async (secret) => {
        emulator.registerClient({
          clientId: 'svc',
          clientSecret: secret,
          scopes: ['read:actions'],
          tokenEndpointAuthMethod: 'client_secret_basic',
        });
        const authorization = `Basic ${btoa(`svc:${secret}`)}`;
        const { status } = await read(await tokenRequest(emulator, { grant_type: 'client_credentials', audience }, { authorization }));
        expect(status).toBe(200);
      },
    );

    it('answers 401 invalid_client with a Basic challenge to a wrong secret', async () => {
      const authorization = `Basic ${btoa(`${emulator.credentials.clientId}:nope`)}`;
      const response = await tokenRequest(emulator, { grant_type: 'client_credentials', audience }, { authorization });
      expect(response.headers.get('www-authenticate')).toBe(`Basic realm="${emulator.origin}"`);
      expect(await read(response)).toMatchObject({ status: 401, body: { error: 'invalid_client' } });
    });

    it('refuses malformed credentials, and a body client_id that differs from the header', async () => {
      const malformed = await tokenRequest(emulator, { grant_type: 'client_credentials', audience }, { authorization: 'Basic %%%' });
      expect(await read(malformed)).toMatchObject({
        status: 401,
        body: { error: 'invalid_client', error_description: 'Malformed Basic credentials' },
      });
      const authorization = `Basic ${btoa(`${emulator.credentials.clientId}:${emulator.credentials.clientSecret}`)}`;
      const differs = await tokenRequest(emulator, { grant_type: 'client_credentials', audience, client_id: 'other' }, { authorization });
      expect(await read(differs)).toMatchObject({ status: 400, body: { error: 'invalid_request' } });
    });

    it('enforces a registered method: a basic-only client may not post its secret', async () => {
      emulator.registerClient({ clientId: 'basic-only', clientSecret: 's', scopes: [], tokenEndpointAuthMethod: 'client_secret_basic' });
      const response = await tokenRequest(emulator, {
        grant_type: 'client_credentials',
        audience,
        client_id: 'basic-only',
        client_secret: 's',
      });
      expect(await read(response)).toMatchObject({
        status: 401,
        body: { error: 'invalid_client', error_description: 'The client is not configured for client_secret_post' },
      });
    });

    it('refuses a request that uses two methods at once', async () => {
      const authorization = `Basic ${btoa(`${emulator.credentials.clientId}:${emulator.credentials.clientSecret}`)}`;
      const response = await tokenRequest(emulator, defaultGrant(emulator), { authorization });
      expect(await read(response)).toMatchObject({ status: 400, body: { error: 'invalid_request' } });
    });
  });

  describe('private_key_jwt', () => {
    let keys: Awaited<ReturnType<typeof generateKeyPair>>;
    let other: Awaited<ReturnType<typeof generateKeyPair>>;
    beforeAll(async () => {
      keys = await generateKeyPair('RS256', { extractable: true });
      other = await generateKeyPair('RS256', { extractable: true });
      emulator.registerClient({
        clientId: 'jwt-client',
        publicKey: await exportSPKI(keys.publicKey),
        scopes: ['read:organization_invitations'],
      });
    });

    function assertion(claims: { iss?: string; sub?: string; aud?: string; exp?: number; jti?: string } = {}, key = keys.privateKey) {
      const issuedAt = Math.floor(clock.now() / 1000);
      return new SignJWT({})
        .setProtectedHeader({ alg: 'RS256' })
        .setIssuer(claims.iss ?? 'jwt-client')
        .setSubject(claims.sub ?? 'jwt-client')
        .setAudience(claims.aud ?? `${emulator.origin}/`)
        .setIssuedAt(issuedAt)
        .setExpirationTime(claims.exp ?? issuedAt + 60)
        .setJti(claims.jti ?? crypto.randomUUID())
        .sign(key);
    }

    async function withAssertion(clientAssertion: string, extra: Record<string, string> = {}) {
      return read(
        await tokenRequest(emulator, {
          grant_type: 'client_credentials',
          audience,
          client_id: 'jwt-client',
          client_assertion_type: ASSERTION_TYPE,
          client_assertion: clientAssertion,
          ...extra,
        }),
      );
    }

    it('accepts an assertion signed with the registered key, aud = issuer or token URL', async () => {
      expect(await withAssertion(await assertion())).toMatchObject({ status: 200, body: { scope: 'read:organization_invitations' } });
      expect(await withAssertion(await assertion({ aud: `${emulator.origin}/oauth/token` }))).toMatchObject({ status: 200 });
    });

    it('finds the client from iss when client_id is left out', async () => {
      const response = await tokenRequest(emulator, {
        grant_type: 'client_credentials',
        audience,
        client_assertion_type: ASSERTION_TYPE,
        client_assertion: await assertion(),
      });
      expect(response.status).toBe(200);
    });

    it('accepts keys registered as a JWK, a CryptoKey or a JWKS', async () => {
      const jwk = await exportJWK(keys.publicKey);
      const registrations: [string, Partial<ClientRegistration>][] = [
        ['jwk-client', { publicKey: jwk }],
        ['cryptokey-client', { publicKey: keys.publicKey }],
        ['jwks-client', { jwks: { keys: [{ ...jwk, kid: 'k1' }] } }],
      ];
      for (const [clientId, registration] of registrations) {
        emulator.registerClient({ clientId, scopes: [], ...registration });
        const signed = await assertion({ iss: clientId, sub: clientId });
        expect(await withAssertion(signed, { client_id: clientId }), clientId).toMatchObject({ status: 200 });
      }
    });

    it('refuses, when it is registered, a jwks that is not a key set', () => {
      for (const jwks of [{}, { keys: 'k1' }, { keys: [null] }, null]) {
        expect(() => emulator.registerClient({ clientId: 'bad-jwks', scopes: [], jwks: jwks as never })).toThrow(
          new TypeError('jwks must be a JSON Web Key Set: { keys: [ …public JWKs ] }'),
        );
      }
    });

    it('refuses a reused jti', async () => {
      const signed = await assertion({ jti: 'once' });
      expect(await withAssertion(signed)).toMatchObject({ status: 200 });
      expect(await withAssertion(signed)).toMatchObject({
        status: 401,
        body: { error: 'invalid_client', error_description: 'Invalid client assertion: this jti was already used' },
      });
    });

    it.each([
      ['signed with another key', () => assertion({}, other.privateKey)],
      ['expired', () => assertion({ exp: Math.floor(clock.now() / 1000) - 1 })],
      ['for another audience', () => assertion({ aud: 'https://elsewhere.example.com/' })],
      ['with sub other than the client', () => assertion({ sub: 'someone-else' })],
      ['with iss other than the client', () => assertion({ iss: 'someone-else' })],
      ['that is not a JWT', async () => 'not.a.jwt'],
    ])('answers 401 invalid_client to an assertion %s', async (_, make) => {
      expect(await withAssertion(await make())).toMatchObject({ status: 401, body: { error: 'invalid_client' } });
    });

    it('refuses a wrong client_assertion_type, and a secret client that sends an assertion', async () => {
      expect(await withAssertion(await assertion(), { client_assertion_type: 'jwt' })).toMatchObject({
        status: 400,
        body: { error: 'invalid_request' },
      });
      const forDefault = await assertion({ iss: emulator.credentials.clientId, sub: emulator.credentials.clientId });
      expect(await withAssertion(forDefault, { client_id: emulator.credentials.clientId })).toMatchObject({
        status: 401,
        body: { error_description: 'The client is not configured for private_key_jwt' },
      });
    });

    it('refuses a private key as the registered key', async () => {
      expect(() => emulator.registerClient({ clientId: 'x', publicKey: keys.privateKey, scopes: [] })).toThrow(/public/);
    });
  });

  describe('grant, audience and scope', () => {
    it('answers 400 to a missing or unsupported grant_type', async () => {
      const { grant_type: _, ...withoutGrant } = defaultGrant(emulator);
      expect(await read(await tokenRequest(emulator, withoutGrant))).toEqual({
        status: 400,
        headers: expect.anything(),
        body: { error: 'invalid_request', error_description: 'Missing required parameter: grant_type' },
      });
      expect(await read(await tokenRequest(emulator, { ...defaultGrant(emulator), grant_type: 'password' }))).toMatchObject({
        status: 400,
        body: { error: 'unsupported_grant_type' },
      });
    });

    it('answers 403 access_denied to a wrong or missing audience', async () => {
      expect(
        await read(await tokenRequest(emulator, { ...defaultGrant(emulator), audience: 'https://other.example.com/api/v2/' })),
      ).toMatchObject({
        status: 403,
        body: {
          error: 'access_denied',
          error_description:
            'audience "https://other.example.com/api/v2/" is not an API of this tenant; ' +
            `the Management API's audience is "${emulator.origin}/api/v2/"`,
        },
      });
      const { audience: _, ...withoutAudience } = defaultGrant(emulator);
      expect(await read(await tokenRequest(emulator, withoutAudience))).toMatchObject({ status: 403, body: { error: 'access_denied' } });
    });

    it('narrows the token to requested scopes, and refuses scopes not granted', async () => {
      expect(await read(await tokenRequest(emulator, { ...defaultGrant(emulator), scope: 'read:actions' }))).toMatchObject({
        status: 200,
        body: { scope: 'read:actions' },
      });
      expect(await read(await tokenRequest(emulator, { ...defaultGrant(emulator), scope: 'read:actions delete:users' }))).toMatchObject({
        status: 403,
        body: { error: 'access_denied', error_description: 'Client has not been granted scopes: delete:users' },
      });
    });

    it('refuses GET, unknown media types, broken JSON and repeated parameters', async () => {
      const get = await emulator.handle(new Request(`${emulator.origin}/oauth/token`));
      expect(get.status).toBe(405);
      expect(get.headers.get('allow')).toBe('POST');
      const text = await emulator.handle(
        new Request(`${emulator.origin}/oauth/token`, { method: 'POST', headers: { 'content-type': 'text/plain' }, body: 'x' }),
      );
      expect(await read(text)).toMatchObject({ status: 400, body: { error: 'invalid_request' } });
      const broken = await emulator.handle(
        new Request(`${emulator.origin}/oauth/token`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{' }),
      );
      expect(await read(broken)).toMatchObject({ status: 400, body: { error_description: 'Invalid request payload JSON format' } });
      const repeated = await emulator.handle(
        new Request(`${emulator.origin}/oauth/token`, {
          method: 'POST',
          body: `${new URLSearchParams(defaultGrant(emulator))}&audience=x`,
          headers: { 'content-type': 'application/x-www-form-urlencoded' },
        }),
      );
      expect(await read(repeated)).toMatchObject({
        status: 400,
        body: { error_description: 'Parameter "audience" was sent more than once' },
      });
    });

    it('issues tokens for the origin of the request and the configured lifetime', async () => {
      const local: TenantEmulator = emulatorWithClock({ origin: 'http://127.0.0.1:4000', tokenLifetimeSeconds: 600 }).emulator;
      const { body } = await read(await tokenRequest(local, defaultGrant(local)));
      expect(body).toMatchObject({ expires_in: 600 });
      const { payload } = await jwtVerify((body as { access_token: string }).access_token, createLocalJWKSet(await local.jwks()));
      expect(payload).toMatchObject({ iss: 'http://127.0.0.1:4000/', aud: 'http://127.0.0.1:4000/api/v2/' });
    });
  });

  it('generates a secret for a secret client registered without one', () => {
    const { clientSecret } = emulatorWithClock().emulator.registerClient({ clientId: 'generated', scopes: [] });
    expect(clientSecret).toMatch(/^[\w-]{40,}$/);
  });
});
