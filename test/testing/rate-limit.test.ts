import { describe, expect, it } from 'vitest';
import { createTenantEmulator } from '../../src/testing/index.js';
import { defaultGrant, emulatorWithClock, managementRequest, read, tokenRequest } from '../helpers/emulator.js';

const TOO_MANY = 'Too many requests. Check the X-RateLimit-Limit, X-RateLimit-Remaining and X-RateLimit-Reset headers.';

function rateLimit(response: Response) {
  return {
    limit: response.headers.get('x-ratelimit-limit'),
    remaining: response.headers.get('x-ratelimit-remaining'),
    reset: response.headers.get('x-ratelimit-reset'),
  };
}

describe('rate limiting', () => {
  it('puts X-RateLimit-* on every response: successes, errors, faults and the token endpoint', async () => {
    const { emulator, clock } = emulatorWithClock();
    const origin = emulator.origin;
    const token = await emulator.createAccessToken();
    const responses: [string, Response][] = [
      ['token 200', await tokenRequest(emulator, defaultGrant(emulator))],
      ['token 401', await tokenRequest(emulator, { ...defaultGrant(emulator), client_secret: 'x' })],
      ['token 405', await emulator.handle(new Request(`${origin}/oauth/token`))],
      ['200', await managementRequest(emulator, '/organizations/org_small/invitations', { token })],
      ['400', await managementRequest(emulator, '/organizations/org_small/invitations?page=-1', { token })],
      ['401', await emulator.handle(new Request(`${origin}/api/v2/organizations/org_small/invitations`))],
      [
        '403',
        await managementRequest(emulator, '/actions/modules/mod_small/actions', {
          token: await emulator.createAccessToken({ scopes: [] }),
        }),
      ],
      ['404', await managementRequest(emulator, '/organizations/org_nope/invitations', { token })],
      ['404 route', await emulator.handle(new Request(`${origin}/api/v2/nothing`))],
      ['405', await emulator.handle(new Request(`${origin}/api/v2/guardian/factors/phone/message-types`, { method: 'POST' }))],
      ['jwks', await emulator.handle(new Request(`${origin}/.well-known/jwks.json`))],
      ['auth 404', await emulator.handle(new Request(`${origin}/authorize`))],
    ];
    emulator.faults.next(1, { status: 503 });
    responses.push(['503', await managementRequest(emulator, '/organizations/org_small/invitations', { token })]);
    emulator.faults.next(1, { status: 429 });
    responses.push(['429', await managementRequest(emulator, '/organizations/org_small/invitations', { token })]);
    const nowSeconds = clock.now() / 1000;
    for (const [name, response] of responses) {
      const { limit, remaining, reset } = rateLimit(response);
      expect({ name, limit, remaining }).toEqual({ name, limit: '1000', remaining: expect.stringMatching(/^\d+$/) });
      expect(Number(reset), name).toBeGreaterThan(nowSeconds);
    }
  });

  it('counts down, answers 429 with Retry-After once the bucket is empty, and refills after the window', async () => {
    const { emulator, clock } = emulatorWithClock({ rateLimit: { limit: 3, windowMs: 10_000 } });
    const token = await emulator.createAccessToken();
    const start = clock.now();
    const remaining: (string | null)[] = [];
    for (let index = 0; index < 3; index++) {
      const response = await managementRequest(emulator, '/guardian/factors/phone/message-types', { token });
      expect(response.status).toBe(200);
      remaining.push(response.headers.get('x-ratelimit-remaining'));
      clock.advance(1_000);
    }
    expect(remaining).toEqual(['2', '1', '0']);

    const refused = await managementRequest(emulator, '/guardian/factors/phone/message-types', { token });
    expect(await read(refused)).toMatchObject({
      status: 429,
      body: { statusCode: 429, error: 'Too Many Requests', message: TOO_MANY, errorCode: 'too_many_requests' },
    });
    expect(rateLimit(refused)).toEqual({ limit: '3', remaining: '0', reset: String((start + 10_000) / 1000) });
    expect(refused.headers.get('retry-after')).toBe('7');

    clock.advance(6_999);
    expect((await managementRequest(emulator, '/guardian/factors/phone/message-types', { token })).status).toBe(429);
    clock.advance(1);
    const again = await managementRequest(emulator, '/guardian/factors/phone/message-types', { token });
    expect(again.status).toBe(200);
    expect(rateLimit(again)).toEqual({ limit: '3', remaining: '2', reset: String((start + 20_000) / 1000) });
  });

  it('rounds X-RateLimit-Reset up to whole seconds, so a client never comes back early', async () => {
    let time = 1_000_000_500;
    const emulator = createTenantEmulator({ now: () => time, rateLimit: { limit: 1, windowMs: 1_000 } });
    const response = await emulator.handle(new Request(`${emulator.origin}/api/v2/nothing`));
    expect(response.headers.get('x-ratelimit-reset')).toBe('1000002');
    time += 400;
    const refused = await emulator.handle(new Request(`${emulator.origin}/api/v2/nothing`));
    expect(refused.status).toBe(429);
    expect(refused.headers.get('retry-after')).toBe('1');
  });

  it('keeps separate buckets for the Authentication API (token endpoint) and the Management API', async () => {
    const { emulator } = emulatorWithClock({ rateLimit: { limit: 1, windowMs: 60_000 } });
    expect((await tokenRequest(emulator, defaultGrant(emulator))).status).toBe(200);
    const refused = await tokenRequest(emulator, defaultGrant(emulator));
    expect(await read(refused)).toMatchObject({ status: 429, body: { error: 'too_many_requests', error_description: TOO_MANY } });
    expect((await managementRequest(emulator, '/guardian/factors/phone/message-types')).status).toBe(200);
    expect((await managementRequest(emulator, '/guardian/factors/phone/message-types')).status).toBe(429);
    emulator.resetRateLimits();
    expect((await managementRequest(emulator, '/guardian/factors/phone/message-types')).status).toBe(200);
  });

  it('refuses a bucket that is not a positive size', () => {
    expect(() => createTenantEmulator({ rateLimit: { limit: 0 } })).toThrow(RangeError);
    expect(() => createTenantEmulator({ rateLimit: { limit: 1.5 } })).toThrow(RangeError);
    expect(() => createTenantEmulator({ rateLimit: { windowMs: 0 } })).toThrow(RangeError);
  });
});

it('gives concurrent requests each their own X-RateLimit-Remaining, and a success its OK', async () => {
  const emulator = createTenantEmulator({ now: () => 1_700_000_000_000 });
  const get = () => managementRequest(emulator, '/guardian/factors/phone/message-types');
  const responses = await Promise.all([get(), get()]);
  expect(responses.map((response) => response.headers.get('x-ratelimit-remaining')).sort()).toEqual(['998', '999']);
  expect(responses.map((response) => response.statusText)).toEqual(['OK', 'OK']);
});
