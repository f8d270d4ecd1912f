import { generateKeyPair, SignJWT } from 'jose';
import { describe, expect, it } from 'vitest';
import { createTenantEmulator } from '../../src/testing/index.js';
import { emulatorWithClock, managementRequest, read } from '../helpers/emulator.js';

const INVITATIONS = '/organizations/org_small/invitations';

describe('Management API bearer tokens', () => {
  const { emulator, clock } = emulatorWithClock();

  const unauthorized = (message: string) => ({ statusCode: 401, error: 'Unauthorized', message, errorCode: 'invalid_token' });

  it('accepts a token of the emulator', async () => {
    expect((await managementRequest(emulator, INVITATIONS)).status).toBe(200);
  });

  it('answers 401 without an Authorization header', async () => {
    const response = await emulator.handle(new Request(`${emulator.origin}/api/v2${INVITATIONS}`));
    expect(await read(response)).toMatchObject({ status: 401, body: unauthorized('Missing authentication') });
    expect(response.headers.get('www-authenticate')).toMatch(/^Bearer error="invalid_token"/);
  });

  it('answers 401 to another scheme and to a malformed token', async () => {
    const basic = await emulator.handle(
      new Request(`${emulator.origin}/api/v2${INVITATIONS}`, { headers: { authorization: 'Basic abc' } }),
    );
    expect(await read(basic)).toMatchObject({ status: 401, body: unauthorized('Bad HTTP authentication header format') });
    expect(await read(await managementRequest(emulator, INVITATIONS, { token: 'not-a-jwt' }))).toMatchObject({
      status: 401,
      body: unauthorized('Invalid token'),
    });
  });

  it('answers 401 to a token with a bad signature (right claims, another key)', async () => {
    const { privateKey } = await generateKeyPair('RS256');
    const token = await new SignJWT({ scope: 'read:organization_invitations', gty: 'client-credentials' })
      .setProtectedHeader({ alg: 'RS256', typ: 'JWT' })
      .setIssuer(`${emulator.origin}/`)
      .setAudience(`${emulator.origin}/api/v2/`)
      .setSubject(`${emulator.credentials.clientId}@clients`)
      .setIssuedAt(Math.floor(clock.now() / 1000))
      .setExpirationTime(Math.floor(clock.now() / 1000) + 3600)
      .sign(privateKey);
    expect(await read(await managementRequest(emulator, INVITATIONS, { token }))).toEqual({
      status: 401,
      headers: expect.anything(),
      body: unauthorized('Invalid signature'),
    });
  });

  it('answers 401 to an unsigned (alg none) token', async () => {
    const [, payload] = (await emulator.createAccessToken()).split('.');
    const token = `${btoa(JSON.stringify({ alg: 'none' })).replace(/=+$/, '')}.${payload}.`;
    expect(await read(await managementRequest(emulator, INVITATIONS, { token }))).toMatchObject({
      status: 401,
      body: unauthorized('Invalid token'),
    });
  });

  it('answers 401 once the token expired, by the injected clock', async () => {
    const token = await emulator.createAccessToken({ expiresInSeconds: 60 });
    expect((await managementRequest(emulator, INVITATIONS, { token })).status).toBe(200);
    clock.advance(59_000);
    expect((await managementRequest(emulator, INVITATIONS, { token })).status).toBe(200);
    clock.advance(1_000);
    expect(await read(await managementRequest(emulator, INVITATIONS, { token }))).toMatchObject({
      status: 401,
      body: unauthorized('Expired token'),
    });
  });

  it('answers 401 to a token of another tenant (origin)', async () => {
    const token = await createTenantEmulator({ domain: 'other.emulator.test' }).createAccessToken();
    const response = await managementRequest(emulator, INVITATIONS, { token });
    expect(response.headers.get('www-authenticate')).toBe('Bearer error="invalid_token", error_description="Bad issuer"');
    expect(await read(response)).toMatchObject({
      status: 401,
      body: unauthorized(
        `Bad issuer: the token's issuer is "https://other.emulator.test/", this tenant's is "${emulator.origin}/" ` +
          `(createAccessToken needs { origin: "${emulator.origin}" } to make a token for this tenant)`,
      ),
    });
  });

  it('answers 401 to a token for another audience or issuer', async () => {
    const audience = await emulator.createAccessToken({ audience: 'https://other.example.com/api/v2/' });
    expect(await read(await managementRequest(emulator, INVITATIONS, { token: audience }))).toMatchObject({
      status: 401,
      body: unauthorized('Bad audience'),
    });
    const issuer = await emulator.createAccessToken({ origin: 'https://other.example.com', audience: `${emulator.origin}/api/v2/` });
    expect(await read(await managementRequest(emulator, INVITATIONS, { token: issuer }))).toMatchObject({
      status: 401,
      body: { message: expect.stringMatching(/^Bad issuer: the token's issuer is "https:\/\/other\.example\.com\/"/) },
    });
  });

  it('answers 401 to a token signed with an HMAC secret (only RS256 is accepted)', async () => {
    const token = await new SignJWT({ scope: 'read:organization_invitations' })
      .setProtectedHeader({ alg: 'HS256' })
      .setIssuer(`${emulator.origin}/`)
      .setAudience(`${emulator.origin}/api/v2/`)
      .setSubject('x@clients')
      .setExpirationTime('1h')
      .sign(new TextEncoder().encode('a-shared-secret-of-at-least-32-bytes!'));
    expect((await managementRequest(emulator, INVITATIONS, { token })).status).toBe(401);
  });

  it.each([
    ['GET', '/organizations/org_small/invitations', 'read:organization_invitations'],
    ['GET', '/actions/modules/mod_small/actions', 'read:actions'],
    ['GET', '/guardian/factors/phone/message-types', 'read:guardian_factors'],
    ['PUT', '/guardian/factors/phone/message-types', 'update:guardian_factors'],
  ])('%s %s needs %s, else 403 insufficient_scope', async (method, path, scope) => {
    const others = ['read:organization_invitations', 'read:actions', 'read:guardian_factors', 'update:guardian_factors'].filter(
      (s) => s !== scope,
    );
    const body = method === 'PUT' ? JSON.stringify({ message_types: ['sms'] }) : null;
    const headers = { 'content-type': 'application/json' };
    const refused = await managementRequest(emulator, path, {
      method,
      body,
      headers,
      token: await emulator.createAccessToken({ scopes: others }),
    });
    expect(await read(refused)).toMatchObject({
      status: 403,
      body: {
        statusCode: 403,
        error: 'Forbidden',
        message: `Insufficient scope, expected any of: ${scope}`,
        errorCode: 'insufficient_scope',
      },
    });
    const allowed = await managementRequest(emulator, path, {
      method,
      body,
      headers,
      token: await emulator.createAccessToken({ scopes: [scope] }),
    });
    expect(allowed.status).toBe(200);
  });
});

describe('Routes', () => {
  const emulator = createTenantEmulator();

  it('answers 404 to unknown Management API routes, before checking the token', async () => {
    for (const path of [
      '/api/v2',
      '/api/v2/users',
      '/api/v2/organizations/org_small',
      '/api/v2/organizations//invitations',
      '/api/v2/organizations/org_small/invitations/',
    ]) {
      const { status, body } = await read(await emulator.handle(new Request(`${emulator.origin}${path}`)));
      expect({ path, status, body }).toEqual({
        path,
        status: 404,
        body: { statusCode: 404, error: 'Not Found', message: 'Not Found', errorCode: 'not_found' },
      });
    }
  });

  it('answers 404 to unknown Authentication API routes, in its error shape', async () => {
    expect(await read(await emulator.handle(new Request(`${emulator.origin}/dbconnections/signup`)))).toMatchObject({
      status: 404,
      body: { error: 'not_found' },
    });
  });

  it('answers 405 with Allow to a known path with another method', async () => {
    const response = await emulator.handle(
      new Request(`${emulator.origin}/api/v2/guardian/factors/phone/message-types`, { method: 'DELETE' }),
    );
    expect(response.status).toBe(405);
    expect(response.headers.get('allow')).toBe('GET, PUT');
  });

  it('answers 400 to a malformed percent-encoding in the path', async () => {
    const response = await managementRequest(emulator, '/organizations/%E0%A4%A/invitations');
    expect(await read(response)).toMatchObject({ status: 400, body: { errorCode: 'invalid_uri' } });
  });

  it('serves its public keys at /.well-known/jwks.json', async () => {
    const { status, body } = await read(await emulator.handle(new Request(`${emulator.origin}/.well-known/jwks.json`)));
    expect(status).toBe(200);
    expect(body).toMatchObject({ keys: [{ kty: 'RSA', alg: 'RS256', use: 'sig', kid: expect.any(String) }] });
    expect(JSON.stringify(body)).not.toMatch(/"d":/);
  });
});
