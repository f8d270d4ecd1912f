import { mkdir, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join, relative, resolve } from 'node:path';
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
  // `#client-credentials` (package.json `imports`): a ManagementClient's client-credentials grant, refused by browser builds.
  'management/grant': 'src/management/grant.ts',
  'management/grant.browser': 'src/management/grant.browser.ts',
};

/** Entries that package.json `imports` reaches (`#compile-schema`, `#node-server`, `#client-credentials`), not public ones. */
export const INTERNAL_ENTRIES = [
  'core/compiled-schema',
  'core/compiled-schema.browser',
  'testing/node-server',
  'testing/node-server.unsupported',
  'management/grant',
  'management/grant.browser',
];

/**
 * Dependencies that ship ESM only: the CommonJS build must bundle them, so that
 * `require('idplatform…')` works where only `require` exists (Jest without
 * `--experimental-vm-modules`).
 */
export const ESM_ONLY_DEPENDENCIES = ['ky', 'p-retry', 'is-network-error', 'jose'];

/**
 * Every runtime dependency. The build Node loads (`dist/*.cjs`, also through the
 * ES module entries of dist/node/ for `import`) carries them inside, one file per
 * entry plus shared and lazy chunks: resolving and compiling zod's 95 module files and
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
  splitting: true,
  target: 'es2022',
  platform: 'neutral',
  outDir: 'dist',
  external: ['msw', '#compile-schema', '#node-server', '#client-credentials'],
} satisfies Options;

/** The Node build resolves `#compile-schema` to zod's compiler, loaded lazily as a chunk of the same build (the same zod copy). */
const bundled = {
  ...common,
  entry: Object.fromEntries(Object.entries(entry).filter(([name]) => !INTERNAL_ENTRIES.includes(name))),
  dts: false,
  platform: 'node',
  external: ['msw'],
  noExternal: RUNTIME_DEPENDENCIES,
  treeshake: true,
  esbuildOptions(options) {
    options.alias = {
      '#compile-schema': './src/core/compiled-schema.ts',
      '#node-server': './src/testing/node-server.ts',
      '#client-credentials': './src/management/grant.ts',
    };
  },
} satisfies Options;

export default defineConfig([
  // For bundlers and every runtime but Node: ES modules with the dependencies external.
  // Their source maps embed the source, its one copy in the package: bundlers and
  // browser devtools read it there.
  {
    ...common,
    format: ['esm'],
    sourcemap: true,
    clean: true,
    treeshake: true,
    onSuccess: () => finishModular('dist'),
  },
  // For `require`, and for Node's `import` through the entries `finishCommonJs` writes in dist/node/.
  // No source maps: a second copy of the source would double the package, and this
  // build is plain unminified JavaScript that a stack trace points into readably.
  {
    ...bundled,
    format: ['cjs'],
    dts: true,
    onSuccess: () => finishCommonJs('dist'),
  },
]);

/** What the modular build gets after tsup (`dir` is its output directory). */
export async function finishModular(dir: string): Promise<void> {
  await rewriteBuilt(dir, (file) => file.endsWith('.js') && !file.startsWith('node/'), oneSourceMapComment);
  await dropEmptySourceMaps(dir);
}

/** What the CommonJS build gets after tsup, and the Node `import` entries over it. */
export async function finishCommonJs(dir: string): Promise<void> {
  await rewriteBuilt(dir, (file) => file.endsWith('.cjs'), requireLazyChunks);
  await writeNodeImportEntries(dir);
}

/** Rewrites the files of `dir` that `select` picks (paths relative to `dir`) with `rewrite`. */
async function rewriteBuilt(dir: string, select: (file: string) => boolean, rewrite: (code: string) => string): Promise<void> {
  const files = (await readdir(dir, { recursive: true })).filter(select);
  for (const file of files) {
    const path = join(dir, file);
    const code = await readFile(path, 'utf8');
    const rewritten = rewrite(code);
    if (rewritten !== code) await writeFile(path, rewritten);
  }
}

/** An entry of re-exports only maps no line: its map goes, and the comment naming it. */
async function dropEmptySourceMaps(dir: string): Promise<void> {
  for (const file of (await readdir(dir, { recursive: true })).filter((name) => name.endsWith('.js.map'))) {
    const path = join(dir, file);
    if ((JSON.parse(await readFile(path, 'utf8')) as { sources: string[] }).sources.length > 0) continue;
    await rm(path);
    const code = path.slice(0, -'.map'.length);
    await writeFile(code, (await readFile(code, 'utf8')).replace(/\n?\/\/# sourceMappingURL=[^\n]*\n?$/, '\n'));
  }
}

/**
 * dist/node/: what Node's `import` loads (the `node` condition), ES modules that take
 * everything from the CommonJS build. Node then runs one copy of the SDK whether an app
 * imports or requires it (one `ManagementClient` class, one token cache), and the
 * package ships the bundled code once. `/testing/msw` takes its handlers from the
 * modular build instead, so that they come from the same msw as the app's
 * `import { setupServer } from 'msw/node'`; its other exports still come from CommonJS.
 */
async function writeNodeImportEntries(dir: string): Promise<void> {
  const requireBuilt = createRequire(resolve(dir, 'package.json'));
  const exportsOf = (name: string) => Object.keys(requireBuilt(resolve(dir, `${name}.cjs`))).sort();
  for (const name of Object.keys(entry).filter((name) => !INTERNAL_ENTRIES.includes(name))) {
    const path = join(dir, 'node', `${name}.js`);
    const from = (target: string) => relative(dirname(path), join(dir, target)).replaceAll('\\', '/');
    let code: string;
    if (name === 'testing/msw/index') {
      // Read, not required: requiring it would load msw's CommonJS build.
      const commonJs = await readFile(join(dir, `${name}.cjs`), 'utf8');
      const names = [...commonJs.matchAll(/^(?:exports\.(\w+) =|Object\.defineProperty\(exports, "(\w+)")/gm)].map(
        ([, a, b]) => a ?? b ?? '',
      );
      const shared = exportsOf('testing/index').filter((exported) => names.includes(exported));
      const own = names.filter((exported) => !shared.includes(exported)).sort();
      code = `import commonJs from '${from('testing/index.cjs')}';\n\nexport const { ${shared.join(', ')} } = commonJs;\nexport { ${own.join(', ')} } from '${from(`${name}.js`)}';\n`;
    } else {
      code = `import commonJs from '${from(`${name}.cjs`)}';\n\nexport const { ${exportsOf(name).join(', ')} } = commonJs;\n`;
    }
    await mkdir(dirname(path), { recursive: true });
    await writeFile(path, code);
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
