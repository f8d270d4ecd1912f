import { HttpResponse, http } from 'msw';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ManagementClient, RateLimitError } from '../../src/management/index.js';
import { createFakeClock } from '../helpers/clock.js';
import { API, DOMAIN, tokenEndpoint, useMswServer } from '../helpers/server.js';

const server = useMswServer();
afterEach(() => vi.useRealTimers());

async function tooManyRequests(headers: Record<string, string>): Promise<RateLimitError> {
  server.use(
    tokenEndpoint(),
    http.get(`${API}/guardian/factors/phone/message-types`, () =>
      HttpResponse.json({ statusCode: 429, error: 'Too Many Requests', message: 'slow down' }, { status: 429, headers }),
    ),
  );
  const management = new ManagementClient({ domain: DOMAIN, clientId: 'm2m', clientSecret: 'secret', retry: false });
  const error = await management.guardian.phone.getMessageTypes().catch((caught: unknown) => caught);
  expect(error).toBeInstanceOf(RateLimitError);
  return error as RateLimitError;
}

describe('RateLimitError.rateLimit', () => {
  const now = Date.UTC(2030, 0, 1);

  it('is read from X-RateLimit-* when the 429 has them', async () => {
    const error = await tooManyRequests({ 'x-ratelimit-limit': '50', 'x-ratelimit-remaining': '0', 'x-ratelimit-reset': '1893456060' });
    expect(error.rateLimit).toEqual({ limit: 50, remaining: 0, reset: new Date(1893456060 * 1000) });
  });

  it('takes X-RateLimit-Reset when it came without the other two (the reset the retry loop waits for)', async () => {
    vi.useFakeTimers({ now, toFake: ['Date'] });
    const error = await tooManyRequests({ 'x-ratelimit-reset': '1893459600', 'retry-after': '30' });
    expect(error.rateLimit).toEqual({ limit: 0, remaining: 0, reset: new Date(1893459600 * 1000) });
  });

  it('is built from Retry-After seconds when X-RateLimit-* are missing', async () => {
    vi.useFakeTimers({ now, toFake: ['Date'] });
    const error = await tooManyRequests({ 'retry-after': '30' });
    expect(error.rateLimit).toEqual({ limit: 0, remaining: 0, reset: new Date(now + 30_000) });
  });

  it('is built from a Retry-After date', async () => {
    vi.useFakeTimers({ now, toFake: ['Date'] });
    const error = await tooManyRequests({ 'retry-after': new Date(now + 120_000).toUTCString() });
    expect(error.rateLimit.reset).toEqual(new Date(now + 120_000));
  });

  it('takes Retry-After when it is later than an X-RateLimit-Reset that came alone (as the retry loop waits)', async () => {
    vi.useFakeTimers({ now, toFake: ['Date'] });
    const error = await tooManyRequests({ 'x-ratelimit-reset': String(now / 1000 - 2), 'retry-after': '30' });
    expect(error.rateLimit).toEqual({ limit: 0, remaining: 0, reset: new Date(now + 30_000) });
  });

  it.each([
    ['15 digits', '99999999999999'],
    ['400 digits (Infinity)', '9'.repeat(400)],
  ])('keeps an X-RateLimit-Reset that came alone when Retry-After (%s) is beyond what a date holds', async (_, retryAfter) => {
    vi.useFakeTimers({ now, toFake: ['Date'] });
    const error = await tooManyRequests({ 'x-ratelimit-reset': String(now / 1000 + 30), 'retry-after': retryAfter });
    expect(error.rateLimit.reset).toEqual(new Date(now + 30_000));
  });

  it("reads Retry-After on the client's clock", async () => {
    server.use(
      http.get(`${API}/guardian/factors/phone/message-types`, () =>
        HttpResponse.json(
          { statusCode: 429, error: 'Too Many Requests', message: 'slow down' },
          { status: 429, headers: { 'retry-after': '5' } },
        ),
      ),
    );
    const management = new ManagementClient({ domain: DOMAIN, token: 'token-1', retry: false, clock: createFakeClock(now) });
    const error = await management.guardian.phone.getMessageTypes().catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(RateLimitError);
    expect((error as RateLimitError).rateLimit.reset).toEqual(new Date(now + 5_000));
  });

  it('resets now when the 429 has no header at all', async () => {
    vi.useFakeTimers({ now, toFake: ['Date'] });
    const error = await tooManyRequests({});
    expect(error.rateLimit).toEqual({ limit: 0, remaining: 0, reset: new Date(now) });
  });
});
