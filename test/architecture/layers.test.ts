/**
 * The layers of `src/` as the import graph shows them: `core` under `management`
 * and `auth`, which never import each other; `testing` on its own rules and the
 * public API only; optional packages only where they belong.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const SRC = resolve(__dirname, '../../src');

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory() ? sourceFiles(join(dir, entry.name)) : entry.name.endsWith('.ts') ? [join(dir, entry.name)] : [],
  );
}

/** Every module a file imports (static `import … from`, `export … from`, and `import()`), resolved for relative ones. */
interface Import {
  readonly specifier: string;
  /** The imported file below src/ for relative imports, else the package specifier. */
  readonly target: string;
  /** `import()`, loaded on first use. */
  readonly lazy: boolean;
  /** `import type`: erased at build time. */
  readonly typeOnly: boolean;
}

function importsOf(file: string): Import[] {
  const text = readFileSync(file, 'utf8');
  const found: Import[] = [];
  for (const match of text.matchAll(/(?:^|\n)\s*(?:import|export)\s(type\s)?[^'"]*?from\s+'([^']+)'|import\('([^']+)'\)/g)) {
    const specifier = (match[2] ?? match[3]) as string;
    const target = specifier.startsWith('.') ? relative(SRC, resolve(file, '..', specifier)).replace(/\.js$/, '.ts') : specifier;
    found.push({ specifier, target, lazy: match[3] !== undefined, typeOnly: match[1] !== undefined });
  }
  return found;
}

const graph = sourceFiles(SRC).map((file) => ({ file: relative(SRC, file), imports: importsOf(file) }));
const layerOf = (path: string) => path.split('/')[0] ?? '';

function edges(from: string, predicate: (target: string) => boolean): string[] {
  return graph
    .filter(({ file }) => layerOf(file) === from)
    .flatMap(({ file, imports }) => imports.filter(({ target }) => predicate(target)).map(({ target }) => `${file} → ${target}`));
}

describe('the import graph of src/', () => {
  it('reads every source file', () => {
    expect(graph.length).toBeGreaterThan(40);
    expect(graph.find(({ file }) => file === 'management/client.ts')?.imports.length).toBeGreaterThan(0);
  });

  it('keeps core under everything: it imports neither management, auth nor testing', () => {
    expect(edges('core', (target) => ['management', 'auth', 'testing', 'redis'].includes(layerOf(target)))).toEqual([]);
  });

  it('keeps management and auth side by side: neither imports the other', () => {
    expect(edges('management', (target) => layerOf(target) === 'auth')).toEqual([]);
    expect(edges('auth', (target) => layerOf(target) === 'management')).toEqual([]);
  });

  it('keeps the emulator independent: it imports no SDK internals, only its own modules and packages', () => {
    const internal = (target: string) =>
      ['core', 'management', 'auth', 'redis'].includes(layerOf(target)) && !/^(management|auth)\/index\.ts$/.test(target);
    // Its entries re-export the public error base (DESIGN: `IdPlatformError` is exported from every entry); nothing else.
    const reexportsOfTheErrorBase = ['testing/index.ts → core/errors.ts', 'testing/msw/index.ts → core/errors.ts'];
    expect(edges('testing', internal).filter((edge) => !reexportsOfTheErrorBase.includes(edge))).toEqual([]);
    const errorImports = graph
      .filter(({ file }) => layerOf(file) === 'testing')
      .flatMap(({ imports }) => imports.filter(({ target }) => target === 'core/errors.ts'));
    expect(errorImports.map(({ specifier }) => specifier)).toEqual(['../core/errors.js', '../../core/errors.js']);
  });

  it('imports msw only in idplatform/testing/msw', () => {
    const importers = graph.filter(({ imports }) => imports.some(({ specifier }) => specifier === 'msw' || specifier.startsWith('msw/')));
    expect(importers.map(({ file }) => file)).toEqual(['testing/msw/index.ts']);
  });

  it('lets idplatform/testing load without msw: nothing it reaches imports msw', () => {
    const byFile = new Map(graph.map(({ file, imports }) => [file, imports]));
    const reached = new Set<string>();
    const visit = (file: string) => {
      if (reached.has(file)) return;
      reached.add(file);
      for (const { target } of byFile.get(file) ?? []) if (byFile.has(target)) visit(target);
    };
    visit('testing/index.ts');
    expect(reached.size).toBeGreaterThan(10);
    const packages = [...reached].flatMap((file) => (byFile.get(file) ?? []).map(({ specifier }) => specifier));
    expect(packages.filter((specifier) => specifier.startsWith('msw'))).toEqual([]);
  });

  it('loads jose in the SDK only lazily, on the paths that sign or verify a JWT (decoding uses the small jose/jwt/decode)', () => {
    const eager = graph
      .filter(({ file }) => layerOf(file) !== 'testing')
      .flatMap(({ file, imports }) =>
        imports.filter(({ specifier, lazy, typeOnly }) => specifier === 'jose' && !lazy && !typeOnly).map(() => file),
      );
    const lazyTargets = graph.flatMap(({ imports }) => imports.filter(({ lazy }) => lazy).map(({ target }) => target));
    for (const file of eager) expect(lazyTargets, `${file} imports jose eagerly`).toContain(file);
  });
});
