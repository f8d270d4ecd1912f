import { describe, expect, it, vi } from 'vitest';
import { IdPlatformError } from '../../src/core/errors.js';
import { tellResponse } from '../../src/core/response-hook.js';

const info = { method: 'GET', path: '/x', status: 200, rateLimit: undefined };

describe('tellResponse', () => {
  it('fails the call with an SDK error whose cause is what the hook threw', () => {
    const thrown = new Error('hook broke');
    expect(() =>
      tellResponse(() => {
        throw thrown;
      }, info),
    ).toThrow(expect.objectContaining({ cause: thrown }));
    expect(() =>
      tellResponse(() => {
        throw thrown;
      }, info),
    ).toThrow(IdPlatformError);
  });

  it('does not wait for an async hook, and leaves no unhandled rejection when it rejects', async () => {
    const unhandled = vi.fn();
    process.on('unhandledRejection', unhandled);
    try {
      expect(() => tellResponse(async () => Promise.reject(new Error('async hook broke')), info)).not.toThrow();
      await new Promise((resolve) => setImmediate(resolve));
      await new Promise((resolve) => setImmediate(resolve));
      expect(unhandled).not.toHaveBeenCalled();
    } finally {
      process.off('unhandledRejection', unhandled);
    }
  });
});
