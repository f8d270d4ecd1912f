import { AuthApiError, AuthenticationClient } from 'idplatform/auth';
import { ApiError, ConfigurationError, IdPlatformError, ManagementClient, TokenRequestError } from 'idplatform/management';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type FaultServer, json, startFaultServer } from '../helpers/fault-server.js';
import { newTenantState, type TenantState, tenant } from './tenant.js';

/** Threat-model checks of docs/security.md that no other test file covers, on real sockets. */

let api: FaultServer;
let other: FaultServer;
let state: TenantState;
beforeAll(async () => {
  state = newTenantState();
  api = await startFaultServer((context) => tenant(state)(context));
  other = await startFaultServer(json(200, { message_types: ['sms'] }));
});
beforeEach(() => {
  api.reset();
  other.reset();
});
afterAll(async () => {
  await api.close();
  await other.close();
});

describe('redirects are not followed', () => {
  it.each([301, 302, 303, 307, 308])(
    'a Management API %i to another origin is an ApiError; nothing reaches the other origin',
    async (status) => {
      api.next('/api/v2/guardian', ({ res }) => {
        res.writeHead(status, { location: `${other.url}/api/v2/guardian/factors/phone/message-types` });
        res.end();
      });
      const client = new ManagementClient({ baseUrl: `${api.url}/api/v2`, token: 'bearer-token-not-for-other-hosts' });
      const error = await client.guardian.phone.getMessageTypes().catch((caught: unknown) => caught);
      expect(error).toBeInstanceOf(ApiError);
      expect(error).toMatchObject({ status, message: expect.stringContaining('does not follow') });
      expect(other.requests).toHaveLength(0);
      expect(api.requests).toHaveLength(1); // not retried
    },
  );

  it('a token endpoint 307 (a client secret and a password in the body) is an AuthApiError; nothing reaches the other origin', async () => {
    api.next('/oauth/token', ({ res }) => {
      res.writeHead(307, { location: `http://localhost:${new URL(other.url).port}/oauth/token` });
      res.end();
    });
    const auth = new AuthenticationClient({ baseUrl: api.url, clientId: 'cid', clientSecret: 'client-secret-for-the-tenant-only' });
    const error = await auth.oauth
      .passwordGrant({ username: 'alice', password: 'password-for-the-tenant-only' })
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(AuthApiError);
    expect(error).toMatchObject({ status: 307, errorDescription: expect.stringContaining('does not follow') });
    expect(other.requests).toHaveLength(0);
  });

  it("a Management client's token request is not redirected either (TokenRequestError)", async () => {
    api.next('/oauth/token', ({ res }) => {
      res.writeHead(308, { location: `${other.url}/oauth/token` });
      res.end();
    });
    const client = new ManagementClient({
      baseUrl: `${api.url}/api/v2`,
      clientId: 'cid',
      clientSecret: 'client-secret-for-the-tenant-only',
      retry: false,
    });
    const error = await client.guardian.phone.getMessageTypes().catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(TokenRequestError);
    expect((error as TokenRequestError).cause).toMatchObject({ status: 308 });
    expect(other.requests).toHaveLength(0);
  });
});

describe('SSRF and transport security through baseUrl', () => {
  it.each([
    'http://example.com/api/v2',
    'http://10.0.0.1/api/v2',
    'http://127.0.0.1.example.com/api/v2',
    'ftp://127.0.0.1/api/v2',
    'file:///etc/passwd',
    'javascript:alert(1)',
  ])('refuses %s (http only to loopback, https otherwise)', (baseUrl) => {
    expect(() => new ManagementClient({ baseUrl, token: 't' })).toThrow(ConfigurationError);
  });

  it('sends every request of a client to its own origin only, whatever the ids', async () => {
    const client = new ManagementClient({ baseUrl: `${api.url}/api/v2`, token: 't', retry: false });
    state.issued.push('t');
    const ids = [`//${other.url.slice(7)}/x`, `${other.url}`, '..%2F..%2F', '@127.0.0.1', '?#'];
    for (const id of ids)
      await client.actions.modules.listActions(id).catch((error: unknown) => expect(error).toBeInstanceOf(IdPlatformError));
    expect(other.requests).toHaveLength(0);
    // Each id that was sent arrived as exactly one path segment, which decodes back to it.
    const sentIds = api.requests.map((request) => {
      const segments = new URL(request.url, api.url).pathname.split('/');
      expect(segments.slice(0, 5)).toEqual(['', 'api', 'v2', 'actions', 'modules']);
      expect(segments.slice(6)).toEqual(['actions']);
      return decodeURIComponent(segments[5] ?? '');
    });
    expect(sentIds).toEqual(ids);
  });
});
