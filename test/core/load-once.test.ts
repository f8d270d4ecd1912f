import { describe, expect, it, vi } from 'vitest';
import { loadOnce } from '../../src/core/load-once.js';

describe('loadOnce', () => {
  it('calls load once and gives every caller the same answer', async () => {
    const load = vi.fn(async () => ({ loaded: true }));
    const get = loadOnce(load);
    const [first, second] = await Promise.all([get(), get()]);
    expect(first).toBe(second);
    expect(await get()).toBe(first);
    expect(load).toHaveBeenCalledTimes(1);
  });

  it('forgets a failure: the next call loads again', async () => {
    const failure = new Error('chunk failed to load');
    const load = vi.fn().mockRejectedValueOnce(failure).mockResolvedValueOnce('module');
    const get = loadOnce(load);
    await expect(get()).rejects.toBe(failure);
    expect(await get()).toBe('module');
    expect(load).toHaveBeenCalledTimes(2);
  });
});
