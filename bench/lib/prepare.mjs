/**
 * Gets the comparison benchmark ready: builds the SDK's `dist/` when it is missing
 * or older than `src/`, installs the bench's own dependencies (auth0@7.1.0) from
 * bench/package-lock.json, and links `bench/node_modules/idplatform` to the
 * package root, so the bench imports `idplatform/management` as users do.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, lstatSync, readdirSync, readFileSync, statSync, symlinkSync, unlinkSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The bench folder. */
export const BENCH_DIR = fileURLToPath(new URL('..', import.meta.url));
/** The package root. */
export const ROOT_DIR = join(BENCH_DIR, '..');

const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';

function newestMtime(dir) {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    newest = Math.max(newest, entry.isDirectory() ? newestMtime(path) : statSync(path).mtimeMs);
  }
  return newest;
}

function buildIfNeeded() {
  const built = join(ROOT_DIR, 'dist/management/index.js');
  const stale = !existsSync(built) || statSync(built).mtimeMs < newestMtime(join(ROOT_DIR, 'src'));
  if (!stale) return;
  console.log('building the SDK (dist/ is missing or older than src/) …');
  execFileSync(npm, ['run', 'build', '--silent'], { cwd: ROOT_DIR, stdio: ['ignore', 'ignore', 'inherit'] });
}

function installIfNeeded() {
  const manifest = join(BENCH_DIR, 'node_modules/auth0/package.json');
  const wanted = JSON.parse(readFileSync(join(BENCH_DIR, 'package.json'), 'utf8')).devDependencies.auth0;
  if (existsSync(manifest) && JSON.parse(readFileSync(manifest, 'utf8')).version === wanted) return;
  console.log(`installing the bench's dependencies (auth0@${wanted}) …`);
  execFileSync(npm, ['ci', '--prefix', BENCH_DIR, '--no-audit', '--no-fund', '--silent'], { stdio: ['ignore', 'ignore', 'inherit'] });
}

function linkPackage() {
  const link = join(BENCH_DIR, 'node_modules/idplatform');
  try {
    if (lstatSync(link).isSymbolicLink()) return;
    unlinkSync(link);
  } catch {
    // no link yet
  }
  symlinkSync('../..', link, 'dir');
}

/** Builds, installs and links what the benchmark needs. */
export function prepare() {
  buildIfNeeded();
  installIfNeeded();
  linkPackage();
}
