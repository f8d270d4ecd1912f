import { execFile } from 'node:child_process';
import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

/**
 * Every ```ts snippet of README.md and docs/*.md is type-checked against src/ as
 * if it imported the published package, so the docs cannot drift from the code.
 */
const root = join(import.meta.dirname, '../..');
const pages = [
  'README.md',
  ...readdirSync(join(root, 'docs'))
    .filter((name) => name.endsWith('.md'))
    .map((name) => `docs/${name}`),
];

function snippets(page: string): string[] {
  const text = readFileSync(join(root, page), 'utf8');
  return [...text.matchAll(/```ts\n([\s\S]*?)```/g)].map((match) => match[1] as string);
}

/** Writes each snippet of `pages` to its own module under `dir`; returns the file names. */
function writeSnippets(dir: string, of: readonly string[]): string[] {
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  return of.flatMap((page) =>
    snippets(page).map((code, index) => {
      const file = join(dir, `${page.replace(/[/.]/g, '_')}_${index + 1}.ts`);
      writeFileSync(file, code.includes('import ') ? code : `${code}\nexport {};\n`);
      return file;
    }),
  );
}

describe('documentation snippets', () => {
  it('run as written on docs/testing.md, which needs no tenant', async () => {
    const files = writeSnippets(join(root, 'test-results/runnable-snippets'), ['docs/testing.md']);
    expect(files.length).toBeGreaterThanOrEqual(5);
    for (const file of files) {
      const { stderr } = await promisify(execFile)(process.execPath, ['--import', 'tsx', file], { cwd: root, timeout: 20_000 });
      // Node 25+ warns when a library looks for `localStorage` (msw does): the runtime's note, not the snippet's.
      const own = stderr.replace(
        /^\(node:\d+\) ExperimentalWarning: localStorage is not available.*\n(?:\(Use `node --trace-warnings.*\n)?/m,
        '',
      );
      expect(own).toBe('');
    }
  }, 60_000);

  it('type-check against the source', () => {
    const dir = join(root, 'test-results/snippets');
    const files = writeSnippets(dir, pages);
    const program = ts.createProgram(files, {
      strict: true,
      noEmit: true,
      target: ts.ScriptTarget.ES2022,
      module: ts.ModuleKind.ESNext,
      moduleResolution: ts.ModuleResolutionKind.Bundler,
      lib: ['lib.es2023.d.ts', 'lib.dom.d.ts', 'lib.dom.iterable.d.ts'],
      types: ['node'],
      skipLibCheck: true,
      baseUrl: root,
      // As tsconfig.json maps them: the package's internal imports too, so nothing is read from a build in dist/.
      paths: {
        idplatform: ['src/index.ts'],
        'idplatform/*': ['src/*/index.ts'],
        '#compile-schema': ['src/core/compiled-schema.ts'],
        '#node-server': ['src/testing/node-server.ts'],
        '#client-credentials': ['src/management/grant.ts'],
      },
    });
    const problems = ts
      .getPreEmitDiagnostics(program)
      .map(
        (diagnostic) =>
          `${diagnostic.file?.fileName.replace(`${dir}/`, '') ?? ''}: ${ts.flattenDiagnosticMessageText(diagnostic.messageText, '\n')}`,
      );
    expect(files.length).toBeGreaterThan(10);
    expect(problems).toEqual([]);
    // One TypeScript program over every snippet: well over 20 s on a loaded 2-core CI machine.
  }, 120_000);
});
