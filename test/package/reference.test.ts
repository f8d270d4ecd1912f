/**
 * The API reference: Markdown pages in docs/reference/, one per entry point, made by
 * `npm run docs` (TypeDoc with typedoc-plugin-markdown), committed, shipped in the
 * tarball (tarball.test.ts) and linked from the README. CI runs `npm run docs -- --check`,
 * which fails when the pages are stale or TypeDoc warns.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const root = join(import.meta.dirname, '../..');
const read = (file: string) => readFileSync(join(root, file), 'utf8');

describe('the API reference', () => {
  it('is made by `npm run docs` as Markdown into docs/reference, treating warnings as errors', () => {
    const manifest = JSON.parse(read('package.json')) as { scripts: Record<string, string>; devDependencies: Record<string, string> };
    const typedoc = JSON.parse(read('typedoc.json')) as Record<string, unknown>;
    expect(manifest.scripts.docs).toBe('node scripts/docs.mjs');
    expect(manifest.devDependencies).toHaveProperty('typedoc-plugin-markdown');
    expect(typedoc).toMatchObject({ out: 'docs/reference', router: 'module', treatWarningsAsErrors: true, tsconfig: 'tsconfig.src.json' });
    expect(typedoc.plugin).toContain('typedoc-plugin-markdown');
  });

  it('is committed: a page per entry point, named by its import', () => {
    const pages = [
      'README.md',
      'idplatform.md',
      ...['management', 'auth', 'testing', 'testing/msw', 'redis'].map((name) => `idplatform/${name}.md`),
    ];
    expect(pages.filter((page) => !existsSync(join(root, 'docs/reference', page)))).toEqual([]);
    expect(read('.gitignore').split('\n')).not.toContain('docs/reference/');
    expect(read('docs/reference/idplatform/management.md')).toMatch(/^# idplatform\/management$/m);
  });

  it('is checked by CI for staleness and warnings, and linked from the README', () => {
    expect(read('.ci/run')).toMatch(/^npm run docs -- --check$/m);
    expect(read('README.md')).toContain('](docs/reference/README.md)');
  });
});
