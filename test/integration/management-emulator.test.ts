/**
 * The real `ManagementClient` against the tenant emulator (`idplatform/testing`),
 * twice: once through msw (`setupServer(...createMswHandlers(emulator))`, the client aimed at
 * the emulator's `domain`) and once through `emulator.listen()` (a real socket on
 * 127.0.0.1, the client aimed at `baseUrl`). Every method, both encodings of the PUT,
 * the iterators' exact request counts (read from `emulator.requests`), scripted
 * faults, scope and token handling, and each client authentication method.
 *
 * The client and the emulator share one fake clock: retries never really sleep, and
 * the emulator's `X-RateLimit-Reset` and token times are on the clock the client reads.
 */
import { exportPKCS8, exportSPKI, generateKeyPair } from 'jose';
import { setupServer } from 'msw/node';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  AuthApiError,
  ForbiddenError,
  InsufficientScopeError,
  ManagementClient,
  type ManagementClientOptions,
  NotFoundError,
  PagingLimitError,
  type RateLimit,
  RateLimitError,
  RequestValidationError,
  ResponseValidationError,
  ServerError,
  TokenRequestError,
  UnauthorizedError,
} from '../../src/management/index.js';
import {
  createTenantEmulator,
  DEFAULT_CLIENT_SCOPES,
  DEFAULT_EMULATOR_ORIGIN,
  type EmulatorRequestRecord,
  SEED_COUNTS,
  SEED_IDS,
  type TenantEmulator,
} from '../../src/testing/index.js';
import { createMswHandlers } from '../../src/testing/msw/index.js';
import { createFakeClock, type FakeClock } from '../helpers/clock.js';

/** 2030-01-01T00:00:00.400Z: deliberately not on a whole second, so `X-RateLimit-Reset` (whole seconds) differs from `Retry-After`. */
const START = Date.UTC(2030, 0, 1, 0, 0, 0, 400);
const PAGING_WINDOW_MESSAGE = 'Requesting page exceeds the allowed maximum of 1000 records';
const PHONE_PATH = '/api/v2/guardian/factors/phone/message-types';

/** Where a client reaches the emulator in one mode. */
interface Connection {
  /** The `domain` or `baseUrl` option of a `ManagementClient`. */
  readonly target: { readonly domain: string } | { readonly baseUrl: string };
  /** The origin requests go to: tokens made with `createAccessToken` must be for it. */
  readonly origin: string;
  close(): Promise<void>;
}

interface Mode {
  readonly name: string;
  connect(emulator: TenantEmulator): Promise<Connection>;
}

const modes: Mode[] = [
  {
    name: 'msw handlers',
    connect: async (emulator) => {
      const server = setupServer(...createMswHandlers(emulator));
      server.listen({ onUnhandledRequest: 'error' });
      return {
        target: { domain: new URL(emulator.origin).host },
        origin: emulator.origin,
        close: async () => server.close(),
      };
    },
  },
  {
    name: 'listen() on 127.0.0.1',
    connect: async (emulator) => {
      const server = await emulator.listen();
      return { target: { baseUrl: `${server.url}/api/v2` }, origin: server.url, close: () => server.close() };
    },
  },
];

/** What left the client, as its `fetch` saw it. */
interface SentRequest {
  readonly method: string;
  readonly url: URL;
  readonly contentType: string | null;
  readonly authorization: string | null;
  readonly body: string;
}

type Authentication = Pick<
  ManagementClientOptions,
  'token' | 'clientId' | 'clientSecret' | 'tokenEndpointAuthMethod' | 'clientAssertionSigningKey' | 'clientAssertionSigningAlg'
>;

/** Drains an async iterator, keeping what it yielded and the error it ended with. */
async function drain<T>(iterator: AsyncIterable<T>): Promise<{ items: T[]; error: unknown }> {
  const items: T[] = [];
  try {
    for await (const item of iterator) items.push(item);
  } catch (error) {
    return { items, error };
  }
  return { items, error: undefined };
}

/** Resolves with what `promise` rejected with; fails when it resolves. */
async function rejection(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  throw new Error('expected the call to fail, but it succeeded');
}

/** The query of a recorded request as a plain object. */
function queryOf(record: EmulatorRequestRecord): Record<string, string> {
  return Object.fromEntries(new URL(record.path, 'http://emulator.invalid').searchParams);
}

function pathnameOf(record: EmulatorRequestRecord): string {
  return new URL(record.path, 'http://emulator.invalid').pathname;
}

describe.each(modes)('ManagementClient against the emulator through $name', (mode) => {
  let clock: FakeClock = createFakeClock(START);
  const emulator = createTenantEmulator({ now: () => clock.now() });
  let connection: Connection;
  const sent: SentRequest[] = [];

  beforeAll(async () => {
    connection = await mode.connect(emulator);
  });
  afterAll(() => connection.close());
  beforeEach(() => {
    clock = createFakeClock(START);
    emulator.reset();
    sent.length = 0;
  });

  const recordingFetch = async (request: Request, init?: RequestInit): Promise<Response> => {
    sent.push({
      method: request.method,
      url: new URL(request.url),
      contentType: request.headers.get('content-type'),
      authorization: request.headers.get('authorization'),
      body: await request.clone().text(),
    });
    return fetch(request, init);
  };

  /** A client aimed at the emulator in this mode, on the shared fake clock, recording what it sends. */
  function client(authentication: Authentication = emulator.credentials, options: Partial<ManagementClientOptions> = {}) {
    return new ManagementClient({
      ...connection.target,
      ...authentication,
      clock,
      fetch: recordingFetch,
      ...options,
    } as ManagementClientOptions);
  }

  /** An access token signed by the emulator for this mode's origin. */
  function accessToken(options: { scopes?: readonly string[]; expiresInSeconds?: number; audience?: string } = {}) {
    return emulator.createAccessToken({ ...options, origin: connection.origin });
  }

  const apiRequests = () => emulator.requests.filter((record) => record.path.startsWith('/api/v2/'));
  const tokenRequests = () => emulator.requests.filter((record) => record.path === '/oauth/token');
  const sentPuts = () => sent.filter((request) => request.method === 'PUT');
  const sentTokenRequests = () => sent.filter((request) => request.url.pathname === '/oauth/token');
  /** Invitations of an organization, newest first: the API's default order (`created_at:-1`). */
  const newestFirst = (organizationId: string) => [...emulator.data.invitations.list(organizationId)].reverse();
  const ids = (records: readonly { id?: string | undefined }[]) => records.map((record) => record.id);

  describe('connection', () => {
    it('aims the client at the emulator: the base URL is its origin plus /api/v2', async () => {
      const management = client();
      expect(management.toJSON()).toEqual({ baseUrl: `${connection.origin}/api/v2` });
      if (mode.name === 'msw handlers') {
        expect(connection.origin).toBe(DEFAULT_EMULATOR_ORIGIN);
        expect(connection.target).toEqual({ domain: emulator.domain });
      } else {
        expect(connection.origin).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
      }
      await management.guardian.phone.getMessageTypes();
      expect(sent.map((request) => request.url.origin)).toEqual([connection.origin, connection.origin]);
      expect(emulator.requests.map(({ method, path, status }) => `${method} ${path} ${status}`)).toEqual([
        'POST /oauth/token 200',
        `GET ${PHONE_PATH} 200`,
      ]);
    });

    it('reports the rate-limit headers of every response through onResponse', async () => {
      const seen: { path: string; status: number; rateLimit: RateLimit | undefined }[] = [];
      const management = client(emulator.credentials, {
        onResponse: ({ path, status, rateLimit }) => seen.push({ path, status, rateLimit }),
      });
      await management.guardian.phone.getMessageTypes();
      await management.guardian.phone.getMessageTypes();
      expect(seen.map(({ path, status }) => [path, status])).toEqual([
        ['/guardian/factors/phone/message-types', 200],
        ['/guardian/factors/phone/message-types', 200],
      ]);
      expect(seen.map(({ rateLimit }) => [rateLimit?.limit, rateLimit?.remaining])).toEqual([
        [1000, 999],
        [1000, 998],
      ]);
      expect(seen[0]?.rateLimit?.reset.getTime()).toBe(Math.ceil((START + 60_000) / 1000) * 1000);
    });
  });

  describe('organizations.invitations.list', () => {
    it('answers an array of the first 50, newest first, by default', async () => {
      const invitations = await client().organizations.invitations.list(SEED_IDS.bigOrganization);
      expect(Array.isArray(invitations)).toBe(true);
      expect(ids(invitations)).toEqual(ids(newestFirst(SEED_IDS.bigOrganization).slice(0, 50)));
      expect(invitations[0]).toEqual(newestFirst(SEED_IDS.bigOrganization)[0]);
      expect(apiRequests()).toHaveLength(1);
    });

    it('answers { start, limit, invitations } with include_totals: true', async () => {
      const invitations = client().organizations.invitations;
      const small = await invitations.list(SEED_IDS.smallOrganization, { include_totals: true });
      expect(small.start).toBe(0);
      expect(small.limit).toBe(50);
      expect(ids(small.invitations)).toEqual(ids(newestFirst(SEED_IDS.smallOrganization)));
      expect(small.invitations).toHaveLength(SEED_COUNTS.smallOrganizationInvitations);

      const page = await invitations.list(SEED_IDS.mediumOrganization, { include_totals: true, page: 2, per_page: 30 });
      expect({ start: page.start, limit: page.limit }).toEqual({ start: 60, limit: 30 });
      expect(ids(page.invitations)).toEqual(ids(newestFirst(SEED_IDS.mediumOrganization).slice(60, 90)));
      expect(queryOf(apiRequests()[1] as EmulatorRequestRecord)).toEqual({ include_totals: 'true', page: '2', per_page: '30' });
    });

    it('answers a plain array with include_totals: false', async () => {
      const invitations = await client().organizations.invitations.list(SEED_IDS.smallOrganization, { include_totals: false });
      expect(ids(invitations)).toEqual(ids(newestFirst(SEED_IDS.smallOrganization)));
      expect(queryOf(apiRequests()[0] as EmulatorRequestRecord)).toEqual({ include_totals: 'false' });
    });

    it('returns only the listed fields with fields + include_fields: true', async () => {
      const invitations = await client().organizations.invitations.list(SEED_IDS.mediumOrganization, {
        fields: 'id,invitee',
        include_fields: true,
        per_page: 20,
      });
      expect(invitations).toHaveLength(20);
      for (const invitation of invitations) expect(Object.keys(invitation).sort()).toEqual(['id', 'invitee']);
      expect(invitations[0]).toEqual({
        id: newestFirst(SEED_IDS.mediumOrganization)[0]?.id,
        invitee: newestFirst(SEED_IDS.mediumOrganization)[0]?.invitee,
      });
      expect(queryOf(apiRequests()[0] as EmulatorRequestRecord)).toMatchObject({ fields: 'id,invitee', include_fields: 'true' });
    });

    it('leaves the listed fields out with include_fields: false', async () => {
      const invitations = await client().organizations.invitations.list(SEED_IDS.smallOrganization, {
        fields: 'id,invitee',
        include_fields: false,
      });
      expect(invitations).toHaveLength(SEED_COUNTS.smallOrganizationInvitations);
      for (const invitation of invitations) {
        expect(invitation).not.toHaveProperty('id');
        expect(invitation).not.toHaveProperty('invitee');
        expect(invitation).toHaveProperty('created_at');
        expect(invitation).toHaveProperty('organization_id', SEED_IDS.smallOrganization);
      }
    });

    it('sorts ascending with field:1 and descending with field:-1', async () => {
      const invitations = client().organizations.invitations;
      const oldestFirst = emulator.data.invitations.list(SEED_IDS.bigOrganization);
      const ascending = await invitations.list(SEED_IDS.bigOrganization, { sort: 'created_at:1', per_page: 25 });
      const descending = await invitations.list(SEED_IDS.bigOrganization, { sort: 'created_at:-1', per_page: 25 });
      expect(ids(ascending)).toEqual(ids(oldestFirst.slice(0, 25)));
      expect(ids(descending)).toEqual(ids(newestFirst(SEED_IDS.bigOrganization).slice(0, 25)));

      const byEmail = await invitations.list(SEED_IDS.smallOrganization, { sort: 'invitee.email:1' });
      const emails = byEmail.map((invitation) => invitation.invitee?.email ?? '');
      expect(emails).toEqual([...emails].sort());
      expect(apiRequests().map((record) => queryOf(record).sort)).toEqual(['created_at:1', 'created_at:-1', 'invitee.email:1']);
    });

    it('throws NotFoundError with the emulator message for an unknown organization', async () => {
      const error = await rejection(client().organizations.invitations.list('org_unknown'));
      expect(error).toBeInstanceOf(NotFoundError);
      expect(error).toMatchObject({
        status: 404,
        message: 'No organization found by that id',
        errorCode: 'inexistent_organization',
        method: 'GET',
        path: '/organizations/org_unknown/invitations',
      });
      expect(apiRequests().map((record) => record.status)).toEqual([404]);
    });

    it('percent-encodes the organization id: "a/b" reaches the emulator as one id, not as a path', async () => {
      const error = await rejection(client().organizations.invitations.list('a/b'));
      expect(error).toBeInstanceOf(NotFoundError);
      expect(error).toMatchObject({ errorCode: 'inexistent_organization', path: '/organizations/a%2Fb/invitations' });
      expect(apiRequests().map(pathnameOf)).toEqual(['/api/v2/organizations/a%2Fb/invitations']);
    });

    it('refuses a page past the 1000-record window on the client, with the server message and no request', async () => {
      const management = client();
      const error = await rejection(management.organizations.invitations.list(SEED_IDS.bigOrganization, { page: 20 }));
      expect(error).toBeInstanceOf(RequestValidationError);
      const { issues } = error as RequestValidationError;
      expect(issues).toEqual([expect.objectContaining({ path: ['page'], message: PAGING_WINDOW_MESSAGE })]);
      expect(
        await rejection(management.organizations.invitations.list(SEED_IDS.bigOrganization, { page: 10, per_page: 100 })),
      ).toBeInstanceOf(RequestValidationError);
      expect(emulator.requests).toEqual([]);
      expect(sent).toEqual([]);

      // The server gives the same explanation for the same page.
      const response = await emulator.handle(
        new Request(`${emulator.origin}/api/v2/organizations/${SEED_IDS.bigOrganization}/invitations?page=20`, {
          headers: { authorization: `Bearer ${await emulator.createAccessToken()}` },
        }),
      );
      expect(response.status).toBe(400);
      expect(await response.json()).toMatchObject({ message: issues[0]?.message, errorCode: 'invalid_paging' });
    });

    it('reads the last page inside the window', async () => {
      const invitations = await client().organizations.invitations.list(SEED_IDS.bigOrganization, { page: 9, per_page: 100 });
      expect(ids(invitations)).toEqual(ids(newestFirst(SEED_IDS.bigOrganization).slice(900, 1000)));
    });

    it('refuses other broken rules on the client with no request', async () => {
      const invitations = client().organizations.invitations;
      const broken = [
        invitations.list('o'.repeat(51)),
        invitations.list(''),
        invitations.list(SEED_IDS.smallOrganization, { per_page: 101 }),
        invitations.list(SEED_IDS.smallOrganization, { page: -1 }),
        // @ts-expect-error the type refuses a sort without :1 / :-1 too; the run-time check is tested here
        invitations.list(SEED_IDS.smallOrganization, { sort: 'created_at' }),
        invitations.list(SEED_IDS.smallOrganization, { fields: 'id,nope' }),
      ];
      for (const call of broken) expect(await rejection(call)).toBeInstanceOf(RequestValidationError);
      expect(emulator.requests).toEqual([]);
    });
  });

  describe('organizations.invitations.iterate', () => {
    it('yields the 1000 reachable records of the big organization, then throws PagingLimitError (21 requests)', async () => {
      const { items, error } = await drain(client().organizations.invitations.iterate(SEED_IDS.bigOrganization));
      expect(items).toHaveLength(1000);
      expect(ids(items)).toEqual(ids(newestFirst(SEED_IDS.bigOrganization).slice(0, 1000)));
      expect(new Set(ids(items)).size).toBe(1000);
      expect(error).toBeInstanceOf(PagingLimitError);
      expect(error).toMatchObject({ reachable: 1000 });

      // 20 pages of 50, then the last 100 records (the reverse order) to learn that more lie past the window.
      const requests = apiRequests();
      expect(requests).toHaveLength(21);
      expect(requests.every((record) => record.status === 200)).toBe(true);
      // Pages ask include_totals=true: the answer's `limit` tells a capped page from the last one.
      expect(requests.slice(0, 20).map(queryOf)).toEqual(
        Array.from({ length: 20 }, (_, page) => ({ page: String(page), per_page: '50', include_totals: 'true' })),
      );
      expect(queryOf(requests[20] as EmulatorRequestRecord)).toEqual({
        sort: 'created_at:1',
        page: '0',
        per_page: '100',
        fields: 'id,created_at',
        include_totals: 'true',
      });
      expect(tokenRequests()).toHaveLength(1);
      expect(emulator.requests).toHaveLength(22);
    });

    it("stops quietly at the window with onLimit: 'stop' (20 requests, no look past it)", async () => {
      const { items, error } = await drain(client().organizations.invitations.iterate(SEED_IDS.bigOrganization, { onLimit: 'stop' }));
      expect(error).toBeUndefined();
      expect(items).toHaveLength(1000);
      expect(apiRequests()).toHaveLength(20);
    });

    it('reaches all 1000 records when per_page does not divide the window (33 pages of 30, one of 10, one look)', async () => {
      const { items, error } = await drain(client().organizations.invitations.iterate(SEED_IDS.bigOrganization, { per_page: 30 }));
      expect(error).toBeInstanceOf(PagingLimitError);
      expect(ids(items)).toEqual(ids(newestFirst(SEED_IDS.bigOrganization).slice(0, 1000)));
      const pages = apiRequests().map(queryOf);
      expect(pages).toHaveLength(35);
      expect(pages[32]).toEqual({ page: '32', per_page: '30', include_totals: 'true' });
      expect(pages[33]).toEqual({ page: '99', per_page: '10', include_totals: 'true' });
      expect(apiRequests().every((record) => record.status === 200)).toBe(true);
    });

    it('ends without PagingLimitError when exactly 1000 records exist, and throws at 1001', async () => {
      emulator.data.organizations.add('org_1000', { invitations: Array.from({ length: 1000 }, () => ({})) });
      const management = client();
      const exact = await drain(management.organizations.invitations.iterate('org_1000', { per_page: 100 }));
      expect(exact.error).toBeUndefined();
      expect(new Set(ids(exact.items)).size).toBe(1000);
      // 10 pages, then one look past the window that finds the last record already yielded.
      expect(apiRequests()).toHaveLength(11);

      emulator.data.invitations.add('org_1000', {});
      const over = await drain(management.organizations.invitations.iterate('org_1000', { per_page: 100 }));
      expect(over.items).toHaveLength(1000);
      expect(over.error).toBeInstanceOf(PagingLimitError);
    });

    it('iterates a small organization in one request', async () => {
      const { items, error } = await drain(client().organizations.invitations.iterate(SEED_IDS.smallOrganization));
      expect(error).toBeUndefined();
      expect(ids(items)).toEqual(ids(newestFirst(SEED_IDS.smallOrganization)));
      expect(items).toHaveLength(SEED_COUNTS.smallOrganizationInvitations);
      expect(apiRequests()).toHaveLength(1);
    });

    it('iterates the medium organization with exact request counts', async () => {
      const management = client();
      const byHundred = await drain(management.organizations.invitations.iterate(SEED_IDS.mediumOrganization, { per_page: 100 }));
      expect(byHundred.error).toBeUndefined();
      expect(ids(byHundred.items)).toEqual(ids(newestFirst(SEED_IDS.mediumOrganization)));
      expect(apiRequests().map(queryOf)).toEqual([
        { page: '0', per_page: '100', include_totals: 'true' },
        { page: '1', per_page: '100', include_totals: 'true' },
        { page: '2', per_page: '100', include_totals: 'true' },
      ]);

      // 240 = 4 × 60 and the invitation list carries no total: a fifth (empty) page is the only way to learn the end.
      emulator.reset();
      const bySixty = await drain(management.organizations.invitations.iterate(SEED_IDS.mediumOrganization, { per_page: 60 }));
      expect(bySixty.items).toHaveLength(SEED_COUNTS.mediumOrganizationInvitations);
      expect(apiRequests().map((record) => queryOf(record).page)).toEqual(['0', '1', '2', '3', '4']);
    });

    it('passes fields and sort to every page', async () => {
      const { items } = await drain(
        client().organizations.invitations.iterate(SEED_IDS.mediumOrganization, { per_page: 100, sort: 'created_at:1', fields: 'id' }),
      );
      expect(items).toEqual(emulator.data.invitations.list(SEED_IDS.mediumOrganization).map(({ id }) => ({ id })));
      for (const record of apiRequests()) expect(queryOf(record)).toMatchObject({ sort: 'created_at:1', fields: 'id' });
    });

    it('is lazy: five records of the big organization cost one request', async () => {
      const iterator = client().organizations.invitations.iterate(SEED_IDS.bigOrganization);
      expect(emulator.requests).toEqual([]);
      const taken: unknown[] = [];
      for await (const invitation of iterator) {
        taken.push(invitation);
        if (taken.length === 5) break;
      }
      expect(apiRequests()).toHaveLength(1);
    });

    it('rejects with NotFoundError for an unknown organization', async () => {
      const { items, error } = await drain(client().organizations.invitations.iterate('org_unknown'));
      expect(items).toEqual([]);
      expect(error).toBeInstanceOf(NotFoundError);
      expect(apiRequests()).toHaveLength(1);
    });
  });

  describe('actions.modules', () => {
    const usages = () => emulator.data.actions.list(SEED_IDS.sharedModule);

    it('lists a page of the actions that use a module', async () => {
      const modules = client().actions.modules;
      const first = await modules.listActions(SEED_IDS.sharedModule);
      expect(first).toEqual({ actions: usages().slice(0, 50), total: SEED_COUNTS.sharedModuleActions, page: 0, per_page: 50 });
      const last = await modules.listActions(SEED_IDS.sharedModule, { page: 2, per_page: 50 });
      expect(last).toEqual({ actions: usages().slice(100), total: 130, page: 2, per_page: 50 });
      expect(last.actions).toHaveLength(30);
      expect(queryOf(apiRequests()[1] as EmulatorRequestRecord)).toEqual({ page: '2', per_page: '50' });
    });

    it('iterates the 130 actions of mod_shared in exactly 3 requests of 50 (no empty extra request)', async () => {
      const { items, error } = await drain(client().actions.modules.iterateActions(SEED_IDS.sharedModule, { per_page: 50 }));
      expect(error).toBeUndefined();
      expect(items).toEqual(usages());
      expect(items).toHaveLength(SEED_COUNTS.sharedModuleActions);
      expect(apiRequests().map(queryOf)).toEqual([
        { page: '0', per_page: '50' },
        { page: '1', per_page: '50' },
        { page: '2', per_page: '50' },
      ]);
    });

    it('stops once total records were yielded: 130 in 2 requests of 65', async () => {
      const { items } = await drain(client().actions.modules.iterateActions(SEED_IDS.sharedModule, { per_page: 65 }));
      expect(items).toEqual(usages());
      expect(apiRequests()).toHaveLength(2);
    });

    it('uses 50 per page by default', async () => {
      const { items } = await drain(client().actions.modules.iterateActions(SEED_IDS.sharedModule));
      expect(items).toHaveLength(130);
      expect(apiRequests().map((record) => queryOf(record).per_page)).toEqual(['50', '50', '50']);
    });

    it('iterates a small module and an unused one in one request each', async () => {
      const modules = client().actions.modules;
      expect(await drain(modules.iterateActions(SEED_IDS.smallModule))).toEqual({
        items: emulator.data.actions.list(SEED_IDS.smallModule),
        error: undefined,
      });
      expect((await drain(modules.iterateActions(SEED_IDS.unusedModule))).items).toEqual([]);
      expect(apiRequests().map(pathnameOf)).toEqual([
        `/api/v2/actions/modules/${SEED_IDS.smallModule}/actions`,
        `/api/v2/actions/modules/${SEED_IDS.unusedModule}/actions`,
      ]);
    });

    it('is lazy: one action costs one request', async () => {
      const iterator = client().actions.modules.iterateActions(SEED_IDS.sharedModule, { per_page: 10 });
      const first = await iterator.next();
      expect(first).toEqual({ done: false, value: usages()[0] });
      expect(apiRequests()).toHaveLength(1);
    });

    it('throws NotFoundError for an unknown module, from the list and from the iterator', async () => {
      const modules = client().actions.modules;
      const error = await rejection(modules.listActions('mod_unknown'));
      expect(error).toBeInstanceOf(NotFoundError);
      expect(error).toMatchObject({
        status: 404,
        message: 'No module found by that id',
        errorCode: 'inexistent_module',
        path: '/actions/modules/mod_unknown/actions',
      });
      const iterated = await drain(modules.iterateActions('mod_unknown'));
      expect(iterated.error).toBeInstanceOf(NotFoundError);
      expect(apiRequests().map((record) => record.status)).toEqual([404, 404]);
    });

    it('percent-encodes the module id and refuses broken parameters with no request', async () => {
      const modules = client().actions.modules;
      expect(await rejection(modules.listActions('..'))).toBeInstanceOf(RequestValidationError);
      expect(await rejection(modules.listActions(''))).toBeInstanceOf(RequestValidationError);
      expect(await rejection(modules.listActions(SEED_IDS.sharedModule, { per_page: 0 }))).toBeInstanceOf(RequestValidationError);
      expect(() => modules.iterateActions(SEED_IDS.sharedModule, { per_page: 101 })).toThrow(RequestValidationError);
      expect(emulator.requests).toEqual([]);

      expect(await rejection(modules.listActions('mod shared/x'))).toBeInstanceOf(NotFoundError);
      expect(apiRequests().map(pathnameOf)).toEqual(['/api/v2/actions/modules/mod%20shared%2Fx/actions']);
    });
  });

  describe('guardian.phone', () => {
    it('reads the seeded message types', async () => {
      expect(await client().guardian.phone.getMessageTypes()).toEqual({ message_types: ['sms'] });
      expect(apiRequests().map(({ method, status }) => [method, status])).toEqual([['GET', 200]]);
    });

    it('replaces them with a JSON body by default', async () => {
      const phone = client().guardian.phone;
      expect(await phone.setMessageTypes({ message_types: ['sms', 'voice'] })).toEqual({ message_types: ['sms', 'voice'] });
      expect(emulator.data.phoneMessageTypes).toEqual(['sms', 'voice']);
      expect(await phone.getMessageTypes()).toEqual({ message_types: ['sms', 'voice'] });
      const [put] = sentPuts();
      expect(put?.contentType).toMatch(/^application\/json\b/);
      expect(JSON.parse(put?.body ?? '')).toEqual({ message_types: ['sms', 'voice'] });
      expect(apiRequests().map(({ method, status }) => `${method} ${status}`)).toEqual(['PUT 200', 'GET 200']);
    });

    it("replaces them with a form body with { encoding: 'form' }", async () => {
      const phone = client().guardian.phone;
      expect(await phone.setMessageTypes({ message_types: ['voice', 'sms'] }, { encoding: 'form' })).toEqual({
        message_types: ['voice', 'sms'],
      });
      expect(emulator.data.phoneMessageTypes).toEqual(['voice', 'sms']);
      const [put] = sentPuts();
      expect(put?.contentType).toMatch(/^application\/x-www-form-urlencoded\b/);
      expect(put?.body).toBe('message_types=voice&message_types=sms');

      expect(await phone.setMessageTypes({ message_types: ['voice'] }, { encoding: 'json' })).toEqual({ message_types: ['voice'] });
      expect(sentPuts()[1]?.contentType).toMatch(/^application\/json\b/);
      expect(emulator.data.phoneMessageTypes).toEqual(['voice']);
    });

    it.each(['json', 'form'] as const)('accepts an empty list (%s), which disables both', async (encoding) => {
      emulator.data.phoneMessageTypes = ['sms', 'voice'];
      const phone = client().guardian.phone;
      expect(await phone.setMessageTypes({ message_types: [] }, { encoding })).toEqual({ message_types: [] });
      expect(emulator.data.phoneMessageTypes).toEqual([]);
      expect(await phone.getMessageTypes()).toEqual({ message_types: [] });
      expect(sentPuts()[0]?.body).toBe(encoding === 'json' ? '{"message_types":[]}' : 'message_types=');
    });

    it.each(['json', 'form'] as const)('refuses duplicates and unknown types on the client (%s), with no request', async (encoding) => {
      const phone = client().guardian.phone;
      expect(await rejection(phone.setMessageTypes({ message_types: ['sms', 'sms'] }, { encoding }))).toBeInstanceOf(
        RequestValidationError,
      );
      expect(
        await rejection(phone.setMessageTypes({ message_types: ['sms', 'email'] as unknown as ['sms'] }, { encoding })),
      ).toBeInstanceOf(RequestValidationError);
      expect(emulator.requests).toEqual([]);
      expect(sent).toEqual([]);
      expect(emulator.data.phoneMessageTypes).toEqual(['sms']);
    });
  });

  describe('scripted faults', () => {
    it('retries a 429, waiting until X-RateLimit-Reset (not only Retry-After), on the fake clock', async () => {
      emulator.faults.next(1, { status: 429, retryAfterSeconds: 2, method: 'GET', path: PHONE_PATH });
      const responses: { status: number; rateLimit: RateLimit | undefined }[] = [];
      const management = client(emulator.credentials, { onResponse: ({ status, rateLimit }) => responses.push({ status, rateLimit }) });

      expect(await management.guardian.phone.getMessageTypes()).toEqual({ message_types: ['sms'] });

      expect(responses.map(({ status }) => status)).toEqual([429, 200]);
      const reset = responses[0]?.rateLimit?.reset.getTime() ?? Number.NaN;
      // Retry-After says 2 s; the reset header, in whole seconds, is 2.6 s away from START.
      expect(reset).toBe(Math.ceil((START + 2000) / 1000) * 1000);
      expect(reset - START).toBe(2600);
      expect(responses[0]?.rateLimit?.remaining).toBe(0);
      expect(clock.sleeps).toHaveLength(1);
      expect(clock.sleeps[0]).toBeGreaterThanOrEqual(2600);
      expect(clock.sleeps[0]).toBeLessThan(2600 + 250);
      expect(clock.now()).toBeGreaterThanOrEqual(reset);
      expect(apiRequests().map(({ method, status }) => `${method} ${status}`)).toEqual(['GET 429', 'GET 200']);
    });

    it('retries a 429 on the PUT too', async () => {
      emulator.faults.next(1, { status: 429, method: 'PUT', path: PHONE_PATH });
      const result = await client().guardian.phone.setMessageTypes({ message_types: ['voice'] }, { encoding: 'form' });
      expect(result).toEqual({ message_types: ['voice'] });
      expect(apiRequests().map(({ method, status }) => `${method} ${status}`)).toEqual(['PUT 429', 'PUT 200']);
      expect(sentPuts().map((request) => request.body)).toEqual(['message_types=voice', 'message_types=voice']);
      expect(clock.sleeps).toHaveLength(1);
    });

    it('throws RateLimitError at once when the reset is further away than maxDelayMs', async () => {
      emulator.faults.next(1, { status: 429, retryAfterSeconds: 30, path: '/api/v2/*' });
      const error = await rejection(
        client(emulator.credentials, { retry: { maxDelayMs: 5_000 } }).actions.modules.listActions('mod_small'),
      );
      expect(error).toBeInstanceOf(RateLimitError);
      expect((error as RateLimitError).rateLimit?.reset.getTime()).toBe(Math.ceil((START + 30_000) / 1000) * 1000);
      expect(clock.sleeps).toEqual([]);
      expect(apiRequests()).toHaveLength(1);
    });

    it('retries a 503 on a GET with backoff on the fake clock', async () => {
      emulator.faults.next(2, { status: 503, method: 'GET', path: '/api/v2/organizations/*' });
      const invitations = await client().organizations.invitations.list(SEED_IDS.smallOrganization);
      expect(invitations).toHaveLength(SEED_COUNTS.smallOrganizationInvitations);
      expect(apiRequests().map((record) => record.status)).toEqual([503, 503, 200]);
      expect(clock.sleeps).toHaveLength(2);
      expect(clock.sleeps[0]).toBeGreaterThanOrEqual(250);
      expect(clock.sleeps[0]).toBeLessThanOrEqual(500);
      expect(clock.sleeps[1]).toBeGreaterThanOrEqual(500);
      expect(clock.sleeps[1]).toBeLessThanOrEqual(1000);
    });

    it('gives up on 503 after maxRetries with ServerError', async () => {
      emulator.faults.next(5, { status: 503, method: 'GET', path: PHONE_PATH });
      const error = await rejection(client(emulator.credentials, { retry: { maxRetries: 2 } }).guardian.phone.getMessageTypes());
      expect(error).toBeInstanceOf(ServerError);
      expect(error).toMatchObject({ status: 503, errorCode: 'service_unavailable' });
      expect(apiRequests().map((record) => record.status)).toEqual([503, 503, 503]);
    });

    it('throws ResponseValidationError for a malformed body, without retrying', async () => {
      emulator.faults.next(1, { malformed: true, path: PHONE_PATH });
      const error = await rejection(client().guardian.phone.getMessageTypes());
      expect(error).toBeInstanceOf(ResponseValidationError);
      expect((error as ResponseValidationError).body).toEqual({ message_types: 'not-an-array' });
      expect((error as ResponseValidationError).issues[0]?.path).toEqual(['message_types']);
      expect(apiRequests()).toHaveLength(1);
    });

    it('throws ResponseValidationError for malformed invitation and action pages', async () => {
      const management = client();
      emulator.faults.next(1, { malformed: true, path: '/api/v2/organizations/*' });
      const invitations = await rejection(management.organizations.invitations.list(SEED_IDS.smallOrganization));
      expect(invitations).toBeInstanceOf(ResponseValidationError);
      expect((invitations as ResponseValidationError).issues[0]?.path).toEqual([0, 'id']);

      emulator.faults.next(1, { malformed: true, path: '/api/v2/actions/*', body: { actions: [], total: 'many', page: 0, per_page: 50 } });
      const actions = await rejection(management.actions.modules.listActions(SEED_IDS.sharedModule));
      expect(actions).toBeInstanceOf(ResponseValidationError);
      expect((actions as ResponseValidationError).issues[0]?.path).toEqual(['total']);
    });
  });

  describe('tokens and scopes', () => {
    it('throws InsufficientScopeError before sending when the token lacks the scope', async () => {
      const token = await accessToken({ scopes: ['read:actions'] });
      const management = client({ token });
      const error = await rejection(management.organizations.invitations.list(SEED_IDS.smallOrganization));
      expect(error).toBeInstanceOf(InsufficientScopeError);
      expect(error).toMatchObject({ required: 'read:organization_invitations', granted: ['read:actions'] });
      expect(emulator.requests).toEqual([]);
      expect(sent).toEqual([]);

      // The same token is good for what it grants.
      expect((await management.actions.modules.listActions(SEED_IDS.smallModule)).total).toBe(SEED_COUNTS.smallModuleActions);
      expect(apiRequests().map((record) => record.status)).toEqual([200]);
    });

    it('checks the scopes of a client-credentials token too: only the token request is sent', async () => {
      const narrow = emulator.registerClient({ clientId: 'narrow-client', clientSecret: 'narrow-secret', scopes: ['read:actions'] });
      const error = await rejection(client(narrow).organizations.invitations.list(SEED_IDS.smallOrganization));
      expect(error).toBeInstanceOf(InsufficientScopeError);
      expect(error).toMatchObject({ required: 'read:organization_invitations', granted: ['read:actions'] });
      expect(emulator.requests.map(({ method, path, status }) => `${method} ${path} ${status}`)).toEqual(['POST /oauth/token 200']);
    });

    it('leaves scopes the spec does not document to the server: a 403 from the emulator', async () => {
      const narrow = emulator.registerClient({ clientId: 'narrow-client', clientSecret: 'narrow-secret', scopes: ['read:actions'] });
      const error = await rejection(client(narrow).guardian.phone.getMessageTypes());
      expect(error).toBeInstanceOf(ForbiddenError);
      expect(error).toMatchObject({
        status: 403,
        errorCode: 'insufficient_scope',
        message: 'Insufficient scope, expected any of: read:guardian_factors',
      });
    });

    it('surfaces the emulator 401 for an expired token as UnauthorizedError (a caller token is not replayed)', async () => {
      const token = await accessToken({ expiresInSeconds: -60 });
      const error = await rejection(client({ token }).organizations.invitations.list(SEED_IDS.smallOrganization));
      expect(error).toBeInstanceOf(UnauthorizedError);
      expect(error).toMatchObject({ status: 401, message: 'Expired token', errorCode: 'invalid_token' });
      expect(apiRequests().map((record) => record.status)).toEqual([401]);
    });

    it('surfaces a token for another API as UnauthorizedError', async () => {
      const token = await accessToken({ audience: 'https://elsewhere.example/api/v2/' });
      const error = await rejection(client({ token }).guardian.phone.getMessageTypes());
      expect(error).toBeInstanceOf(UnauthorizedError);
      expect(error).toMatchObject({ message: 'Bad audience' });
    });

    it('replays a request once with a fresh token when the emulator refuses a cached client-credentials token', async () => {
      const stale = await accessToken({ expiresInSeconds: -60 });
      const stored = new Map<string, string>();
      const tokenCache = {
        get: (key: string) => stored.get(key) ?? stale,
        set: (key: string, token: string) => void stored.set(key, token),
      };
      const management = client(emulator.credentials, { tokenCache });
      expect(await management.guardian.phone.getMessageTypes()).toEqual({ message_types: ['sms'] });
      expect(emulator.requests.map(({ method, path, status }) => `${method} ${path} ${status}`)).toEqual([
        `GET ${PHONE_PATH} 401`,
        'POST /oauth/token 200',
        `GET ${PHONE_PATH} 200`,
      ]);
      expect([...stored.values()]).toHaveLength(1);
      expect([...stored.values()]).not.toContain(stale);
    });

    it('works with a caller token from a function', async () => {
      const token = await accessToken({ scopes: DEFAULT_CLIENT_SCOPES });
      const management = client({ token: async () => token });
      expect(await management.guardian.phone.getMessageTypes()).toEqual({ message_types: ['sms'] });
      expect(tokenRequests()).toEqual([]);
      expect(sent[0]?.authorization).toBe(`Bearer ${token}`);
    });
  });

  describe('client authentication at the token endpoint', () => {
    it('uses client_secret_post by default', async () => {
      await client().guardian.phone.getMessageTypes();
      const [tokenRequest] = sentTokenRequests();
      expect(tokenRequest?.authorization).toBeNull();
      expect(tokenRequest?.contentType).toMatch(/^application\/x-www-form-urlencoded\b/);
      expect(Object.fromEntries(new URLSearchParams(tokenRequest?.body))).toEqual({
        grant_type: 'client_credentials',
        audience: `${connection.origin}/api/v2/`,
        client_id: emulator.credentials.clientId,
        client_secret: emulator.credentials.clientSecret,
      });
      expect(tokenRequests().map((record) => record.status)).toEqual([200]);
    });

    it('authenticates with client_secret_basic at a client registered for Basic only', async () => {
      const credentials = emulator.registerClient({
        clientId: 'basic-client',
        clientSecret: 'basic:secret/with+specials',
        scopes: DEFAULT_CLIENT_SCOPES,
        tokenEndpointAuthMethod: 'client_secret_basic',
      });
      const management = client({ ...credentials, tokenEndpointAuthMethod: 'client_secret_basic' });
      expect(await management.guardian.phone.getMessageTypes()).toEqual({ message_types: ['sms'] });
      const [tokenRequest] = sentTokenRequests();
      expect(tokenRequest?.authorization).toMatch(/^Basic /);
      expect(new URLSearchParams(tokenRequest?.body).has('client_secret')).toBe(false);

      // The emulator refuses the other secret method for this client.
      const error = await rejection(
        client({ ...credentials, tokenEndpointAuthMethod: 'client_secret_post' }).guardian.phone.getMessageTypes(),
      );
      expect(error).toBeInstanceOf(TokenRequestError);
      const cause = (error as TokenRequestError).cause;
      expect(cause).toBeInstanceOf(AuthApiError);
      expect(cause).toMatchObject({ status: 401, error: 'invalid_client' });
      expect(JSON.stringify((error as TokenRequestError).toJSON())).not.toContain(credentials.clientSecret);
    });

    it('authenticates with private_key_jwt at a client registered with a public key', async () => {
      const { privateKey, publicKey } = await generateKeyPair('RS256', { extractable: true });
      emulator.registerClient({ clientId: 'key-client', publicKey: await exportSPKI(publicKey), scopes: DEFAULT_CLIENT_SCOPES });
      const management = client({ clientId: 'key-client', clientAssertionSigningKey: await exportPKCS8(privateKey) });

      const { items } = await drain(management.organizations.invitations.iterate(SEED_IDS.smallOrganization));
      expect(items).toHaveLength(SEED_COUNTS.smallOrganizationInvitations);
      const [tokenRequest] = sentTokenRequests();
      const params = new URLSearchParams(tokenRequest?.body);
      expect(params.get('client_id')).toBe('key-client');
      expect(params.get('client_assertion_type')).toBe('urn:ietf:params:oauth:client-assertion-type:jwt-bearer');
      expect(params.get('client_assertion')).toMatch(/^[\w-]+\.[\w-]+\.[\w-]+$/);
      expect(params.has('client_secret')).toBe(false);
      expect(tokenRequests().map((record) => record.status)).toEqual([200]);

      // An assertion signed with another key is refused.
      const other = await generateKeyPair('RS256', { extractable: true });
      const error = await rejection(
        client({ clientId: 'key-client', clientAssertionSigningKey: await exportPKCS8(other.privateKey) }).guardian.phone.getMessageTypes(),
      );
      expect(error).toBeInstanceOf(TokenRequestError);
      expect((error as TokenRequestError).cause).toMatchObject({ status: 401, error: 'invalid_client' });
    });

    it('makes exactly one token request for 100 concurrent calls on a cold client', async () => {
      const management = client();
      const results = await Promise.all(Array.from({ length: 100 }, () => management.guardian.phone.getMessageTypes()));
      expect(results.every((result) => result.message_types.join() === 'sms')).toBe(true);
      expect(tokenRequests()).toHaveLength(1);
      expect(apiRequests()).toHaveLength(100);
      expect(emulator.requests).toHaveLength(101);
    });
  });
});
