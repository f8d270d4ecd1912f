import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AuthApiError, AuthenticationClient } from '../../src/auth/index.js';
import { createTenantEmulator, type EmulatorServer } from '../../src/testing/index.js';

describe('GET /userinfo', () => {
  const emulator = createTenantEmulator();
  const userInfo = (headers: Record<string, string> = {}, method = 'GET') =>
    emulator.handle(new Request(`${emulator.origin}/userinfo`, { method, headers }));

  it('answers { sub } for a token the emulator issued', async () => {
    const token = await emulator.createAccessToken();
    const response = await userInfo({ authorization: `Bearer ${token}` });
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ sub: `${emulator.credentials.clientId}@clients` });
  });

  it.each([
    ['no Authorization header', {}],
    ['a Basic header', { authorization: 'Basic YTpi' }],
    ['a token that is not a JWT', { authorization: 'Bearer not-a-jwt' }],
  ])('refuses %s with 401 invalid_token and WWW-Authenticate', async (_, headers) => {
    const response = await userInfo(headers);
    expect(response.status).toBe(401);
    expect(response.headers.get('www-authenticate')).toMatch(/^Bearer error="invalid_token"/);
    expect(await response.json()).toMatchObject({ error: 'invalid_token' });
  });

  it('refuses an expired token and a token for another origin', async () => {
    const expired = await emulator.createAccessToken({ expiresInSeconds: -60 });
    expect(await (await userInfo({ authorization: `Bearer ${expired}` })).json()).toMatchObject({ error_description: 'Expired token' });
    const foreign = await emulator.createAccessToken({ origin: 'https://other.emulator.test' });
    const refused = await userInfo({ authorization: `Bearer ${foreign}` });
    expect(refused.status).toBe(401);
    expect(await refused.json()).toMatchObject({
      error_description:
        `Bad issuer: the token's issuer is "https://other.emulator.test/", this tenant's is "${emulator.origin}/" ` +
        `(createAccessToken needs { origin: "${emulator.origin}" } to make a token for this tenant)`,
    });
  });

  it('answers 405 to other methods', async () => {
    const response = await userInfo({}, 'POST');
    expect(response.status).toBe(405);
    expect(response.headers.get('allow')).toBe('GET');
  });

  describe('through AuthenticationClient, over the loopback server', () => {
    let server: EmulatorServer;
    let auth: AuthenticationClient;
    beforeAll(async () => {
      server = await emulator.listen();
      auth = new AuthenticationClient({ baseUrl: server.url, ...emulator.credentials });
    });
    afterAll(() => server.close());

    it('userInfo.get returns the subject of a client-credentials token', async () => {
      const { access_token } = await auth.oauth.clientCredentialsGrant({ audience: `${server.url}/api/v2/` });
      await expect(auth.userInfo.get(access_token)).resolves.toEqual({ sub: `${emulator.credentials.clientId}@clients` });
    });

    it('userInfo.get rejects a refused token with an error that does not hold it', async () => {
      const error = await auth.userInfo.get('not-a-jwt').catch((caught: unknown) => caught);
      expect(error).toBeInstanceOf(AuthApiError);
      expect(error).toMatchObject({ status: 401, error: 'invalid_token' });
      expect(JSON.stringify(error)).not.toContain('not-a-jwt');
    });
  });
});
