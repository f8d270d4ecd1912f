// Installs the dependencies of test packages that keep their own lock file
// (today test/migration: the official `auth0` SDK, which the SDK itself never
// needs), with `npm ci`, unless what is installed already matches the lock.
// Run by `npm test` (scripts/prepare-tests.mjs) and `npm run typecheck` (its `pre` script).
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

const PACKAGES = ['test/migration'];

/** True when every package the lock names is installed at the locked version. */
function upToDate(dir) {
  const lock = JSON.parse(readFileSync(join(dir, 'package-lock.json'), 'utf8'));
  return Object.entries(lock.packages).every(([path, { version }]) => {
    if (path === '' || version === undefined) return true;
    const manifest = join(dir, path, 'package.json');
    return existsSync(manifest) && JSON.parse(readFileSync(manifest, 'utf8')).version === version;
  });
}

/** `npm ci` in every test package whose installed dependencies do not match its lock. */
export function installTestDependencies() {
  for (const dir of PACKAGES) {
    if (upToDate(dir)) continue;
    console.log(`installing the dependencies of ${dir} (npm ci)`);
    execFileSync('npm', ['ci', '--no-audit', '--no-fund', '--ignore-scripts'], { cwd: dir, stdio: 'inherit' });
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) installTestDependencies();
