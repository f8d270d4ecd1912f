import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

const src = fileURLToPath(new URL('./src/', import.meta.url));

export default defineConfig({
  // The public entry points, as tsconfig's `paths` maps them: tests import the SDK as users do.
  resolve: {
    alias: [
      { find: /^idplatform$/, replacement: `${src}index.ts` },
      { find: /^#compile-schema$/, replacement: `${src}core/compiled-schema.ts` },
      { find: /^#node-server$/, replacement: `${src}testing/node-server.ts` },
      { find: /^#client-credentials$/, replacement: `${src}management/grant.ts` },
      { find: /^idplatform\/(.+)$/, replacement: `${src}$1/index.ts` },
    ],
  },
  test: {
    include: ['test/**/*.test.ts'],
    // Finds or installs the Redis server the Redis tests start (REDIS_URL, redis-server on PATH, or apt-get).
    globalSetup: ['test/setup/redis.ts'],
    typecheck: { enabled: true, include: ['test/**/*.test-d.ts'] },
    testTimeout: 20_000,
    restoreMocks: true,
  },
});
