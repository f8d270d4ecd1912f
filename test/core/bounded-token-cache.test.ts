import { describe, expect, it, vi } from 'vitest';
import { boundedTokenCache } from '../../src/core/bounded-token-cache.js';

describe('boundedTokenCache', () => {
  it('fails a lock whose answer is a thenable that throws, and leaves no unhandled rejection behind', async () => {
    const unhandled = vi.fn();
    process.on('unhandledRejection', unhandled);
    try {
      const broken = new Error('bad thenable');
      const cache = boundedTokenCache(
        {
          get: () => undefined,
          set: () => {},
          lock: () =>
            ({
              // biome-ignore lint/suspicious/noThenProperty: a user's thenable, as the cache contract allows
              then() {
                throw broken;
              },
            }) as never,
        },
        1_000,
      );
      await expect(cache.lock?.('k', 5_000)).rejects.toBe(broken);
      await new Promise((resolve) => setImmediate(resolve));
      await new Promise((resolve) => setImmediate(resolve));
      expect(unhandled).not.toHaveBeenCalled();
    } finally {
      process.off('unhandledRejection', unhandled);
    }
  });
});
