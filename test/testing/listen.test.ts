import { request as httpRequest } from 'node:http';
import { decodeJwt } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTenantEmulator, type EmulatorServer, SEED_IDS } from '../../src/testing/index.js';

describe('emulator.listen() (a real socket on 127.0.0.1)', () => {
  const emulator = createTenantEmulator();
  let server: EmulatorServer;
  let token: string;
  beforeAll(async () => {
    server = await emulator.listen();
  });
  afterAll(() => server.close());

  const api = (path: string, init: RequestInit = {}) =>
    fetch(`${server.url}/api/v2${path}`, { ...init, headers: { authorization: `Bearer ${token}`, ...init.headers } });

  it('serves on 127.0.0.1 and a free port', () => {
    expect(server.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(server.baseUrl).toBe(`${server.url}/api/v2`);
  });

  it('issues tokens for its own origin at /oauth/token (client_secret_basic)', async () => {
    const { clientId, clientSecret } = emulator.credentials;
    const response = await fetch(`${server.url}/oauth/token`, {
      method: 'POST',
      headers: { authorization: `Basic ${btoa(`${clientId}:${clientSecret}`)}`, 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ grant_type: 'client_credentials', audience: `${server.url}/api/v2/` }),
    });
    expect(response.status).toBe(200);
    expect(response.headers.get('x-ratelimit-limit')).toBe('1000');
    token = ((await response.json()) as { access_token: string }).access_token;
    expect(decodeJwt(token)).toMatchObject({ iss: `${server.url}/`, aud: `${server.url}/api/v2/` });
  });

  it('lists invitations, with the rate-limit headers', async () => {
    const response = await api(`/organizations/${SEED_IDS.bigOrganization}/invitations?per_page=100&include_totals=true`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('application/json; charset=utf-8');
    expect(response.headers.get('x-ratelimit-remaining')).toMatch(/^\d+$/);
    const body = (await response.json()) as { start: number; limit: number; invitations: unknown[] };
    expect(body).toMatchObject({ start: 0, limit: 100 });
    expect(body.invitations).toHaveLength(100);
  });

  it('reads JSON and form bodies streamed from the socket', async () => {
    const path = '/guardian/factors/phone/message-types';
    const json = await api(path, { method: 'PUT', headers: { 'content-type': 'application/json' }, body: '{"message_types":["voice"]}' });
    expect(await json.json()).toEqual({ message_types: ['voice'] });
    const form = await api(path, {
      method: 'PUT',
      body: new URLSearchParams([
        ['message_types', 'sms'],
        ['message_types', 'voice'],
      ]),
    });
    expect(await form.json()).toEqual({ message_types: ['sms', 'voice'] });
    const big = await api(path, {
      method: 'PUT',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ message_types: ['sms'], padding: 'x'.repeat(2_000_000) }),
    });
    expect(big.status).toBe(400);
    expect(((await big.json()) as { message: string }).message).toBe(
      'Payload validation error: Request body too large: at most 65536 bytes',
    );
    expect(big.headers.get('connection')).toBe('close');
  });

  it('answers errors with the platform bodies', async () => {
    const response = await api('/organizations/org_nope/invitations');
    expect(response.status).toBe(404);
    expect(await response.json()).toMatchObject({ errorCode: 'inexistent_organization' });
    const unauthorized = await fetch(`${server.url}/api/v2/organizations/org_small/invitations`);
    expect(unauthorized.status).toBe(401);
  });

  it('answers TRACE, which a fetch Request cannot carry, with 405 and the platform body', async () => {
    const { status, body } = await new Promise<{ status: number | undefined; body: string }>((resolve, reject) => {
      const request = httpRequest(`${server.url}/api/v2/roles`, { method: 'TRACE' }, (response) => {
        let text = '';
        response.setEncoding('utf8');
        response.on('data', (chunk: string) => {
          text += chunk;
        });
        response.on('end', () => resolve({ status: response.statusCode, body: text }));
      });
      request.on('error', reject);
      request.end();
    });
    expect(status).toBe(405);
    expect(JSON.parse(body)).toMatchObject({ statusCode: 405, error: 'Method Not Allowed', errorCode: 'method_not_allowed' });
  });

  it('survives a client that gives up during a slow fault', async () => {
    emulator.faults.next(1, { delayMs: 5_000 });
    await expect(api('/guardian/factors/phone/message-types', { signal: AbortSignal.timeout(50) })).rejects.toThrow();
    expect((await api('/guardian/factors/phone/message-types')).status).toBe(200);
  });

  it.each(['0.0.0.0', '::', '192.0.2.1'])(
    'refuses to bind %s: the emulator serves loopback only (its default credentials are public)',
    async (host) => {
      await expect(createTenantEmulator().listen({ host })).rejects.toThrow('host must be a loopback address');
    },
  );

  it('binds ::1 when asked', async () => {
    const other = await createTenantEmulator().listen({ host: '::1' });
    try {
      expect(other.url).toMatch(/^http:\/\/\[::1\]:\d+$/);
      expect((await fetch(`${other.url}/.well-known/jwks.json`)).status).toBe(200);
    } finally {
      await other.close();
    }
  });

  it('stops on close()', async () => {
    const other = await createTenantEmulator().listen();
    expect((await fetch(`${other.url}/.well-known/jwks.json`)).status).toBe(200);
    await other.close();
    await expect(fetch(`${other.url}/.well-known/jwks.json`)).rejects.toThrow();
    await expect(other.close()).resolves.toBeUndefined(); // a second close (afterEach and afterAll) waits for the same
  });
});

describe('emulator.listen() and a path that starts with //', () => {
  it('reads it as a path, as handle() does (an extra slash of a URL join is no host)', async () => {
    const emulator = createTenantEmulator();
    const { url, close } = await emulator.listen();
    try {
      const token = await emulator.createAccessToken({ origin: url });
      const path = '//api/v2/guardian/factors/phone/message-types';
      const init = { headers: { authorization: `Bearer ${token}` } };
      const direct = await emulator.handle(new Request(`${url}${path}`, init));
      const viaSocket = await fetch(`${url}${path}`, init);
      expect(emulator.requests.at(-1)?.path).toBe(path);
      expect({ status: viaSocket.status, body: await viaSocket.json() }).toEqual({ status: direct.status, body: await direct.json() });
    } finally {
      await close();
    }
  });
});

describe('emulator.listen() outside Node (`#node-server` resolves to a stand-in in browser bundles)', () => {
  it('says that it needs Node and how to serve the emulator instead', async () => {
    const { serve } = await import('../../src/testing/node-server.unsupported.js');
    const emulator = createTenantEmulator();
    await expect(serve(emulator.handle)).rejects.toThrow(/needs Node \(node:http\).*createMswHandlers from idplatform\/testing\/msw/);
  });
});
