/**
 * One process of the fleet test: a ManagementClient (with the Redis adapters, or
 * with the SDK's in-memory defaults) making `calls` calls, `concurrency` at a time,
 * once the parent says go. Run by test/fleet/fleet.fleet.ts through `fork`.
 */
import { ManagementClient, type ManagementClientOptions } from 'idplatform/management';
import { createRedisRateLimiter, createRedisTokenCache, type RedisClientLike } from 'idplatform/redis';
import { Redis as IORedis } from 'ioredis';
import { createClient } from 'redis';
import { type GoMessage, WORKER_SETTINGS_ENV, type WorkerMessage, type WorkerSettings } from './protocol.js';

const settings = JSON.parse(process.env[WORKER_SETTINGS_ENV] ?? '{}') as WorkerSettings;

function send(message: WorkerMessage): Promise<void> {
  return new Promise((resolve, reject) => process.send?.(message, undefined, undefined, (error) => (error ? reject(error) : resolve())));
}

async function connect(): Promise<{ client: RedisClientLike; close: () => Promise<void> }> {
  if (settings.redisClient === 'ioredis') {
    const client = new IORedis(settings.redisUrl, { lazyConnect: true });
    client.on('error', () => {});
    await client.connect();
    return { client, close: async () => client.disconnect() };
  }
  const client = createClient({ url: settings.redisUrl });
  client.on('error', () => {});
  await client.connect();
  return { client, close: async () => client.destroy() };
}

async function main(): Promise<void> {
  const redis = settings.mode === 'per-process' ? undefined : await connect();
  const options: ManagementClientOptions = {
    baseUrl: `${settings.url}/api/v2`,
    clientId: settings.clientId,
    clientSecret: settings.clientSecret,
    retry: { maxRetries: 10, maxDelayMs: 60_000 },
    ...(redis && { tokenCache: createRedisTokenCache(redis.client) }),
    ...(redis && settings.mode === 'redis' && { rateLimiter: createRedisRateLimiter(redis.client) }),
  };
  const management = new ManagementClient(options);
  await send({ type: 'ready' });
  await new Promise<void>((resolve) => process.once('message', (message: GoMessage) => message.type === 'go' && resolve()));

  let started = 0;
  let completed = 0;
  const failures: string[] = [];
  async function lane(): Promise<void> {
    while (started < settings.calls) {
      started++;
      try {
        await management.guardian.phone.getMessageTypes();
        completed++;
      } catch (error) {
        failures.push(error instanceof Error ? `${error.name}: ${error.message}` : String(error));
      }
    }
  }
  await Promise.all(Array.from({ length: settings.concurrency }, lane));
  await send({ type: 'done', completed, failed: failures.length, failures: failures.slice(0, 5) });
  await redis?.close();
  process.disconnect();
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
