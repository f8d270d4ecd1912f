import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { connect, createServer, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { inject } from 'vitest';

/** A Redis server of a test's own on 127.0.0.1: Debian's `redis-server`, or a way to the one `REDIS_URL` names. */
export interface RedisServer {
  /** `redis://127.0.0.1:PORT` (with a database of this test worker's own on a `REDIS_URL` server). */
  readonly url: string;
  /** Stops the server (or cuts the way to a `REDIS_URL` server), so that clients find it down. */
  stop(): Promise<void>;
}

/** A port that was free a moment ago on 127.0.0.1. */
export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', resolve);
  });
  const address = server.address();
  await new Promise<void>((resolve) => server.close(() => resolve()));
  if (address === null || typeof address === 'string') throw new Error('no port');
  return address.port;
}

/**
 * A Redis server for one test file: `redis-server` started on 127.0.0.1 and a free
 * port (temporary directory, no persistence), or, with `REDIS_URL`, a loopback relay
 * to that server using the database numbered after this test worker (files run in
 * parallel in several workers; each flushes only its own with `FLUSHDB`).
 */
export async function startRedisServer(): Promise<RedisServer> {
  const source = inject('redis');
  if ('url' in source) return relayTo(new URL(source.url));
  return spawnRedisServer(source.binary);
}

/** A TCP relay on 127.0.0.1 to the server of `target`, whose `stop` closes it and every connection through it. */
async function relayTo(target: URL): Promise<RedisServer> {
  const sockets = new Set<Socket>();
  const relay = createServer((client) => {
    const upstream = connect(Number(target.port || 6379), target.hostname);
    for (const socket of [client, upstream]) {
      sockets.add(socket);
      socket.on('close', () => sockets.delete(socket));
      socket.on('error', () => {});
    }
    client.pipe(upstream).pipe(client);
  });
  await new Promise<void>((resolve) => relay.listen(0, '127.0.0.1', resolve));
  const { port } = relay.address() as { port: number };
  const database = Number(process.env.VITEST_POOL_ID ?? '1') % 16;
  const auth = target.username || target.password ? `${target.username}:${target.password}@` : '';
  return {
    url: `redis://${auth}127.0.0.1:${port}/${database}`,
    stop: async () => {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => relay.close(() => resolve()));
    },
  };
}

async function spawnRedisServer(binary: string): Promise<RedisServer> {
  const dir = await mkdtemp(join(tmpdir(), 'idplatform-redis-'));
  const port = await freePort();
  const child = spawn(
    binary,
    ['--port', String(port), '--bind', '127.0.0.1', '--dir', dir, '--save', '', '--appendonly', 'no', '--daemonize', 'no'],
    { stdio: ['ignore', 'pipe', 'pipe'] },
  );
  try {
    await untilReady(child);
  } catch (error) {
    child.kill('SIGKILL');
    await rm(dir, { recursive: true, force: true });
    throw error;
  }
  const pid = child.pid as number;
  let stopped: Promise<void> | undefined;
  return {
    url: `redis://127.0.0.1:${port}`,
    stop: () => {
      stopped ??= (async () => {
        if (child.exitCode === null && child.signalCode === null) {
          const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
          process.kill(pid, 'SIGTERM');
          await exited;
        }
        await rm(dir, { recursive: true, force: true });
      })();
      return stopped;
    },
  };
}

/** Resolves when the server logs that it accepts connections; rejects if it exits first or takes over 10 s. */
function untilReady(child: ChildProcess): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    let output = '';
    const timer = setTimeout(() => fail(new Error(`redis-server did not start within 10 s:\n${output}`)), 10_000);
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      if (output.includes('Ready to accept connections')) done();
    };
    const onExit = (code: number | null) => fail(new Error(`redis-server exited (${code}) before it was ready:\n${output}`));
    const onError = (error: Error) => fail(new Error(`could not start redis-server: ${error.message}`));
    function cleanup() {
      clearTimeout(timer);
      child.stdout?.off('data', onData);
      child.off('exit', onExit);
      child.off('error', onError);
      child.stdout?.resume();
      child.stderr?.resume();
    }
    function done() {
      cleanup();
      resolve();
    }
    function fail(error: Error) {
      cleanup();
      reject(error);
    }
    child.stdout?.on('data', onData);
    child.stderr?.on('data', (chunk: Buffer) => {
      output += chunk.toString();
    });
    child.once('exit', onExit);
    child.once('error', onError);
  });
}
