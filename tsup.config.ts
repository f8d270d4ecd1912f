import { readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { defineConfig, type Options } from 'tsup';

const entry = {
  index: 'src/index.ts',
  'management/index': 'src/management/index.ts',
  'auth/index': 'src/auth/index.ts',
  'testing/index': 'src/testing/index.ts',
  'testing/msw/index': 'src/testing/msw/index.ts',
  'redis/index': 'src/redis/index.ts',
  // `#compile-schema` (package.json `imports`): zod's compiler for servers, a no-op for browsers.
  'core/compiled-schema': 'src/core/compiled-schema.ts',
  'core/compiled-schema.browser': 'src/core/compiled-schema.browser.ts',
  // `#node-server` (package.json `imports`): the emulator's loopback server under Node, a module saying it needs Node elsewhere.
  'testing/node-server': 'src/testing/node-server.ts',
  'testing/node-server.unsupported': 'src/testing/node-server.unsupported.ts',
};

/** Entries that package.json `imports` reaches (`#compile-schema`, `#node-server`), not public ones. */
export const INTERNAL_ENTRIES = [
  'core/compiled-schema',
  'core/compiled-schema.browser',
  'testing/node-server',
  'testing/node-server.unsupported',
];

/**
 * Dependencies that ship ESM only: the CommonJS build must bundle them, so that
 * `require('idplatform…')` works where only `require` exists (Jest without
 * `--experimental-vm-modules`).
 */
export const ESM_ONLY_DEPENDENCIES = ['ky', 'p-retry', 'is-network-error', 'jose'];

/**
 * Every runtime dependency. The builds Node loads (`dist/node/*.js` through the
 * `node` export condition, and `dist/*.cjs`) carry them inside, one file per entry
 * plus shared and lazy chunks: resolving and compiling zod's 95 module files and
 * ky's, p-retry's and jose's at start cost about twice the whole cold import
 * (bench/cold-start-results.md). The SDK's schemas stay zod 4 schemas (zod checks
 * traits, not prototypes), a caller's own schema is parsed with its own `safeParse`,
 * and zod stays a dependency for the types. Bundlers (browsers, workers) get the
 * modular build below, where zod is shared with the app and tree-shaken.
 */
export const RUNTIME_DEPENDENCIES = [...ESM_ONLY_DEPENDENCIES, 'zod'];

const common = {
  entry,
  dts: true,
  sourcemap: true,
  splitting: true,
  target: 'es2022',
  platform: 'neutral',
  outDir: 'dist',
  external: ['msw', '#compile-schema', '#node-server'],
} satisfies Options;

/** The Node builds resolve `#compile-schema` to zod's compiler, loaded lazily as a chunk of the same build (the same zod copy). */
const bundled = {
  ...common,
  entry: Object.fromEntries(Object.entries(entry).filter(([name]) => !INTERNAL_ENTRIES.includes(name))),
  dts: false,
  platform: 'node',
  external: ['msw'],
  noExternal: RUNTIME_DEPENDENCIES,
  treeshake: true,
  esbuildOptions(options) {
    options.alias = { '#compile-schema': './src/core/compiled-schema.ts', '#node-server': './src/testing/node-server.ts' };
  },
} satisfies Options;

export default defineConfig([
  // For bundlers and every runtime but Node: ES modules with the dependencies external.
  {
    ...common,
    format: ['esm'],
    clean: true,
    treeshake: true,
    onSuccess: () => rewriteBuilt((file) => file.endsWith('.js') && !file.startsWith('node/'), oneSourceMapComment),
  },
  // For Node (`node` condition of `import`).
  {
    ...bundled,
    format: ['esm'],
    outDir: 'dist/node',
    onSuccess: () => rewriteBuilt((file) => file.startsWith('node/') && file.endsWith('.js'), oneSourceMapComment),
  },
  // For `require`.
  {
    ...bundled,
    format: ['cjs'],
    dts: true,
    onSuccess: () =>
      rewriteBuilt(
        (file) => file.endsWith('.cjs'),
        (code) => requireLazyChunks(oneSourceMapComment(code)),
      ),
  },
]);

/** Rewrites the files of dist/ that `select` picks (paths relative to dist/) with `rewrite`. */
async function rewriteBuilt(select: (file: string) => boolean, rewrite: (code: string) => string): Promise<void> {
  const files = (await readdir('dist', { recursive: true })).filter(select);
  for (const file of files) {
    const path = join('dist', file);
    const code = await readFile(path, 'utf8');
    const rewritten = rewrite(code);
    if (rewritten !== code) await writeFile(path, rewritten);
  }
}

/**
 * `code` with its `sourceMappingURL` comment once: tsup's extra tree-shaking pass
 * (`treeshake`, through Rollup) appends a second copy of the comment esbuild wrote.
 */
function oneSourceMapComment(code: string): string {
  return code.replace(/(\n\/\/# sourceMappingURL=[^\n]*)(?:\n\/\/# sourceMappingURL=[^\n]*)+(\n?)$/, '$1$2');
}

/**
 * The CommonJS chunks keep the lazy `import('./chunk.cjs')` of private_key_jwt and
 * of the emulator's node server; Jest (without `--experimental-vm-modules`) cannot
 * run `import()`. Both sides are our own CommonJS chunks, so a deferred `require`
 * loads the same module at the same moment.
 */
function requireLazyChunks(code: string): string {
  return code.replace(
    /\bimport\((['"])(\.{1,2}\/[^'"]+\.cjs|#compile-schema|#node-server)\1\)/g,
    'Promise.resolve().then(() => require($1$2$1))',
  );
}
