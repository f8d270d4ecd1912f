import { defineConfig } from 'vitest/config';

/** `npm run test:fleet`: the multi-process fleet test on Redis (test/fleet), kept out of `npm test`. */
export default defineConfig({
  resolve: { tsconfigPaths: true },
  test: {
    include: ['test/fleet/**/*.fleet.ts'],
    // Finds or installs the Redis server the Redis tests start (REDIS_URL, redis-server on PATH, or apt-get).
    globalSetup: ['test/setup/redis.ts'],
    testTimeout: 150_000,
    hookTimeout: 30_000,
  },
});
