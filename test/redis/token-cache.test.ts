import { ManagementClient, TokenRequestError } from 'idplatform/management';
import { ConfigurationError, createRedisRateLimiter, createRedisTokenCache } from 'idplatform/redis';
import { createTenantEmulator } from 'idplatform/testing';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { createFakeClock } from '../helpers/clock.js';
import { type ConnectedRedisClient, REDIS_CLIENT_KINDS, redisClientKinds } from '../helpers/redis-clients.js';
import { type RedisServer, startRedisServer } from '../helpers/redis-server.js';

let server: RedisServer;
beforeAll(async () => {
  server = await startRedisServer();
});
afterAll(() => server.stop());

describe.each(REDIS_CLIENT_KINDS)('createRedisTokenCache with a %s client', (kind) => {
  let redis: ConnectedRedisClient;
  beforeEach(async () => {
    redis = await redisClientKinds[kind](server.url);
    await redis.command('FLUSHDB');
  });
  afterEach(() => redis.close());

  it('stores the token under prefix + key with the given lifetime (PX) and reads it back', async () => {
    const cache = createRedisTokenCache(redis.client, { prefix: 'svc:' });
    await cache.set('idplatform:https://t:client:aud', 'token-1', 4_500);
    expect(await cache.get('idplatform:https://t:client:aud')).toBe('token-1');
    expect(await redis.command('GET', 'svc:idplatform:https://t:client:aud')).toBe('token-1');
    const pttl = Number(await redis.command('PTTL', 'svc:idplatform:https://t:client:aud'));
    expect(pttl).toBeGreaterThan(0);
    expect(pttl).toBeLessThanOrEqual(4_500);
    expect(await cache.get('idplatform:https://t:other:aud')).toBeUndefined();
  });

  it('grants the lock to one caller (SET NX PX) and releases it when the token is stored', async () => {
    const cache = createRedisTokenCache(redis.client);
    const first = createRedisTokenCache(redis.client);
    expect(await cache.lock?.('k', 5_000)).toBe(true);
    expect(await first.lock?.('k', 5_000)).toBe(false);
    const pttl = Number(await redis.command('PTTL', 'k:lock'));
    expect(pttl).toBeGreaterThan(0);
    expect(pttl).toBeLessThanOrEqual(5_000);
    await cache.set('k', 'token-1', 10_000);
    expect(await redis.command('EXISTS', 'k:lock')).toBe(0);
    expect(await first.lock?.('k', 5_000)).toBe(true);
  });

  it('releases only its own lock: a holder whose lock expired leaves the lock another process took since', async () => {
    const slow = createRedisTokenCache(redis.client);
    const next = createRedisTokenCache(redis.client);
    expect(await slow.lock?.('k', 5_000)).toBe(true);
    await redis.command('DEL', 'k:lock'); // slow's lock expires while its token request goes on
    expect(await next.lock?.('k', 5_000)).toBe(true);
    await slow.unlock?.('k');
    expect(await redis.command('EXISTS', 'k:lock')).toBe(1);
    await slow.set('k', 'token-slow', 10_000);
    expect(await redis.command('EXISTS', 'k:lock')).toBe(1);
    await next.set('k', 'token-next', 10_000);
    expect(await redis.command('EXISTS', 'k:lock')).toBe(0);
    expect(await next.lock?.('k', 5_000)).toBe(true);
    await next.unlock?.('k');
    expect(await redis.command('EXISTS', 'k:lock')).toBe(0);
  });

  it('grants one holder per key within the process: a holder whose lock expired never deletes the lock a neighbour took over', async () => {
    const processA = createRedisTokenCache(redis.client); // shared by two clients of one process
    const processB = createRedisTokenCache(redis.client);
    expect(await processA.lock?.('k', 5_000)).toBe(true); // the first client of A
    await redis.command('DEL', 'k:lock'); // its lock expires while its token request goes on
    const neighbour = await processA.lock?.('k', 5_000); // the second client of A
    await processA.unlock?.('k'); // the first client's request fails
    const other = await processB.lock?.('k', 5_000);
    expect([neighbour, other].filter(Boolean)).toHaveLength(1);
    expect(neighbour).toBe(false);
  });

  it('does not release, on a store that finishes late, the lock a neighbour client took meanwhile', async () => {
    let answerStore!: () => void;
    const storeAnswered = new Promise<void>((resolve) => {
      answerStore = resolve;
    });
    // Redis runs the token's SET at once, but its answer comes late.
    const slowStores = {
      sendCommand: async (args: string[]) => {
        const reply = redis.command(...(args as [string, ...string[]]));
        if (args[0] === 'SET' && args[1] === 'k') await storeAnswered;
        return reply;
      },
    };
    const cache = createRedisTokenCache(slowStores); // shared by two clients of one process
    expect(await cache.lock?.('k', 5_000)).toBe(true); // the first client
    const storing = cache.set('k', 'token-1', 10_000); // the client gives up on the slow store and gives the lock back
    await cache.unlock?.('k');
    expect(await cache.lock?.('k', 5_000)).toBe(true); // the neighbour takes the lock
    answerStore();
    await storing;
    expect(await redis.command('EXISTS', 'k:lock')).toBe(1);
    expect(await cache.lock?.('k', 5_000)).toBe(false);
  });

  it('gives the lock back when the token request fails: the next call fetches at once, without waiting for the lock', async () => {
    const emulator = createTenantEmulator();
    const { url, close } = await emulator.listen();
    try {
      const clock = createFakeClock(Date.now());
      const tokenCache = createRedisTokenCache(redis.client);
      const client = new ManagementClient({ baseUrl: `${url}/api/v2`, ...emulator.credentials, tokenCache, clock, retry: false });
      emulator.faults.next(1, { status: 503 });
      await expect(client.guardian.phone.getMessageTypes()).rejects.toBeInstanceOf(TokenRequestError);
      expect(await redis.command('KEYS', '*:lock')).toEqual([]);
      await expect(client.guardian.phone.getMessageTypes()).resolves.toHaveProperty('message_types');
      expect(clock.sleeps).toEqual([]); // no polling for a lock nobody holds
      expect(emulator.requests.filter((request) => request.path.startsWith('/oauth/token')).map((request) => request.status)).toEqual([
        503, 200,
      ]);
    } finally {
      await close();
    }
  });

  it('lets 8 clients (as 8 processes) on a cold cache make one token request in all, and keys hold no secret', async () => {
    const emulator = createTenantEmulator();
    const { url, close } = await emulator.listen();
    try {
      const clients = Array.from(
        { length: 8 },
        () => new ManagementClient({ baseUrl: `${url}/api/v2`, ...emulator.credentials, tokenCache: createRedisTokenCache(redis.client) }),
      );
      const results = await Promise.all(clients.flatMap((client) => [1, 2, 3].map(() => client.guardian.phone.getMessageTypes())));
      expect(results).toHaveLength(24);
      expect(emulator.requests.filter((request) => request.path.startsWith('/oauth/token'))).toHaveLength(1);
      const keys = (await redis.command('KEYS', '*')) as string[];
      expect(keys).toEqual([`idplatform:${[url, emulator.credentials.clientId, `${url}/api/v2/`].map(encodeURIComponent).join(':')}`]);
      expect(keys.join(' ')).not.toContain(emulator.credentials.clientSecret);
    } finally {
      await close();
    }
  });
});

describe('createRedisTokenCache on a slow Redis', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  /** An ioredis-like client whose every command answers after 800 ms: what it was sent, in order. */
  function slowClient() {
    const sent: string[] = [];
    const client = {
      status: 'ready',
      call: (command: string) => {
        sent.push(command);
        return new Promise<unknown>((resolve) => setTimeout(() => resolve(command === 'SET' ? 'OK' : 1), 800));
      },
    };
    return { client, sent };
  }

  it('answers a set once the token is stored (one command), and releases the lock after that', async () => {
    vi.useFakeTimers();
    const { client, sent } = slowClient();
    const cache = createRedisTokenCache(client);
    const locking = cache.lock?.('k', 5_000);
    await vi.advanceTimersByTimeAsync(800);
    await expect(locking).resolves.toBe(true);
    let stored = false;
    void Promise.resolve(cache.set('k', 'token-1', 60_000)).then(() => {
      stored = true;
    });
    await vi.advanceTimersByTimeAsync(800);
    expect(stored).toBe(true);
    expect(sent).toEqual(['SET', 'SET', 'EVAL']); // the lock, the token, then the lock's release
  });

  it.each([0, -1, Number.NaN, Number.POSITIVE_INFINITY, 2 ** 31])(
    'refuses commandTimeoutMs %s (ConfigurationError), as the limiter does',
    (commandTimeoutMs) => {
      const { client } = slowClient();
      expect(() => createRedisTokenCache(client, { commandTimeoutMs })).toThrow(ConfigurationError);
      expect(() => createRedisRateLimiter(client, { commandTimeoutMs })).toThrow(ConfigurationError);
    },
  );
});

describe('createRedisTokenCache when the token cannot be stored', () => {
  it("gives the holder's lock back, so that another process takes it over at once", async () => {
    const redis = await redisClientKinds.redis(server.url);
    try {
      await redis.command('FLUSHDB');
      const key = 'idplatform:a:b:c';
      // The one SET of the token fails (a connection reset); every other command reaches Redis.
      let failed = false;
      const flaky = {
        sendCommand: async (args: string[]) => {
          if (args[0] === 'SET' && args[1] === key && !failed) {
            failed = true;
            throw new Error('write ECONNRESET');
          }
          return redis.command(...(args as [string, ...string[]]));
        },
      };
      const cache = createRedisTokenCache(flaky);
      expect(await cache.lock?.(key, 5_000)).toBe(true);
      await cache.set(key, 'token-A', 60_000);
      await vi.waitFor(async () => expect(Number(await redis.command('PTTL', `${key}:lock`))).toBe(-2));
      expect(failed).toBe(true);
      expect(await redis.command('GET', key)).toBeNull();
      expect(await createRedisTokenCache(redis.client).lock?.(key, 5_000)).toBe(true);
    } finally {
      await redis.close();
    }
  });
});
