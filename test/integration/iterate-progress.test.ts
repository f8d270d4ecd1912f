/**
 * The iterators' `onPage` progress callback, `page` to resume from, and
 * `limitReached` at the 1000-record window, against the tenant emulator's seed.
 */
import { describe, expect, it } from 'vitest';
import { ManagementClient, type PageProgress, PagingLimitError, RequestValidationError } from '../../src/management/index.js';
import { createTenantEmulator, SEED_IDS } from '../../src/testing/index.js';

const emulator = createTenantEmulator();
const management = new ManagementClient({
  domain: new URL(emulator.origin).host,
  ...emulator.credentials,
  fetch: (request) => emulator.handle(request),
});
const invitations = management.organizations.invitations;

async function collect<T>(
  records: AsyncIterable<T>,
  key: (record: T) => unknown = (record) => (record as { id?: string }).id,
): Promise<unknown[]> {
  const keys: unknown[] = [];
  for await (const record of records) keys.push(key(record));
  return keys;
}

describe('invitations.iterate onPage and page', () => {
  it('tells onPage after each page, and limitReached at the window with onLimit: stop', async () => {
    const pages: PageProgress[] = [];
    const ids = await collect(
      invitations.iterate(SEED_IDS.bigOrganization, { per_page: 100, onLimit: 'stop', onPage: (p) => void pages.push(p) }),
    );
    expect(ids).toHaveLength(1000);
    expect(pages.map(({ page, records }) => [page, records])).toEqual(Array.from({ length: 10 }, (_, index) => [index, (index + 1) * 100]));
    expect(pages.map((p) => p.limitReached)).toEqual([...Array(9).fill(false), true]);
  });

  it('with onLimit: throw, tells limitReached and then throws PagingLimitError', async () => {
    const pages: PageProgress[] = [];
    const iteration = collect(invitations.iterate(SEED_IDS.bigOrganization, { per_page: 70, onPage: (p) => void pages.push(p) }));
    await expect(iteration).rejects.toMatchObject({ name: 'PagingLimitError', reachable: 1000 });
    await expect(iteration).rejects.toBeInstanceOf(PagingLimitError);
    // 14 pages of 70 reach record 980; the last 20 of the window complete page 14.
    expect(pages.map(({ page, records, limitReached }) => [page, records, limitReached])).toEqual([
      ...Array.from({ length: 14 }, (_, index) => [index, (index + 1) * 70, false]),
      [14, 1000, true],
    ]);
  });

  it('resumes at a page and reaches the same records as one run', async () => {
    const all = await collect(invitations.iterate(SEED_IDS.bigOrganization, { per_page: 100, onLimit: 'stop' }));
    await expect(collect(invitations.iterate(SEED_IDS.bigOrganization, { per_page: 100, page: 4, onLimit: 'stop' }))).resolves.toEqual(
      all.slice(400),
    );
    const pages: PageProgress[] = [];
    const tail = await collect(
      invitations.iterate(SEED_IDS.bigOrganization, { per_page: 70, page: 14, onLimit: 'stop', onPage: (p) => void pages.push(p) }),
    );
    expect(tail).toEqual(all.slice(980));
    expect(pages).toEqual([{ page: 14, records: 1000, total: undefined, limitReached: true }]);
  });

  it('refuses a starting page at or past the window, and an onPage that is not a function', () => {
    expect(() => invitations.iterate(SEED_IDS.bigOrganization, { per_page: 100, page: 10 })).toThrow(RequestValidationError);
    expect(() => invitations.iterate(SEED_IDS.bigOrganization, { page: 20 })).toThrow('page * per_page must be below 1000');
    expect(() => invitations.iterate(SEED_IDS.bigOrganization, { onPage: 'log' as never })).toThrow('onPage must be a function');
  });

  it('calls onPage once the page was consumed, and on a short last page without limitReached', async () => {
    const events: string[] = [];
    for await (const _ of invitations.iterate(SEED_IDS.smallOrganization, {
      per_page: 2,
      onPage: ({ page, records, limitReached }) => void events.push(`page ${page}: ${records}${limitReached ? ' (limit)' : ''}`),
    })) {
      events.push('record');
    }
    expect(events).toEqual(['record', 'record', 'page 0: 2', 'record', 'record', 'page 1: 4', 'record', 'page 2: 5']);
  });

  it('waits for an async onPage before going on', async () => {
    const events: string[] = [];
    for await (const _ of invitations.iterate(SEED_IDS.smallOrganization, {
      per_page: 3,
      onPage: async ({ page }) => {
        events.push(`saving ${page}`);
        await new Promise((resolve) => setImmediate(resolve));
        events.push(`saved ${page}`);
      },
    })) {
      events.push('record');
    }
    expect(events).toEqual(['record', 'record', 'record', 'saving 0', 'saved 0', 'record', 'record', 'saving 1', 'saved 1']);
  });
});

describe('actions.modules.iterateActions onPage and page', () => {
  it('tells onPage with the total and resumes at a page', async () => {
    const pages: PageProgress[] = [];
    const byAction = (usage: { action_id?: string | undefined; module_version_id?: string | undefined }) =>
      `${usage.action_id}/${usage.module_version_id}`;
    const all = await collect(
      management.actions.modules.iterateActions(SEED_IDS.sharedModule, { per_page: 50, onPage: (p) => void pages.push(p) }),
      byAction,
    );
    expect(all).toHaveLength(130);
    expect(pages).toEqual([
      { page: 0, records: 50, total: 130, limitReached: false },
      { page: 1, records: 100, total: 130, limitReached: false },
      { page: 2, records: 130, total: 130, limitReached: false },
    ]);
    await expect(
      collect(management.actions.modules.iterateActions(SEED_IDS.sharedModule, { per_page: 50, page: 2 }), byAction),
    ).resolves.toEqual(all.slice(100));
  });
});
