import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import * as z from 'zod/mini';
import { TokenResponseSchema } from '../../src/core/tokens/response.js';
import { ActionModuleUsagePageSchema } from '../../src/management/actions/modules.js';
import { PhoneMessageTypesSchema } from '../../src/management/guardian/phone.js';
import { OrganizationInvitationPageSchema, OrganizationInvitationSchema } from '../../src/management/organizations/invitations.js';
import type { Fault } from '../../src/testing/index.js';
import { defaultGrant, emulatorWithClock, managementRequest, read, tokenRequest } from '../helpers/emulator.js';

const PHONE = '/guardian/factors/phone/message-types';
const INVITATIONS = '/organizations/org_small/invitations';
const { emulator, clock } = emulatorWithClock();
const token = await emulator.createAccessToken();
beforeEach(() => emulator.reset());

const phone = (init: RequestInit = {}) => managementRequest(emulator, PHONE, { token, ...init });

describe('faults.next(n, { status: 429 })', () => {
  it('answers 429 with Remaining 0, Reset in the future and Retry-After, n times, then normally', async () => {
    emulator.faults.next(2, { status: 429 });
    for (let index = 0; index < 2; index++) {
      const response = await phone();
      expect(await read(response)).toMatchObject({ status: 429, body: { statusCode: 429, errorCode: 'too_many_requests' } });
      expect(response.headers.get('x-ratelimit-remaining')).toBe('0');
      expect(Number(response.headers.get('x-ratelimit-reset'))).toBe(Math.ceil((clock.now() + 1_000) / 1000));
      expect(Number(response.headers.get('x-ratelimit-reset')) * 1000).toBeGreaterThan(clock.now());
      expect(response.headers.get('retry-after')).toBe('1');
    }
    expect((await phone()).status).toBe(200);
    expect(emulator.faults.pending).toBe(0);
  });

  it('takes retryAfterSeconds, and does not use up the real bucket', async () => {
    emulator.faults.next(1, { status: 429, retryAfterSeconds: 30 });
    const response = await phone();
    expect(response.headers.get('retry-after')).toBe('30');
    expect(Number(response.headers.get('x-ratelimit-reset'))).toBe(Math.ceil((clock.now() + 30_000) / 1000));
    expect((await phone()).headers.get('x-ratelimit-remaining')).toBe('999');
  });

  it('answers the token endpoint in the Authentication API shape', async () => {
    emulator.faults.next(1, { status: 429, path: '/oauth/token' });
    expect(await read(await tokenRequest(emulator, defaultGrant(emulator)))).toMatchObject({
      status: 429,
      body: { error: 'too_many_requests' },
    });
  });
});

describe('faults.next(n, { status: 503 })', () => {
  it('answers 503 with the platform error body, then normally', async () => {
    emulator.faults.next(1, { status: 503 });
    expect(await read(await phone())).toMatchObject({
      status: 503,
      body: { statusCode: 503, error: 'Service Unavailable', errorCode: 'service_unavailable', message: expect.any(String) },
    });
    expect((await phone()).status).toBe(200);
  });

  it('answers 500, 502 and 504 too, and temporarily_unavailable at the token endpoint', async () => {
    for (const status of [500, 502, 504] as const) {
      emulator.faults.next(1, { status });
      expect((await phone()).status).toBe(status);
    }
    emulator.faults.next(1, { status: 503 });
    expect(await read(await tokenRequest(emulator, defaultGrant(emulator)))).toMatchObject({
      status: 503,
      body: { error: 'temporarily_unavailable' },
    });
  });

  it('does not change the data: a faulted PUT is not applied', async () => {
    emulator.faults.next(1, { status: 503, method: 'PUT' });
    const body = JSON.stringify({ message_types: ['voice'] });
    expect((await phone({ method: 'PUT', body, headers: { 'content-type': 'application/json' } })).status).toBe(503);
    expect(emulator.data.phoneMessageTypes).toEqual(['sms']);
  });
});

describe('matching', () => {
  it('applies a fault only to requests of its method and path', async () => {
    emulator.faults.next(1, { status: 503, method: 'put', path: `/api/v2${PHONE}` });
    expect((await phone()).status).toBe(200);
    expect((await managementRequest(emulator, INVITATIONS, { token })).status).toBe(200);
    const put = await phone({ method: 'PUT', body: '{"message_types":[]}', headers: { 'content-type': 'application/json' } });
    expect(put.status).toBe(503);
  });

  it('matches a path prefix ending with * and a RegExp', async () => {
    emulator.faults.next(1, { status: 503, path: '/api/v2/organizations/*' });
    emulator.faults.next(1, { status: 502, path: /\/actions\/modules\/[^/]+\/actions$/ });
    expect((await phone()).status).toBe(200);
    expect((await managementRequest(emulator, '/actions/modules/mod_small/actions', { token })).status).toBe(502);
    expect((await managementRequest(emulator, INVITATIONS, { token })).status).toBe(503);
  });

  it('queues scripts: a request takes the first pending one it matches', async () => {
    emulator.faults.next(1, { status: 429 });
    emulator.faults.next(2, { status: 503 });
    expect(emulator.faults.pending).toBe(3);
    expect([(await phone()).status, (await phone()).status, (await phone()).status, (await phone()).status]).toEqual([429, 503, 503, 200]);
  });

  it('clear() drops pending faults; reset() does too', async () => {
    emulator.faults.next(5, { status: 503 });
    emulator.faults.clear();
    expect((await phone()).status).toBe(200);
    emulator.faults.next(5, { status: 503 });
    emulator.reset();
    expect(emulator.faults.pending).toBe(0);
  });

  it.each([
    [0, { status: 503 }],
    [1.5, { status: 503 }],
    [1, { status: 418 }],
    [1, { delayMs: -1 }],
    [1, { status: 429, retryAfterSeconds: 0 }],
    [1, { malformed: false }],
    [1, {}],
  ])('refuses next(%s, %j)', (count, fault) => {
    expect(() => emulator.faults.next(count, fault as Fault)).toThrow();
  });
});

describe('faults.next(n, { delayMs })', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it('holds the answer until the time has passed, then answers normally (fake timers)', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    emulator.faults.next(1, { delayMs: 60_000 });
    let settled = false;
    const pending = phone().then((response) => {
      settled = true;
      return response;
    });
    await vi.advanceTimersByTimeAsync(59_999);
    expect(settled).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    expect((await pending).status).toBe(200);
  });

  it('gives up when the request is aborted', async () => {
    emulator.faults.next(1, { delayMs: 60_000 });
    const controller = new AbortController();
    const pending = emulator.handle(new Request(`${emulator.origin}/api/v2${PHONE}`, { signal: controller.signal }));
    controller.abort(new Error('caller gave up'));
    await expect(pending).rejects.toThrow('caller gave up');
  });
});

describe('faults.next(n, { malformed: true })', () => {
  const breaks = (schema: { safeParse(value: unknown): { success: boolean } }, body: unknown) =>
    expect(schema.safeParse(body).success).toBe(false);

  it('answers 2xx bodies that break their schemas', async () => {
    emulator.faults.next(5, { malformed: true });
    const list = await read(await managementRequest(emulator, INVITATIONS, { token }));
    expect(list.status).toBe(200);
    breaks(z.array(OrganizationInvitationSchema), list.body);
    breaks(
      OrganizationInvitationPageSchema,
      (await read(await managementRequest(emulator, `${INVITATIONS}?include_totals=true`, { token }))).body,
    );
    breaks(
      ActionModuleUsagePageSchema,
      (await read(await managementRequest(emulator, '/actions/modules/mod_small/actions', { token }))).body,
    );
    const types = await read(await phone());
    expect(types).toMatchObject({ status: 200, body: { message_types: 'not-an-array' } });
    breaks(PhoneMessageTypesSchema, types.body);
    breaks(TokenResponseSchema, (await read(await tokenRequest(emulator, defaultGrant(emulator)))).body);
    expect(emulator.faults.pending).toBe(0);
  });

  it('breaks a list whose first record is empty (a `fields` projection) with a value of the wrong type, not an added property', async () => {
    emulator.faults.next(1, { malformed: true });
    const { body } = await read(await managementRequest(emulator, `${INVITATIONS}?fields=connection_id`, { token }));
    expect((body as unknown[])[0]).toBe('not-an-object');
    breaks(z.array(OrganizationInvitationSchema), body);
  });

  it('breaks an empty list too', async () => {
    emulator.faults.next(1, { malformed: true });
    const { body } = await read(await managementRequest(emulator, '/organizations/org_empty/invitations', { token }));
    breaks(z.array(OrganizationInvitationSchema), body);
  });

  it('sends a given body instead', async () => {
    emulator.faults.next(1, { malformed: true, body: { message_types: ['fax'] } });
    expect(await read(await phone())).toMatchObject({ status: 200, body: { message_types: ['fax'] } });
  });

  it('leaves error responses as they are', async () => {
    emulator.faults.next(1, { malformed: true });
    expect(await read(await managementRequest(emulator, '/organizations/org_nope/invitations', { token }))).toMatchObject({
      status: 404,
      body: { errorCode: 'inexistent_organization' },
    });
  });
});
