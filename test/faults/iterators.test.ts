import { type IdPlatformError, type ManagementClient, type PagingProgress, ResponseValidationError } from 'idplatform/management';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type Behaviour, type FaultServer, json, startFaultServer } from '../helpers/fault-server.js';
import {
  actions,
  collect,
  echoError,
  invitations,
  MODULE,
  matrixClient,
  newTenantState,
  ORG,
  recordingClock,
  type TenantState,
  tenant,
} from './tenant.js';

/** Iterators under faults: every record exactly once, in order, or an error saying how far it got. */

let server: FaultServer;
let state: TenantState;
let client: ManagementClient;
beforeAll(async () => {
  state = newTenantState();
  server = await startFaultServer((context) => tenant(state)(context));
});
beforeEach(() => {
  server.reset();
  state.issued.length = 0;
  client = matrixClient(server, recordingClock().clock);
});
afterAll(() => server.close());

const INVITATIONS = `/api/v2/organizations/${ORG}/invitations`;
const ACTIONS = `/api/v2/actions/modules/${MODULE}/actions`;
const iterators: Record<'invitations' | 'actions', (perPage: number) => AsyncIterable<unknown>> = {
  invitations: (perPage: number) => client.organizations.invitations.iterate(ORG, { per_page: perPage, onLimit: 'stop' }),
  actions: (perPage: number) => client.actions.modules.iterateActions(MODULE, { per_page: perPage }),
};
const records = { invitations, actions };
const paths = { invitations: INVITATIONS, actions: ACTIONS };
const kinds = ['invitations', 'actions'] as const;

/** Lets `skip` requests to `path` through, then queues `behaviours`. */
function afterRequests(path: string, skip: number, ...behaviours: Behaviour[]) {
  const pass: Behaviour = (context) => tenant(state)(context);
  server.next(path, ...Array.from({ length: skip }, () => pass), ...behaviours);
}
const echoing =
  (status: number, headers: Record<string, string> = {}): Behaviour =>
  (context) =>
    echoError(status, context.request, headers)(context);

/** A server that ignores `per_page` and answers pages of `size` (a proxy, a fixed page size). */
function fixedPageSize(size: number): Behaviour {
  return (context) => {
    const url = new URL(context.request.url, 'http://127.0.0.1');
    const page = Number(url.searchParams.get('page') ?? 0);
    const slice = <T>(all: readonly T[]) => all.slice(page * size, (page + 1) * size);
    if (url.pathname === INVITATIONS) return json(200, slice(invitations))(context);
    return json(200, { actions: slice(actions), total: actions.length, page, per_page: size })(context);
  };
}

describe.each(kinds)('%s iterator', (kind) => {
  it('retries a 429 mid-iteration: every record once, in order', async () => {
    afterRequests(paths[kind], 1, echoing(429, { 'retry-after': '1' }));
    expect(await collect(iterators[kind](2))).toEqual(records[kind]);
  });

  it('retries a 503 mid-iteration: every record once, in order', async () => {
    afterRequests(paths[kind], 2, echoing(503));
    expect(await collect(iterators[kind](2))).toEqual(records[kind]);
  });

  it('detects a server that answers longer pages than asked (fixed page size 5, per_page 2): ResponseValidationError after yielding 0 records', async () => {
    server.next(paths[kind], fixedPageSize(5));
    const { seen, error } = await iterate(iterators[kind](2));
    expect(seen).toEqual([]);
    expect(error).toBeInstanceOf(ResponseValidationError);
    expect((error as ResponseValidationError).message).toContain('the server sent 5 records for page 0 of 2 records');
    expect((error as IdPlatformError).progress).toEqual({ yielded: 0, page: 0, per_page: 2 });
    expect(server.requests.filter((request) => request.url.startsWith(paths[kind]))).toHaveLength(1);
  });

  it('detects a longer page after the first: ResponseValidationError after yielding 2 records, with progress', async () => {
    afterRequests(paths[kind], 1, fixedPageSize(3));
    const { seen, error } = await iterate(iterators[kind](2));
    expect(error).toBeInstanceOf(ResponseValidationError);
    expect((error as ResponseValidationError).message).toContain('the server sent 3 records for page 1 of 2 records');
    expect(seen).toEqual(records[kind].slice(0, 2));
    expect((error as IdPlatformError).progress).toEqual({ yielded: 2, page: 1, per_page: 2 });
  });

  it('an unrecoverable fault mid-way throws an error carrying how far it got; the caller resumes from there', async () => {
    afterRequests(paths[kind], 2, echoing(500));
    const seen: unknown[] = [];
    const error = await (async () => {
      for await (const record of iterators[kind](2)) seen.push(record);
    })().then(
      () => undefined,
      (caught: unknown) => caught,
    );
    expect((error as Error).name).toBe('ServerError');
    const progress = (error as IdPlatformError).progress as PagingProgress;
    expect(progress).toEqual({ yielded: 4, page: 2, per_page: 2 });
    expect(JSON.parse(JSON.stringify(error)).progress).toEqual(progress); // logged with the error
    // Resume: read the pages from `page` on with the same `per_page`.
    const rest: unknown[] = [];
    for (let page = progress.page; ; page++) {
      const items =
        kind === 'invitations'
          ? await client.organizations.invitations.list(ORG, { page, per_page: progress.per_page })
          : (await client.actions.modules.listActions(MODULE, { page, per_page: progress.per_page })).actions;
      rest.push(...items);
      if (items.length < progress.per_page) break;
    }
    expect([...seen, ...rest]).toEqual(records[kind]);
    expect(seen).toHaveLength(progress.yielded);
  });
});

describe('actions iterator (with total)', () => {
  it('detects a server that caps per_page (it answers per_page 3 for 5): ResponseValidationError after yielding 5 records', async () => {
    afterRequests(ACTIONS, 1, fixedPageSize(3));
    const { seen, error } = await iterate(iterators.actions(5));
    expect(seen).toEqual(actions.slice(0, 5));
    expect((error as ResponseValidationError).issues[0]).toMatchObject({
      path: ['per_page'],
      message: expect.stringContaining('per_page 3 (not 5)'),
    });
    expect((error as IdPlatformError).progress).toEqual({ yielded: 5, page: 1, per_page: 5 });
  });

  it('detects, on a resume, a server that caps per_page: ResponseValidationError after yielding 0 records', async () => {
    server.next(ACTIONS, fixedPageSize(3));
    const { seen, error } = await iterate(client.actions.modules.iterateActions(MODULE, { per_page: 4, page: 1 }));
    expect(seen).toEqual([]);
    expect(error).toBeInstanceOf(ResponseValidationError);
    expect((error as IdPlatformError).progress).toEqual({ yielded: 0, page: 1, per_page: 4 });
  });

  it('detects a server that caps per_page silently (a short page before `total`): ResponseValidationError after yielding 0 records', async () => {
    server.next(ACTIONS, (context) => json(200, { actions: actions.slice(0, 3), total: actions.length })(context));
    const { seen, error } = await iterate(iterators.actions(5));
    expect(seen).toEqual([]);
    expect((error as ResponseValidationError).issues[0]).toMatchObject({
      path: ['total'],
      message: expect.stringContaining('the server counts 7 records but sent none past 3'),
    });
  });
});

/** Every record an iteration yielded, and the error that ended it. */
async function iterate(iterator: AsyncIterable<unknown>) {
  const seen: unknown[] = [];
  try {
    for await (const record of iterator) seen.push(record);
    return { seen, error: undefined };
  } catch (error) {
    return { seen, error };
  }
}
