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
};

/**
 * Dependencies that ship ESM only: the CommonJS build bundles them, so that
 * `require('idplatform…')` works where only `require` exists (Jest without
 * `--experimental-vm-modules`). zod ships CommonJS and stays external.
 */
export const ESM_ONLY_DEPENDENCIES = ['ky', 'p-retry', 'is-network-error', 'jose'];

const common = {
  entry,
  dts: true,
  sourcemap: true,
  splitting: true,
  target: 'es2022',
  platform: 'neutral',
  outDir: 'dist',
  external: ['msw', '#compile-schema'],
} satisfies Options;

export default defineConfig([
  { ...common, format: ['esm'], clean: true, treeshake: true },
  {
    ...common,
    format: ['cjs'],
    noExternal: ESM_ONLY_DEPENDENCIES,
    treeshake: true,
    onSuccess: requireLazyChunks,
  },
]);

/**
 * The CommonJS chunks keep the lazy `import('./chunk.cjs')` of private_key_jwt and
 * of the emulator's node server; Jest (without `--experimental-vm-modules`) cannot
 * run `import()`. Both sides are our own CommonJS chunks, so a deferred `require`
 * loads the same module at the same moment.
 */
async function requireLazyChunks(): Promise<void> {
  const files = (await readdir('dist', { recursive: true })).filter((file) => file.endsWith('.cjs'));
  for (const file of files) {
    const path = join('dist', file);
    const code = await readFile(path, 'utf8');
    const rewritten = code.replace(
      /\bimport\((['"])(\.{1,2}\/[^'"]+\.cjs|#compile-schema)\1\)/g,
      'Promise.resolve().then(() => require($1$2$1))',
    );
    if (rewritten !== code) await writeFile(path, rewritten);
  }
}
