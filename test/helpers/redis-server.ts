import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** A `redis-server` of Debian's package, run by a test on 127.0.0.1. */
export interface RedisServer {
  /** `redis://127.0.0.1:PORT`. */
  readonly url: string;
  readonly port: number;
  readonly pid: number;
  /** Stops the server by its PID and removes its temporary directory. */
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
 * Starts `redis-server` on 127.0.0.1 and a free port, with a temporary directory
 * and no persistence, and resolves once it accepts connections.
 */
export async function startRedisServer(): Promise<RedisServer> {
  const dir = await mkdtemp(join(tmpdir(), 'idplatform-redis-'));
  const port = await freePort();
  const child = spawn(
    'redis-server',
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
    port,
    pid,
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
    const onError = (error: Error) =>
      fail(new Error(`could not start redis-server (is Debian's redis-server installed?): ${error.message}`));
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
