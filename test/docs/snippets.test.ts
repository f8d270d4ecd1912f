import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
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

describe('documentation snippets', () => {
  it('type-check against the source', () => {
    const dir = join(root, 'test-results/snippets');
    rmSync(dir, { recursive: true, force: true });
    mkdirSync(dir, { recursive: true });
    const files: string[] = [];
    for (const page of pages) {
      snippets(page).forEach((code, index) => {
        const file = join(dir, `${page.replace(/[/.]/g, '_')}_${index + 1}.ts`);
        writeFileSync(file, code.includes('import ') ? code : `${code}\nexport {};\n`);
        files.push(file);
      });
    }
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
      paths: { idplatform: ['src/index.ts'], 'idplatform/*': ['src/*/index.ts'] },
    });
    const problems = ts
      .getPreEmitDiagnostics(program)
      .map(
        (diagnostic) =>
          `${diagnostic.file?.fileName.replace(`${dir}/`, '') ?? ''}: ${ts.flattenDiagnosticMessageText(diagnostic.messageText, '\n')}`,
      );
    expect(files.length).toBeGreaterThan(10);
    expect(problems).toEqual([]);
  });
});
