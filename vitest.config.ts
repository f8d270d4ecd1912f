import { defineConfig } from 'vitest/config';

export default defineConfig({
  // Tests import the SDK by its public names ('idplatform/redis'); tsconfig `paths` map them to src/.
  resolve: { tsconfigPaths: true },
  test: {
    include: ['test/**/*.test.ts'],
    typecheck: { enabled: true, include: ['test/**/*.test-d.ts'] },
    testTimeout: 20_000,
    restoreMocks: true,
  },
});
