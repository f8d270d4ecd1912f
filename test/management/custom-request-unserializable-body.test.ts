import { HttpResponse, http } from 'msw';
import { describe, expect, it } from 'vitest';
import { ManagementClient } from '../../src/management/client.js';
import { createFakeClock } from '../helpers/clock.js';
import { API, useMswServer } from '../helpers/server.js';

const server = useMswServer();

describe('management.request() with a body JSON cannot carry', () => {
  it('is refused as RequestValidationError before sending, not reported as a network failure and retried', async () => {
    let hits = 0;
    server.use(
      http.put(`${API}/roles/r1`, () => {
        hits++;
        return HttpResponse.json({});
      }),
    );
    const clock = createFakeClock();
    const management = new ManagementClient({
      baseUrl: API,
      token: 'opaque-token-abc',
      clock,
      retry: { maxRetries: 2, maxDelayMs: 10_000 },
    });
    const error = await management.request({ method: 'PUT', path: 'roles/r1', body: { count: 1n } }).catch((caught: unknown) => caught);
    expect(hits).toBe(0);
    // It was a NetworkError (code 'network') "PUT /roles/r1 failed: Do not know how to serialize a BigInt",
    // after backoff retries, for a request that never left the process.
    expect((error as { code?: string }).code).toBe('request_invalid');
    expect(clock.sleeps).toEqual([]); // refused before the retry loop: no backoff slept
  });
});
