import { describe, expect, it, vi } from 'vitest';
import { TokenRequestError } from '../../../src/core/errors.js';
import { callerTokenProvider, lazyTokenProvider } from '../../../src/core/tokens/provider.js';

describe('callerTokenProvider', () => {
  it.each([
    ['a string', 'caller-token'],
    ['a sync function', () => 'caller-token'],
    ['an async function', async () => 'caller-token'],
  ])('returns the token of %s', async (_kind, source) => {
    await expect(callerTokenProvider(source).getToken()).resolves.toBe('caller-token');
  });

  it('calls the function on every request, so a caller can rotate tokens', async () => {
    let count = 0;
    const tokens = callerTokenProvider(() => `caller-token-${++count}`);
    expect(await tokens.getToken()).toBe('caller-token-1');
    expect(await tokens.getToken()).toBe('caller-token-2');
  });

  it('refuses a token no Authorization header can carry (a newline from a file), without showing it', async () => {
    const error = await callerTokenProvider(() => 'secret-token\n')
      .getToken()
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(TokenRequestError);
    expect(String(error)).not.toContain('secret-token');
  });

  it('throws TokenRequestError when the function returns no token', async () => {
    await expect(callerTokenProvider(() => '').getToken()).rejects.toBeInstanceOf(TokenRequestError);
  });

  it('cannot offer another token after a 401: reject answers false', () => {
    expect(callerTokenProvider('caller-token').reject('caller-token')).toBe(false);
  });
});

describe('lazyTokenProvider', () => {
  function fakeProvider(token: string) {
    return { getToken: vi.fn(async () => token), reject: vi.fn(() => true) };
  }

  it('loads its implementation once, on the first getToken, and delegates every call to it', async () => {
    const inner = fakeProvider('token-1');
    const load = vi.fn(async () => inner);
    const tokens = lazyTokenProvider(load);
    expect(load).not.toHaveBeenCalled();
    expect(await Promise.all([tokens.getToken(), tokens.getToken()])).toEqual(['token-1', 'token-1']);
    expect(await tokens.getToken()).toBe('token-1');
    expect(load).toHaveBeenCalledTimes(1);
    expect(inner.getToken).toHaveBeenCalledTimes(3);
  });

  it('rejects tokens through its implementation once loaded, and answers false before (it issued none)', async () => {
    const inner = fakeProvider('token-1');
    const tokens = lazyTokenProvider(async () => inner);
    expect(tokens.reject('token-0')).toBe(false);
    await tokens.getToken();
    expect(tokens.reject('token-1')).toBe(true);
    expect(inner.reject).toHaveBeenCalledWith('token-1');
  });

  it('throws TokenRequestError when the implementation cannot load, and tries again on the next call', async () => {
    const failure = new Error('chunk failed to load');
    const load = vi.fn().mockRejectedValueOnce(failure).mockResolvedValueOnce(fakeProvider('token-2'));
    const tokens = lazyTokenProvider(load);
    const error = await tokens.getToken().catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(TokenRequestError);
    expect((error as TokenRequestError).cause).toBe(failure);
    expect(await tokens.getToken()).toBe('token-2');
    expect(load).toHaveBeenCalledTimes(2);
  });
});
