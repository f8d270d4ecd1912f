import { ConfigurationError } from '../core/errors.js';

/**
 * The part of a Redis client this module uses, written structurally so that it imports no Redis package.
 * Pass a connected client of the `redis` package (node-redis v5 and later), which has `sendCommand(args)`.
 * Or pass an `ioredis` client, which has `call(command, ...args)`.
 */
export type RedisClientLike = NodeRedisClientLike | IoRedisClientLike;

/** A node-redis client (`createClient()` of the `redis` package, connected). */
export interface NodeRedisClientLike {
  sendCommand(args: string[]): Promise<unknown>;
  /** `false` while the client is not connected: commands are then not sent (they would wait in its offline queue). */
  readonly isReady?: boolean;
}

/** An ioredis client (`new Redis()` of the `ioredis` package). */
export interface IoRedisClientLike {
  call(command: string, ...args: string[]): Promise<unknown>;
  /** `'ready'` when connected: commands are sent only then (they would wait in its offline queue). */
  readonly status?: string;
}

/** Sends one command, as strings, whichever client it is. */
export type SendRedisCommand = (command: string, ...args: (string | number)[]) => Promise<unknown>;

/** Detects the client's kind once and returns how to send commands with it, or throws `ConfigurationError` for anything else. */
export function redisCommandSender(client: RedisClientLike): { send: SendRedisCommand; isReady: () => boolean } {
  if (typeof client === 'object' && client !== null && 'call' in client && typeof client.call === 'function') {
    const ioredis = client;
    return {
      send: (command, ...args) => ioredis.call(command, ...args.map(String)),
      isReady: () => ioredis.status === undefined || ioredis.status === 'ready',
    };
  }
  if (typeof client === 'object' && client !== null && 'sendCommand' in client && typeof client.sendCommand === 'function') {
    const nodeRedis = client;
    return {
      send: (command, ...args) => nodeRedis.sendCommand([command, ...args.map(String)]),
      isReady: () => nodeRedis.isReady !== false,
    };
  }
  throw new ConfigurationError('Expected a client of the `redis` package (sendCommand) or of `ioredis` (call)');
}
