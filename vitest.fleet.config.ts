import { defineConfig } from 'vitest/config';

/** `npm run test:fleet`: the multi-process fleet test on Redis (test/fleet), kept out of `npm test`. */
export default defineConfig({
  resolve: { tsconfigPaths: true },
  test: {
    include: ['test/fleet/**/*.fleet.ts'],
    testTimeout: 150_000,
    hookTimeout: 30_000,
  },
});
