/**
 * The fleet test (`npm run test:fleet`): 8 worker processes × 16 concurrent calls,
 * 2,000 calls in all, against one emulator served on 127.0.0.1 with a tenant-wide
 * bucket of 250 requests per 5 s (50 per second) and 5-second tokens. Each mode
 * runs the same fleet; the figures go to the console and test-results/fleet.json,
 * and docs/scaling.md quotes them.
 */
import { type ChildProcess, fork } from 'node:child_process';
import { mkdir, writeFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { createTenantEmulator } from 'idplatform/testing';
import { createClient } from 'redis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RedisServer, startRedisServer } from '../helpers/redis-server.js';
import { type FleetMode, WORKER_SETTINGS_ENV, type WorkerMessage, type WorkerSettings } from './protocol.js';

const WORKERS = 8;
const CONCURRENCY = 16;
const CALLS = 2_000;
const BUCKET = { limit: 250, windowMs: 5_000 };
const TOKEN_LIFETIME_SECONDS = 5;
/** The SDK renews a token when a tenth of its life is left. */
const TOKEN_REUSE_MS = TOKEN_LIFETIME_SECONDS * 900;
/** The first window opens with the first call; the last one's calls all go at its start. */
const THEORETICAL_MINIMUM_MS = (Math.ceil(CALLS / BUCKET.limit) - 1) * BUCKET.windowMs;
const MODES = (process.env.FLEET_MODES ?? 'redis,per-process').split(',') as FleetMode[];
const WORKER_SOURCE = fileURLToPath(new URL('./worker.ts', import.meta.url));
/** The worker bundled once (SDK from src/ through tsconfig `paths`), so 8 processes start in plain Node. */
const WORKER = 'test-results/fleet/worker.mjs';

/** What one run of the fleet measured. */
interface FleetFigures {
  readonly mode: FleetMode;
  readonly completed: number;
  readonly failed: number;
  readonly failures: readonly string[];
  /** `POST /oauth/token` requests the emulator answered. */
  readonly tokenRequests: number;
  /** Management API requests answered 429. */
  readonly tooManyRequests: number;
  /** Management API requests answered 401 (a token that expired on the way; replayed with a new one). */
  readonly unauthorized: number;
  /** Management API requests in all (calls + retries + replays). */
  readonly managementRequests: number;
  readonly wallMs: number;
  readonly theoreticalMinimumMs: number;
}

let redisServer: RedisServer;
const figures: FleetFigures[] = [];

beforeAll(async () => {
  redisServer = await startRedisServer();
  await build({
    entryPoints: [WORKER_SOURCE],
    outfile: WORKER,
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    external: ['redis', 'ioredis'],
    logLevel: 'warning',
  });
});
afterAll(async () => {
  await redisServer?.stop();
  if (figures.length === 0) return;
  console.table(
    figures.map(({ failures: _failures, ...row }) => ({ ...row, wallVsMinimum: (row.wallMs / row.theoreticalMinimumMs).toFixed(2) })),
  );
  await mkdir('test-results', { recursive: true });
  await writeFile('test-results/fleet.json', `${JSON.stringify(figures, null, 2)}\n`);
});

async function runFleet(mode: FleetMode): Promise<FleetFigures> {
  const emulator = createTenantEmulator({ rateLimit: BUCKET, tokenLifetimeSeconds: TOKEN_LIFETIME_SECONDS });
  const server = await emulator.listen();
  const redis = await createClient({ url: redisServer.url }).connect();
  await redis.flushAll();
  redis.destroy();
  const workers: ChildProcess[] = [];
  try {
    const done: Promise<Extract<WorkerMessage, { type: 'done' }>>[] = [];
    const ready: Promise<void>[] = [];
    for (let index = 0; index < WORKERS; index++) {
      const settings: WorkerSettings = {
        mode,
        url: server.url,
        redisUrl: redisServer.url,
        redisClient: index % 2 === 0 ? 'redis' : 'ioredis',
        ...emulator.credentials,
        calls: CALLS / WORKERS,
        concurrency: CONCURRENCY,
      };
      const worker = fork(WORKER, [], {
        execArgv: [],
        env: { ...process.env, [WORKER_SETTINGS_ENV]: JSON.stringify(settings) },
        stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
      });
      workers.push(worker);
      // 'close', not 'exit': a worker that reports and then exits at once may have its 'exit' seen
      // before its last message is read from the channel; 'close' comes after the channel is drained.
      const exited = new Promise<never>((_resolve, reject) =>
        worker.once('close', (code) => reject(new Error(`worker ${index} exited with ${code} before it reported`))),
      );
      const message = (type: WorkerMessage['type']) =>
        Promise.race([
          exited,
          new Promise<WorkerMessage>((resolve) => {
            const onMessage = (received: WorkerMessage) => {
              if (received.type !== type) return;
              worker.off('message', onMessage);
              resolve(received);
            };
            worker.on('message', onMessage);
          }),
        ]);
      ready.push(message('ready').then(() => undefined));
      done.push(message('done') as Promise<Extract<WorkerMessage, { type: 'done' }>>);
      for (const promise of [ready.at(-1), done.at(-1)]) promise?.catch(() => {});
    }
    await Promise.all(ready);
    const started = performance.now();
    for (const worker of workers) worker.send({ type: 'go' });
    const reports = await Promise.all(done);
    const wallMs = Math.round(performance.now() - started);
    const management = emulator.requests.filter((request) => request.path.startsWith('/api/v2/'));
    return {
      mode,
      completed: reports.reduce((sum, report) => sum + report.completed, 0),
      failed: reports.reduce((sum, report) => sum + report.failed, 0),
      failures: reports.flatMap((report) => report.failures),
      tokenRequests: emulator.requests.filter((request) => request.path.startsWith('/oauth/token')).length,
      tooManyRequests: management.filter((request) => request.status === 429).length,
      unauthorized: management.filter((request) => request.status === 401).length,
      managementRequests: management.length,
      wallMs,
      theoreticalMinimumMs: THEORETICAL_MINIMUM_MS,
    };
  } finally {
    for (const worker of workers) if (worker.exitCode === null) worker.kill();
    await server.close();
  }
}

describe(`a fleet of ${WORKERS} processes × ${CONCURRENCY} concurrent calls, ${CALLS} calls, bucket ${BUCKET.limit} per ${BUCKET.windowMs} ms, ${TOKEN_LIFETIME_SECONDS} s tokens`, () => {
  for (const mode of MODES) {
    it(`${mode}: every call settles, never faster than the bucket allows`, { timeout: 150_000 }, async () => {
      const run = await runFleet(mode);
      figures.push(run);
      // Every call settles; with Redis every call succeeds. Per process, a call can fail: a 5 s token that
      // expired while its request queued behind a burst of 429s meets a second 401 (reported, see docs/scaling.md).
      expect(run.completed + run.failed).toBe(CALLS);
      if (mode !== 'per-process') expect(run.failures).toEqual([]);
      expect(run.wallMs).toBeGreaterThanOrEqual(THEORETICAL_MINIMUM_MS);
      if (mode === 'per-process') expect(run.tokenRequests).toBeGreaterThanOrEqual(WORKERS);
      if (mode !== 'per-process') {
        // About one token per lifetime for the whole fleet, not one per process.
        expect(run.tokenRequests).toBeLessThanOrEqual(Math.ceil(run.wallMs / TOKEN_REUSE_MS) + 2);
      }
      if (mode === 'redis') {
        // The shared limiter queues the fleet once any process learns the bucket is empty: only calls already
        // on their way then collect a 429 (retried after the reset), at most one per concurrent call and window.
        const windows = Math.ceil(run.wallMs / BUCKET.windowMs);
        expect(run.tooManyRequests).toBeLessThanOrEqual(WORKERS * CONCURRENCY * windows);
      }
    });
  }

  if (MODES.includes('redis') && MODES.includes('per-process')) {
    it('the shared token cache beats per-process behaviour on token requests', () => {
      const shared = figures.find((run) => run.mode === 'redis');
      const alone = figures.find((run) => run.mode === 'per-process');
      expect(shared && alone).toBeTruthy();
      if (!shared || !alone) return;
      expect(shared.tokenRequests).toBeLessThan(alone.tokenRequests);
    });
  }
});
