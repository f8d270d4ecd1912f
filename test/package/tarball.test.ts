/**
 * What `npm pack` ships: the license, the repository links, and source maps whose
 * every source is a file of the tarball. The JavaScript and its maps are built
 * with the project's tsup config into a temporary directory (no `.d.ts`, which
 * carries no maps), so the test needs no earlier `npm run build`.
 */
import { execFile } from 'node:child_process';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { promisify } from 'node:util';
import { build, type Options } from 'tsup';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import config from '../../tsup.config.js';

const root = join(import.meta.dirname, '../..');
let packed: Set<string>;
let outDir: string;

beforeAll(async () => {
  const { stdout } = await promisify(execFile)('npm', ['pack', '--dry-run', '--json', '--ignore-scripts'], {
    cwd: root,
    timeout: 60_000,
  });
  const [report] = JSON.parse(stdout) as [{ files: { path: string }[] }];
  packed = new Set(report.files.map((file) => file.path));
  outDir = await mkdtemp(join(tmpdir(), 'idplatform-dist-'));
  // tsup.config.ts holds one config per build (modular ESM; ESM for Node and CJS with the dependencies bundled).
  for (const options of (Array.isArray(config) ? config : [config]) as Options[]) {
    const { onSuccess: _postBuild, ...buildOptions } = options; // its rewrite targets dist/, not this directory
    const into = join(outDir, relative('dist', buildOptions.outDir ?? 'dist'));
    await build({ ...buildOptions, outDir: into, dts: false, silent: true, clean: false });
  }
}, 120_000);

afterAll(async () => {
  if (outDir) await rm(outDir, { recursive: true, force: true });
});

describe('the npm tarball', () => {
  it('ships the MIT LICENSE of the idplatform contributors', async () => {
    expect(packed.has('LICENSE')).toBe(true);
    const license = await readFile(join(root, 'LICENSE'), 'utf8');
    expect(license).toMatch(/^MIT License\n\nCopyright \(c\) 2026 idplatform contributors\n/);
  });

  it('names its repository, homepage and issue tracker', async () => {
    const manifest = JSON.parse(await readFile(join(root, 'package.json'), 'utf8')) as Record<string, unknown>;
    expect(manifest).toMatchObject({
      license: 'MIT',
      repository: { type: 'git', url: 'git+https://github.com/idplatform/idplatform.git' },
      homepage: 'https://github.com/idplatform/idplatform#readme',
      bugs: { url: 'https://github.com/idplatform/idplatform/issues' },
    });
  });

  it('every source of every source map is a file in the tarball', async () => {
    const maps = (await readdir(outDir, { recursive: true })).filter((name) => name.endsWith('.map'));
    expect(maps.length).toBeGreaterThan(4);
    const missing: string[] = [];
    for (const map of maps) {
      const { sources, sourcesContent = [] } = JSON.parse(await readFile(join(outDir, map), 'utf8')) as {
        sources: string[];
        sourcesContent?: (string | null)[];
      };
      // Wherever the map is built, each source names one file of the repository: that file must be packed,
      // or be a dependency the CommonJS build bundles (ky, p-retry, jose), whose text the map embeds.
      for (const [index, source] of sources.entries()) {
        const path = relative(root, resolve(dirname(join(outDir, map)), source))
          .split(sep)
          .join('/');
        const embeddedDependency = path.startsWith('node_modules/') && typeof sourcesContent[index] === 'string';
        if (!packed.has(path) && !embeddedDependency) missing.push(`${map} → ${path}`);
      }
    }
    expect(missing).toEqual([]);
  });

  it('ships no tests, examples or generated API pages', () => {
    const unexpected = [...packed].filter((path) => /^(test|examples|bench|scripts|docs\/api)\//.test(path));
    expect(unexpected).toEqual([]);
  });
});
