/**
 * The retry loop's chunk (p-retry, loaded on the first retry) may take a while to
 * come (a browser on a slow network, a cold disk): work given up meanwhile sends no
 * retry once it has loaded.
 */
import { expect, it, vi } from 'vitest';
import { ServerError } from '../../src/core/errors.js';
import { withRetry } from '../../src/core/retry.js';
import { sharedRetry } from '../../src/core/shared-work.js';
import { createFakeClock } from '../helpers/clock.js';

let loaded!: () => void;
vi.mock('p-retry', async () => {
  await new Promise<void>((resolve) => {
    loaded = resolve;
  });
  return vi.importActual('p-retry');
});

it('sends no retry when the work was given up while the retry loop loaded', async () => {
  const giveUp = new AbortController();
  const failure = new ServerError({
    status: 503,
    error: 'Service Unavailable',
    message: 'busy',
    errorCode: undefined,
    body: undefined,
    headers: {},
    rateLimit: undefined,
    method: 'GET',
    path: '/x',
  });
  let attempts = 0;
  const attempt = async () => {
    attempts++;
    throw failure;
  };
  const result = withRetry(attempt, {
    policy: { maxRetries: 3, maxDelayMs: 60_000 },
    clock: createFakeClock(0),
    idempotent: true,
    shared: sharedRetry({ giveUp: giveUp.signal }),
  });
  await vi.waitFor(() => expect(loaded).toBeTypeOf('function'));
  giveUp.abort(new Error('nobody waits'));
  loaded();
  await expect(result).rejects.toBe(failure);
  expect(attempts).toBe(1);
});
