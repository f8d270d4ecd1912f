/**
 * Vitest global set-up: finds the Redis the Redis tests use, once per run, and hands
 * it to them (`inject('redis')`, read by test/helpers/redis-server.ts). In order:
 * the server `REDIS_URL` names; Debian's `redis-server` on `PATH`; else, as root with
 * `apt-get` (CI, a fresh machine), `redis-server` installed now. Where none works,
 * the run fails at once with one line that says how to fix it: nothing is skipped.
 */
import { execFileSync } from 'node:child_process';
import { accessSync, constants } from 'node:fs';
import { delimiter, join } from 'node:path';
import type { TestProject } from 'vitest/node';

/** Where the Redis tests get their server: a running one, a binary to start, or why there is none. */
export type RedisSource = { readonly url: string } | { readonly binary: string };

declare module 'vitest' {
  export interface ProvidedContext {
    redis: RedisSource;
  }
}

const HOW_TO_FIX =
  "The Redis tests need Debian's redis-server: run `apt-get install redis-server` (or `npm test` as root, which installs it), or set REDIS_URL to a server of yours";

function onPath(command: string): string | undefined {
  for (const dir of (process.env.PATH ?? '').split(delimiter)) {
    const path = join(dir, command);
    try {
      accessSync(path, constants.X_OK);
      return path;
    } catch {
      // not in this directory
    }
  }
  return undefined;
}

/** Installs Debian's package and answers where its binary is (installed packages are not always on `PATH`). */
function installRedisServer(): string | undefined {
  if (process.getuid?.() !== 0 || onPath('apt-get') === undefined) return undefined;
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  try {
    console.log('redis-server is not on PATH: apt-get install redis-server');
    try {
      execFileSync('apt-get', ['update', '-qq'], { env, stdio: 'inherit' });
    } catch {
      // Stale package lists may still serve the install.
    }
    execFileSync('apt-get', ['install', '-y', '-qq', 'redis-server'], { env, stdio: ['ignore', 'ignore', 'inherit'] });
    const files = execFileSync('dpkg', ['-L', 'redis-server'], { encoding: 'utf8' }).split('\n');
    return files.find((file) => file.endsWith('/bin/redis-server'));
  } catch {
    return undefined;
  }
}

function findRedis(): RedisSource {
  const url = process.env.REDIS_URL;
  if (url) return { url };
  const binary = onPath('redis-server') ?? installRedisServer();
  if (binary !== undefined) return { binary };
  const error = new Error(HOW_TO_FIX);
  error.stack = HOW_TO_FIX; // the one line is the whole story
  throw error;
}

export default function setup(project: TestProject): void {
  project.provide('redis', findRedis());
}
