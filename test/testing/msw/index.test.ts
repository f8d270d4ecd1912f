import { setupServer } from 'msw/node';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { ManagementClient, TimeoutError } from '../../../src/management/index.js';
import { createTenantEmulator, SEED_IDS } from '../../../src/testing/index.js';
import { createMswHandlers } from '../../../src/testing/msw/index.js';

describe('createMswHandlers (idplatform/testing/msw)', () => {
  const emulator = createTenantEmulator();
  const other = createTenantEmulator({ domain: 'acme.emulator.test', seed: 'empty' });
  const server = setupServer(...createMswHandlers(emulator), ...createMswHandlers(other));
  beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
  afterAll(() => server.close());

  it('answers fetch calls to the emulator origin: token, then an operation', async () => {
    const tokenResponse = await fetch(`${emulator.origin}/oauth/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ grant_type: 'client_credentials', ...toPost(emulator.credentials), audience: `${emulator.origin}/api/v2/` }),
    });
    expect(tokenResponse.status).toBe(200);
    const { access_token } = (await tokenResponse.json()) as { access_token: string };
    const response = await fetch(`${emulator.origin}/api/v2/organizations/${SEED_IDS.smallOrganization}/invitations?fields=id`, {
      headers: { authorization: `Bearer ${access_token}` },
    });
    expect(response.status).toBe(200);
    expect(response.headers.get('x-ratelimit-remaining')).toBe('999');
    expect(await response.json()).toHaveLength(5);
  });

  it('serves several emulators side by side, each on its origin', async () => {
    const token = await other.createAccessToken();
    const response = await fetch(`${other.origin}/api/v2/guardian/factors/phone/message-types`, {
      headers: { authorization: `Bearer ${token}` },
    });
    expect(await response.json()).toEqual({ message_types: [] });
    expect(other.requests).toHaveLength(1);
  });

  it('matches only the emulator origin', () => {
    const [handler] = createMswHandlers(emulator);
    const path = handler?.info.path as RegExp;
    expect(path.test(`${emulator.origin}/api/v2/organizations?x=1`)).toBe(true);
    expect(path.test(`${emulator.origin}.evil.test/api/v2/organizations`)).toBe(false);
    expect(path.test(`${emulator.origin}:8443/api/v2/organizations`)).toBe(false);
    expect(path.test(`https://other.test/api/v2/organizations`)).toBe(false);
  });
});

function toPost(credentials: { clientId: string; clientSecret: string }) {
  return { client_id: credentials.clientId, client_secret: credentials.clientSecret };
}

describe('createMswHandlers with an IPv6 origin', () => {
  const emulator = createTenantEmulator({ origin: 'http://[::1]:8080' });
  const server = setupServer(...createMswHandlers(emulator));
  beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
  afterAll(() => server.close());

  it('sends its requests to the emulator', async () => {
    expect((await fetch(`${emulator.origin}/.well-known/jwks.json`)).status).toBe(200);
    expect(emulator.requests).toHaveLength(1);
  });
});

describe('createMswHandlers, a request given up on during a scripted delay', () => {
  const emulator = createTenantEmulator({ domain: 'abort.emulator.test' });
  const server = setupServer(...createMswHandlers(emulator));
  beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
  afterAll(() => server.close());

  it('leaves msw nothing to report (no console.error), and the client its TimeoutError', async () => {
    const management = new ManagementClient({ domain: emulator.domain, ...emulator.credentials });
    await management.guardian.phone.getMessageTypes(); // the token fetched: nothing else pending
    const errors: unknown[][] = [];
    const spy = vi.spyOn(console, 'error').mockImplementation((...args: unknown[]) => {
      errors.push(args);
    });
    try {
      emulator.faults.next(1, { delayMs: 2_000 });
      await expect(management.guardian.phone.getMessageTypes({ timeoutMs: 100, retry: false })).rejects.toBeInstanceOf(TimeoutError);
      await new Promise((resolve) => setTimeout(resolve, 50)); // msw reports after the handler settles
    } finally {
      spy.mockRestore();
    }
    expect(errors.map((args) => String(args[0]).slice(0, 120))).toEqual([]);
  });
});
