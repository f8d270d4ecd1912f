// Builds dist/ (`npm run build`) when it is missing or older than what it is built from,
// so that `npm test` and `npm run test:runtimes` run on a fresh clone with no step before.
import { execFileSync } from 'node:child_process';
import { readdir, stat } from 'node:fs/promises';
import { join } from 'node:path';

const root = join(import.meta.dirname, '..');
/** What dist/ is built from: a change to any of them makes it stale. */
const SOURCES = ['src', 'tsup.config.ts', 'package.json', 'scripts/declarations-for-require.mjs'];
/** Written last by the build: dist/ is whole once it exists. */
const BUILT = join(root, 'dist', '.built');

async function newestMtime(path) {
  const info = await stat(path);
  if (!info.isDirectory()) return info.mtimeMs;
  let newest = info.mtimeMs;
  for (const entry of await readdir(path, { withFileTypes: true, recursive: true })) {
    if (entry.isFile()) newest = Math.max(newest, (await stat(join(entry.parentPath, entry.name))).mtimeMs);
  }
  return newest;
}

/** Runs `npm run build` unless dist/ was built after the last change to its sources. */
export async function buildIfStale() {
  const built = await stat(BUILT).catch(() => undefined);
  const sources = await Promise.all(SOURCES.map((path) => newestMtime(join(root, path))));
  if (built !== undefined && Math.max(...sources) <= built.mtimeMs) return;
  console.log('dist/ is missing or older than its sources: npm run build');
  execFileSync('npm', ['run', 'build'], { cwd: root, stdio: 'inherit' });
}
