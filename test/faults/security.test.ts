import { ConfigurationError, IdPlatformError, ManagementClient } from 'idplatform/management';
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

describe('redirects', () => {
  it('a redirect to another origin never carries the Authorization header', async () => {
    api.next('/api/v2/guardian', ({ res }) => {
      res.writeHead(307, { location: `${other.url}/api/v2/guardian/factors/phone/message-types` });
      res.end();
    });
    const client = new ManagementClient({ baseUrl: `${api.url}/api/v2`, token: 'bearer-token-not-for-other-hosts' });
    await client.guardian.phone.getMessageTypes().catch(() => undefined);
    expect(other.requests).toHaveLength(1); // fetch followed the redirect…
    expect(other.requests[0]?.headers.authorization).toBeUndefined(); // …without the token
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
    for (const id of [`//${other.url.slice(7)}/x`, `${other.url}`, '..%2F..%2F', '@127.0.0.1', '?#'])
      await client.actions.modules.listActions(id).catch((error: unknown) => expect(error).toBeInstanceOf(IdPlatformError));
    expect(other.requests).toHaveLength(0);
    for (const request of api.requests) expect(request.url.startsWith('/api/v2/actions/modules/')).toBe(true);
  });
});
