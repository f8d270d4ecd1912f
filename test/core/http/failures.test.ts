import { describe, expect, it } from 'vitest';
import { ManagementClient, NetworkError } from '../../../src/management/index.js';

/** A fetch failing the way undici does: TypeError "fetch failed" whose cause chain holds the system error. */
function failingFetch(cause: Error) {
  return async () => {
    throw new TypeError('fetch failed', { cause });
  };
}

const systemError = (message: string, code: string, cause?: Error) => Object.assign(new Error(message, { cause }), { code });

async function networkError(cause: Error): Promise<NetworkError> {
  const management = new ManagementClient({
    domain: 'tenant.example.com',
    token: 'a-secret-token',
    retry: false,
    fetch: failingFetch(cause),
  });
  const error = await management.organizations.invitations.list('org_1').catch((caught: unknown) => caught);
  expect(error).toBeInstanceOf(NetworkError);
  return error as NetworkError;
}

describe('NetworkError from a failing fetch', () => {
  it.each([
    [
      'a refused connection',
      systemError('connect ECONNREFUSED 10.0.0.1:443', 'ECONNREFUSED'),
      'ECONNREFUSED (connect ECONNREFUSED 10.0.0.1:443)',
    ],
    [
      'an unknown host',
      systemError('getaddrinfo ENOTFOUND tenant.example.com', 'ENOTFOUND'),
      'ENOTFOUND (getaddrinfo ENOTFOUND tenant.example.com)',
    ],
    [
      'a TLS failure',
      systemError('self-signed certificate', 'DEPTH_ZERO_SELF_SIGNED_CERT'),
      'DEPTH_ZERO_SELF_SIGNED_CERT (self-signed certificate)',
    ],
    [
      'a code deep in the chain',
      systemError('connect timeout', 'UND_ERR_CONNECT_TIMEOUT', new Error('socket hang up')),
      'UND_ERR_CONNECT_TIMEOUT (socket hang up)',
    ],
  ])('names the method, host, path and root cause of %s', async (_, cause, reason) => {
    const error = await networkError(cause);
    expect(error.message).toBe(`GET tenant.example.com /api/v2/organizations/org_1/invitations failed: ${reason}`);
  });

  it('finds the root cause of an error of another realm (a fetch of Jest’s outer realm, a vm context)', async () => {
    const { runInNewContext } = await import('node:vm');
    const foreign = runInNewContext(
      `new TypeError('fetch failed', { cause: Object.assign(new Error('connect ECONNREFUSED 10.0.0.1:443'), { code: 'ECONNREFUSED' }) })`,
    ) as Error;
    const error = await networkError(foreign);
    expect(error.message).toBe(
      'GET tenant.example.com /api/v2/organizations/org_1/invitations failed: ECONNREFUSED (connect ECONNREFUSED 10.0.0.1:443)',
    );
  });

  it.each([
    ['an Error', new Error('proxy refused'), 'proxy refused'],
    ['a string', 'proxy refused', 'proxy refused'],
    ['an error with a code', systemError('agent closed', 'EAGENTCLOSED'), 'EAGENTCLOSED (agent closed)'],
  ])('names the host too when a custom fetch throws %s, not a TypeError', async (_, thrown, reason) => {
    const management = new ManagementClient({
      domain: 'tenant.example.com',
      token: 'a-secret-token',
      retry: false,
      fetch: async () => {
        throw thrown;
      },
    });
    const error = await management.organizations.invitations.list('org_1').catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(NetworkError);
    expect((error as NetworkError).message).toBe(`GET tenant.example.com /api/v2/organizations/org_1/invitations failed: ${reason}`);
  });

  it('keeps the whole cause chain in toJSON, with codes, and nothing of the request', async () => {
    const error = await networkError(systemError('outer', 'E_OUTER', systemError('inner', 'E_INNER')));
    expect(error.toJSON()).toMatchObject({
      name: 'NetworkError',
      code: 'network',
      cause: {
        name: 'TypeError',
        message: 'fetch failed',
        cause: { message: 'outer', code: 'E_OUTER', cause: { message: 'inner', code: 'E_INNER' } },
      },
    });
    expect(JSON.stringify(error.toJSON())).not.toMatch(/a-secret-token|authorization/i);
  });

  it('says what the runtime said when no code exists', async () => {
    const error = await networkError(new Error('Failed to fetch (CORS)'));
    expect(error.message).toBe('GET tenant.example.com /api/v2/organizations/org_1/invitations failed: Failed to fetch (CORS)');
  });
});

describe('withoutSecrets', () => {
  const SECRET = 'a-secret-token';

  /** The errors of a cause chain (cycles cut). */
  const chainOf = (error: Error): unknown[] => {
    const links: unknown[] = [];
    for (let current: unknown = error.cause; current instanceof Error && !links.includes(current); current = current.cause)
      links.push(current);
    return links;
  };

  it('copies a chain whose members cannot be serialized, or that runs in a cycle, without the secret', async () => {
    const unserializable = Object.assign(new Error('reset'), { size: 1n, detail: SECRET });
    const cyclic = new Error(`loop (${SECRET})`);
    cyclic.cause = new Error('back', { cause: cyclic });
    for (const cause of [unserializable, cyclic]) {
      const error = await networkError(cause);
      expect(JSON.stringify(error)).not.toContain(SECRET);
      expect(chainOf(error)).not.toContain(cause);
      expect(chainOf(error).length).toBeGreaterThan(0);
    }
  });
});
