import { describe, expect, it } from 'vitest';
import { memoryTokenCache } from '../../../src/core/tokens/memory-cache.js';
import { createFakeClock } from '../../helpers/clock.js';

describe('memoryTokenCache', () => {
  it('keeps a token for its time to live and forgets it then', () => {
    const clock = createFakeClock(1_000);
    const cache = memoryTokenCache(clock);
    cache.set('key', 'token', 5_000);
    clock.advance(4_999);
    expect(cache.get('key')).toBe('token');
    clock.advance(1);
    expect(cache.get('key')).toBeUndefined();
  });

  it('answers undefined for a key it never saw and keeps keys apart', () => {
    const cache = memoryTokenCache(createFakeClock());
    cache.set('a', 'token-a', 1_000);
    expect(cache.get('b')).toBeUndefined();
    expect(cache.get('a')).toBe('token-a');
  });
});
