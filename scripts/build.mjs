// `npm run build`: tsup (ESM, CJS and declarations), then the CommonJS declarations'
// jose imports (declarations-for-require.mjs). dist/.built, written last, marks a whole
// build: scripts/build-if-stale.mjs compares it with the sources.
import { execFileSync } from 'node:child_process';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';

const root = join(import.meta.dirname, '..');
execFileSync('npx', ['tsup'], { cwd: root, stdio: 'inherit' });
await import('./declarations-for-require.mjs');
await writeFile(join(root, 'dist', '.built'), `${new Date().toISOString()}\n`);
