/**
 * What `npm pack` ships: the license, the repository links, the API reference, and
 * the SDK's source once (inside the modular build's source maps).
 * The JavaScript and its maps are built with the project's tsup config into a
 * temporary directory (no `.d.ts`, which carries no maps), then finished as
 * `npm run build` finishes them, so the test needs no earlier build.
 */
import { execFile } from 'node:child_process';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join, relative, resolve } from 'node:path';
import { promisify } from 'node:util';
import { build, type Options } from 'tsup';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import config, { finishCommonJs, finishModular } from '../../tsup.config.js';

const root = join(import.meta.dirname, '../..');
let packed: Set<string>;
let outDir: string;
/** The built files whose map named some of the SDK's own code before the build was finished. */
const ownCode = new Set<string>();

beforeAll(async () => {
  const { stdout } = await promisify(execFile)('npm', ['pack', '--dry-run', '--json', '--ignore-scripts'], {
    cwd: root,
    timeout: 60_000,
  });
  const [report] = JSON.parse(stdout) as [{ files: { path: string }[] }];
  packed = new Set(report.files.map((file) => file.path));
  outDir = await mkdtemp(join(tmpdir(), 'idplatform-dist-'));
  // tsup.config.ts holds one config per build (modular ESM; CJS with the dependencies bundled).
  for (const options of (Array.isArray(config) ? config : [config]) as Options[]) {
    const { onSuccess: _postBuild, ...buildOptions } = options; // it finishes dist/, not this directory (below)
    const into = join(outDir, relative('dist', buildOptions.outDir ?? 'dist'));
    await build({ ...buildOptions, outDir: into, dts: false, silent: true, clean: false, config: false });
  }
  for (const map of (await readdir(outDir, { recursive: true })).filter((name) => name.endsWith('.map'))) {
    const { sources } = JSON.parse(await readFile(join(outDir, map), 'utf8')) as { sources: string[] };
    if (sources.length > 0) ownCode.add(map.slice(0, -'.map'.length));
  }
  await finishModular(outDir);
  await finishCommonJs(outDir);
}, 180_000);

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

  it("ships the source once, as the text of the modular build's source maps", async () => {
    expect([...packed].filter((path) => path.startsWith('src/'))).toEqual([]);
    const maps = (await readdir(outDir, { recursive: true })).filter((name) => name.endsWith('.map'));
    expect(maps.filter((map) => !map.endsWith('.js.map'))).toEqual([]);
    const sourceFile = join(root, 'src/core/http/sender.ts');
    const wrong: string[] = [];
    let senderEmbedded = false;
    for (const map of maps) {
      const { sources, sourcesContent = [] } = JSON.parse(await readFile(join(outDir, map), 'utf8')) as {
        sources: string[];
        sourcesContent?: (string | null)[];
      };
      for (const [index, source] of sources.entries()) {
        const text = sourcesContent[index];
        if (typeof text !== 'string') wrong.push(`${map} → ${source}`);
        if (resolve(dirname(join(outDir, map)), source) === sourceFile) {
          expect(text).toBe(await readFile(sourceFile, 'utf8'));
          senderEmbedded = true;
        }
      }
    }
    expect(wrong).toEqual([]);
    expect(senderEmbedded).toBe(true);
  });

  it('gives the CommonJS build no source map', async () => {
    const built = (await readdir(outDir, { recursive: true })).filter((name) => name.endsWith('.cjs'));
    expect(built.length).toBeGreaterThan(4);
    for (const file of built) expect(await readFile(join(outDir, file), 'utf8')).not.toMatch(/sourceMappingURL/);
  });

  it("keeps a source map for every modular file that holds some of the SDK's own code", async () => {
    expect(ownCode.size).toBeGreaterThan(4);
    const files = new Set(await readdir(outDir, { recursive: true }));
    expect([...ownCode].filter((file) => !files.has(`${file}.map`))).toEqual([]);
  });

  it('ships the API reference, a page per entry point', () => {
    const pages = [...packed].filter((path) => path.startsWith('docs/reference/'));
    expect(pages).toContain('docs/reference/README.md');
    expect(pages).toContain('docs/reference/idplatform/management.md');
    expect(pages.length).toBe(7);
  });

  it('ships no tests, examples, scripts, build markers or generated HTML', () => {
    const unexpected = [...packed].filter((path) =>
      /^(test|examples|bench|scripts|api|docs\/api)\/|^dist\/\.built$|^CONTRIBUTING\.md$/.test(path),
    );
    expect(unexpected).toEqual([]);
  });
});
