import { type Clock, ManagementClient } from 'idplatform/management';
import { createTenantEmulator } from 'idplatform/testing';
import { describe, expect, it } from 'vitest';
import { createFakeClock } from '../helpers/clock.js';

/** A client and an emulator on one fake clock: a sleep of the client moves the emulator's time too. */
function pacedSetup(bucket: { limit: number; windowMs: number }) {
  const clock = createFakeClock(Date.UTC(2030, 0, 1));
  const emulator = createTenantEmulator({ now: clock.now, rateLimit: bucket });
  const management = (extra: { clock?: Clock } = {}) =>
    new ManagementClient({
      baseUrl: `${emulator.origin}/api/v2`,
      ...emulator.credentials,
      fetch: (input, init) => emulator.handle(new Request(input, init)),
      clock,
      ...extra,
    });
  return { clock, emulator, management };
}

describe('ManagementClient pacing (the default in-memory rateLimiter)', () => {
  it('after an outage, the first answer opens the window as the server reports it: the calls that failed are not counted again', async () => {
    const { clock, emulator } = pacedSetup({ limit: 10, windowMs: 60_000 });
    let down = false;
    const outageClient = new ManagementClient({
      baseUrl: `${emulator.origin}/api/v2`,
      ...emulator.credentials,
      fetch: (input, init) => (down ? Promise.reject(new TypeError('fetch failed')) : emulator.handle(new Request(input, init))),
      clock,
      retry: { maxRetries: 0, maxDelayMs: 60_000 }, // no retry, but the limiter's waits
    });
    await outageClient.guardian.phone.getMessageTypes(); // the bucket known: 9 left
    clock.advance(60_000); // that window has passed
    down = true;
    for (let call = 0; call < 15; call++)
      await expect(outageClient.guardian.phone.getMessageTypes()).rejects.toHaveProperty('name', 'NetworkError');
    down = false;
    await outageClient.guardian.phone.getMessageTypes(); // the server: 9 of 10 left in its new window
    clock.sleeps.length = 0;
    for (let call = 0; call < 5; call++) await outageClient.guardian.phone.getMessageTypes();
    expect(clock.sleeps).toEqual([]);
  });

  it('waits for the reset once `remaining` is used up, instead of collecting a 429', async () => {
    const { clock, emulator, management } = pacedSetup({ limit: 3, windowMs: 10_000 });
    const client = management();
    for (let call = 0; call < 5; call++) await client.guardian.phone.getMessageTypes();
    const statuses = emulator.requests.filter((request) => request.path.startsWith('/api/v2/')).map((request) => request.status);
    expect(statuses).toEqual([200, 200, 200, 200, 200]);
    expect(clock.sleeps).toEqual([10_000]);
  });

  it("a call's own retry bounds the wait: `retry: false` never waits, a smaller maxDelayMs sends at once", async () => {
    const { clock, emulator, management } = pacedSetup({ limit: 3, windowMs: 10_000 });
    const client = management();
    for (let call = 0; call < 3; call++) await client.guardian.phone.getMessageTypes();
    await expect(client.guardian.phone.getMessageTypes({ retry: false })).rejects.toMatchObject({ code: 'rate_limited' });
    await expect(client.guardian.phone.getMessageTypes({ retry: { maxRetries: 0, maxDelayMs: 1_000 } })).rejects.toMatchObject({
      code: 'rate_limited',
    });
    expect(clock.sleeps).toEqual([]);
    const statuses = emulator.requests.filter((request) => request.path.startsWith('/api/v2/')).map((request) => request.status);
    expect(statuses).toEqual([200, 200, 200, 429, 429]);
  });

  it('rejects a rateLimiter without wait and update methods, and takes any object that has both', () => {
    const { management } = pacedSetup({ limit: 3, windowMs: 10_000 });
    for (const rateLimiter of [{ wait: () => {} }, { update: () => {} }, { wait: true, update: () => {} }, null, 'redis']) {
      expect(() => management({ rateLimiter } as never)).toThrow(
        '`rateLimiter` must have `wait(key, signal)` and `update(key, rateLimit)` methods',
      );
    }
    expect(() => management({ rateLimiter: { wait: () => {}, update: () => {} } } as never)).not.toThrow();
  });

  it('counts no calls in flight: concurrent calls on a cold client go at once, and the retry loop waits out the 429s that slip through', async () => {
    const { clock, emulator, management } = pacedSetup({ limit: 3, windowMs: 10_000 });
    const client = management();
    const results = await Promise.all(Array.from({ length: 5 }, () => client.guardian.phone.getMessageTypes()));
    expect(results).toHaveLength(5);
    const statuses = emulator.requests.filter((request) => request.path.startsWith('/api/v2/')).map((request) => request.status);
    expect(statuses.slice(0, 5).sort()).toEqual([200, 200, 200, 429, 429]);
    expect(statuses.slice(5)).toEqual([200, 200]);
    expect(clock.sleeps.length).toBeGreaterThan(0);
  });

  it('hands every wait options it cannot change: a limiter that writes to them changes no later call', async () => {
    const { management } = pacedSetup({ limit: 100, windowMs: 10_000 });
    const seen: number[] = [];
    const client = management({
      rateLimiter: {
        // A limiter that writes to its options (the SDK's own bound of the wait for it would follow).
        wait: (_key: string, _signal: AbortSignal | undefined, options: { maxDelayMs: number }) => {
          seen.push(options.maxDelayMs);
          Reflect.set(options, 'maxDelayMs', 0);
        },
        update: () => {},
      },
    } as never);
    await client.guardian.phone.getMessageTypes();
    await client.guardian.phone.getMessageTypes();
    await client.guardian.phone.getMessageTypes({ retry: { maxRetries: 1, maxDelayMs: 5_000 } });
    expect(seen).toEqual([60_000, 60_000, 5_000]);
  });
});
