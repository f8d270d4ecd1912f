import { Redis as IORedis } from 'ioredis';
import { createClient } from 'redis';
import type { RedisClientLike } from '../../src/redis/client.js';

/** A connected client of one package, and how to close it. */
export interface ConnectedRedisClient {
  readonly client: RedisClientLike;
  /** Runs a raw command, for assertions on what was stored. */
  command(...args: string[]): Promise<unknown>;
  close(): Promise<void>;
}

/** The two client packages `idplatform/redis` supports, each connected to `url` without reconnecting forever. */
export const redisClientKinds = {
  async redis(url: string): Promise<ConnectedRedisClient> {
    const client = createClient({ url, socket: { reconnectStrategy: false } });
    client.on('error', () => {});
    await client.connect();
    return {
      client,
      command: (...args) => client.sendCommand(args),
      close: async () => {
        if (client.isOpen) client.destroy();
      },
    };
  },
  async ioredis(url: string): Promise<ConnectedRedisClient> {
    const client = new IORedis(url, { lazyConnect: true, maxRetriesPerRequest: 0, retryStrategy: () => null });
    client.on('error', () => {});
    await client.connect();
    return {
      client,
      command: (name, ...args) => client.call(name as string, ...args),
      close: async () => {
        client.disconnect();
      },
    };
  },
} as const;

/** `redis` and `ioredis`, for `describe.each`. */
export const REDIS_CLIENT_KINDS = Object.keys(redisClientKinds) as (keyof typeof redisClientKinds)[];
