/**
 * Errors that explain themselves, on real sockets (no msw): a refused connection,
 * a base URL without /api/v2, a loopback `domain`, a caller's timeout signal.
 */
import { createServer } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AuthenticationClient } from '../../src/auth/index.js';
import {
  ConfigurationError,
  IdPlatformError,
  ManagementClient,
  NetworkError,
  NotFoundError,
  TimeoutError,
  TokenRequestError,
} from '../../src/management/index.js';
import { createTenantEmulator, type EmulatorServer } from '../../src/testing/index.js';

/** A port on 127.0.0.1 that nothing listens on (bound once, then closed). */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

describe('NetworkError', () => {
  it('names the method, host, path and root cause code, and keeps the cause chain in toJSON', async () => {
    const port = await closedPort();
    const management = new ManagementClient({ baseUrl: `http://127.0.0.1:${port}/api/v2`, token: 'a-token', retry: false });
    const error = await management.guardian.phone.getMessageTypes().catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(NetworkError);
    const { message } = error as NetworkError;
    expect(message).toContain(`GET 127.0.0.1:${port} /api/v2/guardian/factors/phone/message-types failed: ECONNREFUSED`);
    const json = (error as NetworkError).toJSON();
    expect(json).toMatchObject({ name: 'NetworkError', code: 'network', cause: { name: 'TypeError', message: 'fetch failed' } });
    expect(JSON.stringify(json)).toContain('"code":"ECONNREFUSED"');
    expect(JSON.stringify(json)).not.toContain('a-token');
  });

  it('explains a failed token request the same way, through TokenRequestError', async () => {
    const port = await closedPort();
    const management = new ManagementClient({
      baseUrl: `http://127.0.0.1:${port}/api/v2`,
      clientId: 'id',
      clientSecret: 'shh',
      retry: false,
    });
    const error = await management.guardian.phone.getMessageTypes().catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(TokenRequestError);
    expect((error as Error).message).toContain(`POST 127.0.0.1:${port} /oauth/token failed: ECONNREFUSED`);
    expect(JSON.stringify((error as TokenRequestError).toJSON())).not.toContain('shh');
  });

  it('does the same for the Authentication client', async () => {
    const port = await closedPort();
    const auth = new AuthenticationClient({ baseUrl: `http://127.0.0.1:${port}`, clientId: 'app', retry: false });
    await expect(auth.userInfo.get('user-token')).rejects.toThrow(`GET 127.0.0.1:${port} /userinfo failed: ECONNREFUSED`);
  });
});

describe('against the emulator on a socket', () => {
  const emulator = createTenantEmulator();
  let server: EmulatorServer;
  beforeAll(async () => {
    server = await emulator.listen();
  });
  afterAll(() => server.close());

  it('hints at /api/v2 when a base URL without it gets a 404', async () => {
    // The emulator answers paths outside /api/v2 with a 404 before it looks at the token.
    const management = new ManagementClient({ baseUrl: server.url, token: 'a-token' });
    const error = await management.guardian.phone.getMessageTypes().catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(NotFoundError);
    expect((error as Error).message).toContain(`Is the base URL right? The Management API lives at https://{domain}/api/v2`);
    expect((error as Error).message).toContain(`(e.g. ${server.url}/api/v2)`);
  });

  it("refuses the emulator's loopback host passed as `domain`, pointing to baseUrl", () => {
    const host = new URL(server.url).host;
    expect(() => new ManagementClient({ domain: host, ...emulator.credentials })).toThrow(ConfigurationError);
    expect(() => new ManagementClient({ domain: host, ...emulator.credentials })).toThrow(
      `pass \`baseUrl: 'http://${host}/api/v2'\` instead`,
    );
  });

  it("rejects with the caller's AbortSignal.timeout() reason: a DOMException named TimeoutError, not the SDK's TimeoutError", async () => {
    const management = new ManagementClient({ baseUrl: server.baseUrl, ...emulator.credentials });
    // What AbortSignal.timeout(ms) aborts with, without waiting for it.
    const reason = new DOMException('The operation was aborted due to timeout', 'TimeoutError');
    const error = await management.guardian.phone.getMessageTypes({ signal: AbortSignal.abort(reason) }).catch((caught: unknown) => caught);
    expect(error).toBe(reason);
    expect((error as Error).name).toBe('TimeoutError');
    expect(TimeoutError.is(error)).toBe(false);
    expect(IdPlatformError.is(error)).toBe(false);
  });
});
