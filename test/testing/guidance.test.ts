import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ManagementClient, NotFoundError, TokenRequestError, UnauthorizedError } from '../../src/management/index.js';
import { createTenantEmulator, type EmulatorServer } from '../../src/testing/index.js';

/** What a call rejected with; fails when it resolves. */
async function rejection(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  throw new Error('expected the call to fail, but it succeeded');
}

// The mistakes users made first with the loopback server, and what the emulator now tells them.
describe('the emulator guides a client that is aimed wrong', () => {
  const emulator = createTenantEmulator();
  let server: EmulatorServer;
  beforeAll(async () => {
    server = await emulator.listen();
  });
  afterAll(() => server.close());

  describe('listen()', () => {
    it('returns { url, baseUrl, close }, and baseUrl is what a ManagementClient takes', async () => {
      expect(Object.keys(server).sort()).toEqual(['baseUrl', 'close', 'url']);
      expect(server.baseUrl).toBe(`${server.url}/api/v2`);
      const management = new ManagementClient({ baseUrl: server.baseUrl, ...emulator.credentials });
      expect(await management.guardian.phone.getMessageTypes()).toEqual({ message_types: ['sms'] });
    });
  });

  describe('a token from createAccessToken() without { origin }, sent to the loopback server', () => {
    it('is refused with the origin to pass, in the body (the WWW-Authenticate description stays short)', async () => {
      const token = await emulator.createAccessToken();
      const response = await fetch(`${server.baseUrl}/guardian/factors/phone/message-types`, {
        headers: { authorization: `Bearer ${token}` },
      });
      expect(response.status).toBe(401);
      expect(await response.json()).toEqual({
        statusCode: 401,
        error: 'Unauthorized',
        errorCode: 'invalid_token',
        message:
          `Bad issuer: the token's issuer is "https://tenant.emulator.test/", this tenant's is "${server.url}/" ` +
          `(createAccessToken needs { origin: "${server.url}" }, the url listen() returned, to make a token for this tenant)`,
      });
      expect(response.headers.get('www-authenticate')).toBe('Bearer error="invalid_token", error_description="Bad issuer"');
    });

    it('reaches a ManagementClient as the message of its UnauthorizedError; with { origin: url } the token works', async () => {
      const wrong = new ManagementClient({ baseUrl: server.baseUrl, token: await emulator.createAccessToken() });
      const error = await rejection(wrong.guardian.phone.getMessageTypes());
      expect(error).toBeInstanceOf(UnauthorizedError);
      expect((error as Error).message).toContain(`createAccessToken needs { origin: "${server.url}" }`);
      const right = new ManagementClient({ baseUrl: server.baseUrl, token: await emulator.createAccessToken({ origin: server.url }) });
      expect(await right.guardian.phone.getMessageTypes()).toEqual({ message_types: ['sms'] });
    });

    it('names the origin without listen() for a tenant served by msw or handle()', async () => {
      const other = createTenantEmulator({ domain: 'acme.emulator.test' });
      const response = await other.handle(
        new Request(`${other.origin}/api/v2/guardian/factors/phone/message-types`, {
          headers: { authorization: `Bearer ${await emulator.createAccessToken()}` },
        }),
      );
      expect(((await response.json()) as { message: string }).message).toBe(
        `Bad issuer: the token's issuer is "https://tenant.emulator.test/", this tenant's is "https://acme.emulator.test/" ` +
          `(createAccessToken needs { origin: "https://acme.emulator.test" } to make a token for this tenant)`,
      );
    });
  });

  describe('a ManagementClient whose baseUrl lacks /api/v2', () => {
    it('asks for the audience {url}/, and the token endpoint says the expected one and the likely mistake', async () => {
      const response = await fetch(`${server.url}/oauth/token`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({
          grant_type: 'client_credentials',
          client_id: emulator.credentials.clientId,
          client_secret: emulator.credentials.clientSecret,
          audience: `${server.url}/`,
        }),
      });
      expect(response.status).toBe(403);
      expect(await response.json()).toEqual({
        error: 'access_denied',
        error_description:
          `audience "${server.url}/" is not an API of this tenant; ` +
          `the Management API's audience is "${server.url}/api/v2/" (is baseUrl missing /api/v2?)`,
      });
    });

    it('gets that guidance in its TokenRequestError', async () => {
      const management = new ManagementClient({ baseUrl: server.url, ...emulator.credentials });
      const error = await rejection(management.guardian.phone.getMessageTypes());
      expect(error).toBeInstanceOf(TokenRequestError);
      expect((error as Error).message).toBe(
        `Could not obtain a Management API access token: access_denied: audience "${server.url}/" is not an API of this tenant; ` +
          `the Management API's audience is "${server.url}/api/v2/" (is baseUrl missing /api/v2?)`,
      );
    });

    it.each([
      ['{url}/api/v2 (no trailing slash)', (url: string) => `${url}/api/v2`, ' (with the trailing slash)'],
      [
        '{url}/api/',
        (url: string) => `${url}/api/`,
        (url: string) => ` (is baseUrl "${url}/api" right? The Management API is at ${url}/api/v2)`,
      ],
      ['another origin', () => 'https://other.example.com/api/v2/', ''],
    ])('names the expected audience for %s', async (_, audienceOf, hintOf) => {
      const audience = audienceOf(server.url);
      const response = await fetch(`${server.url}/oauth/token`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ grant_type: 'client_credentials', ...clientSecretPost(), audience }),
      });
      const hint = typeof hintOf === 'string' ? hintOf : hintOf(server.url);
      expect(await response.json()).toEqual({
        error: 'access_denied',
        error_description:
          `audience "${audience}" is not an API of this tenant; ` + `the Management API's audience is "${server.url}/api/v2/"${hint}`,
      });
    });

    it('with a token, gets a 404 that names the URL it reached and the base URL it needed', async () => {
      const token = await emulator.createAccessToken({ origin: server.url });
      const response = await fetch(`${server.url}/guardian/factors/phone/message-types`, { headers: { authorization: `Bearer ${token}` } });
      expect(response.status).toBe(404);
      expect(await response.json()).toEqual({
        error: 'not_found',
        error_description:
          `The emulator does not serve GET ${server.url}/guardian/factors/phone/message-types; ` +
          `the Management API is at ${server.url}/api/v2 (is baseUrl missing /api/v2?)`,
      });
      const management = new ManagementClient({ baseUrl: server.url, token });
      const error = await rejection(management.guardian.phone.getMessageTypes());
      expect(error).toBeInstanceOf(NotFoundError);
      expect((error as Error).message).toContain(`the Management API is at ${server.url}/api/v2 (is baseUrl missing /api/v2?)`);
    });

    it('lists what it serves for any other unknown path', async () => {
      const response = await fetch(`${server.url}/nope?x=1`);
      expect(await response.json()).toEqual({
        error: 'not_found',
        error_description:
          `The emulator does not serve GET ${server.url}/nope; ` +
          `it serves the Management API at ${server.url}/api/v2 and /oauth/token, /userinfo, /.well-known/jwks.json`,
      });
    });
  });

  function clientSecretPost() {
    return { client_id: emulator.credentials.clientId, client_secret: emulator.credentials.clientSecret };
  }
});
