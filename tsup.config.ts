import { defineConfig } from 'tsup';

export default defineConfig({
  entry: {
    index: 'src/index.ts',
    'management/index': 'src/management/index.ts',
    'auth/index': 'src/auth/index.ts',
    'testing/index': 'src/testing/index.ts',
    'testing/msw/index': 'src/testing/msw/index.ts',
    'redis/index': 'src/redis/index.ts',
  },
  format: ['esm', 'cjs'],
  dts: true,
  sourcemap: true,
  clean: true,
  splitting: true,
  treeshake: true,
  target: 'es2022',
  platform: 'neutral',
  outDir: 'dist',
  external: ['msw'],
});
