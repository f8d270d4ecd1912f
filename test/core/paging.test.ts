import { describe, expect, it } from 'vitest';
import { IdPlatformError, PagingLimitError, ResponseValidationError } from '../../src/core/errors.js';
import { isWithinPagingWindow, iteratePages, iterateWindowedList, type Page, type WindowedPageQuery } from '../../src/core/paging.js';

/** A list of `count` numbers served by offset pages, capping each page at `cap`; `calls` records each request. */
function list(count: number, { cap = Number.POSITIVE_INFINITY, withTotal = true, saysPageSize = false } = {}) {
  const calls: [number, number][] = [];
  const fetchPage = async (page: number, size: number): Promise<Page<number>> => {
    calls.push([page, size]);
    const served = Math.min(size, cap);
    const start = page * served; // a capping server's page `page` is of its own size
    const items = Array.from({ length: Math.max(0, Math.min(served, count - start)) }, (_, index) => start + index);
    const servedPerPage = saysPageSize ? served : undefined;
    return withTotal ? { items, total: count, servedPerPage } : { items, servedPerPage };
  };
  return { calls, fetchPage };
}

async function collect(iterator: AsyncIterable<number>) {
  const seen: number[] = [];
  try {
    for await (const item of iterator) seen.push(item);
    return { seen, error: undefined };
  } catch (error) {
    return { seen, error };
  }
}

describe('iteratePages', () => {
  it('stops once `total` records were yielded, without an empty request', async () => {
    const { calls, fetchPage } = list(130);
    const { seen } = await collect(iteratePages({ perPage: 50, fetchPage }));
    expect(seen).toEqual(Array.from({ length: 130 }, (_, index) => index));
    expect(calls).toEqual([
      [0, 50],
      [1, 50],
      [2, 50],
    ]);
  });

  it('stops at a short page when there is no total', async () => {
    const { calls, fetchPage } = list(120, { withTotal: false });
    const { seen } = await collect(iteratePages({ perPage: 50, fetchPage }));
    expect(seen).toHaveLength(120);
    expect(calls).toHaveLength(3);
  });

  it('goes on with the server’s page size when it caps pages and `total` says more', async () => {
    const { calls, fetchPage } = list(130, { cap: 40 });
    const { seen } = await collect(iteratePages({ perPage: 100, fetchPage }));
    expect(seen).toEqual(Array.from({ length: 130 }, (_, index) => index));
    expect(calls).toEqual([
      [0, 100],
      [1, 40],
      [2, 40],
      [3, 40],
    ]);
  });

  it.each([
    ['`total`', { withTotal: true }, 200, 1],
    ['the served page size', { withTotal: false, saysPageSize: true }, 200, 1],
    ['`total`, near the end', { withTotal: true }, 70, 1],
    ['`total`, a capped page wholly before the resume point', { withTotal: true }, 400, 5],
  ])(
    'resumes at startPage on a server that caps the page size, shown by %s: nothing before it, nothing lost',
    async (_, options, count, startPage) => {
      const { calls, fetchPage } = list(count, { cap: 30, ...options });
      const { seen } = await collect(iteratePages({ perPage: 50, startPage, fetchPage }));
      expect(seen).toEqual(Array.from({ length: count - startPage * 50 }, (_, index) => startPage * 50 + index));
      expect(calls[0]).toEqual([startPage, 50]);
    },
  );

  it('takes a short page for what it is, not for a cap, when the server says it used the size asked', async () => {
    // Page 1 of 50 comes back with 30 records (some removed meanwhile) while `total` still says 130.
    const fetchPage = async (page: number, size: number): Promise<Page<number>> => {
      const start = page * size;
      const end = page === 1 && size === 50 ? start + 30 : Math.min(start + size, 130);
      return { items: Array.from({ length: Math.max(0, end - start) }, (_, index) => start + index), total: 130, servedPerPage: size };
    };
    const { seen } = await collect(iteratePages({ perPage: 50, fetchPage }));
    expect(new Set(seen).size).toBe(seen.length);
    for (let record = 50; record < 80; record++) expect(seen).toContain(record);
  });

  it('counts in progress.yielded the records of this iteration, not those before its resume point', async () => {
    const failure = new IdPlatformError('the second page failed');
    const fetchPage = async (page: number, size: number): Promise<Page<number>> => {
      if (page === 5) throw failure;
      return { items: Array.from({ length: size }, (_, index) => page * size + index), total: 500 };
    };
    const { seen, error } = await collect(iteratePages({ perPage: 50, startPage: 4, fetchPage }));
    expect(seen).toHaveLength(50);
    expect(error).toBe(failure);
    expect(failure.progress).toEqual({ yielded: 50, page: 5, per_page: 50 });
  });

  it('reports no page done (onPage) for a capped page that lies wholly before the resume point', async () => {
    const { fetchPage } = list(400, { cap: 30 });
    const pages: number[] = [];
    const { seen } = await collect(
      iteratePages({ perPage: 50, startPage: 5, fetchPage, onPage: ({ records }) => void pages.push(records) }),
    );
    expect(seen[0]).toBe(250);
    expect(pages[0]).toBe(300); // the first report comes once page 5's records were yielded
  });

  it.each([
    ['`total`', { withTotal: true }],
    ['the served page size', { withTotal: false, saysPageSize: true }],
  ])(
    'names in the last onPage the page of the last record behind a capping server (shown by %s): a resume repeats none',
    async (_, options) => {
      const checkpoints: number[] = [];
      const first = list(51, { cap: 20, ...options });
      await collect(iteratePages({ perPage: 50, fetchPage: first.fetchPage, onPage: ({ page }) => void checkpoints.push(page) }));
      expect(checkpoints.at(-1)).toBe(1); // as without the cap: records 50 is on page 1
      const resumed = list(51, { cap: 20, ...options });
      const { seen } = await collect(iteratePages({ perPage: 50, startPage: (checkpoints.at(-1) ?? 0) + 1, fetchPage: resumed.fetchPage }));
      expect(seen).toEqual([]);
    },
  );

  it('places a short page after a longer one where it was asked (an overstated total is no cap), and then fails', async () => {
    // 80 records, a `total` of 200: page 1 is short because the list ends, not because the server caps at 30.
    const fetchPage = async (page: number, size: number): Promise<Page<number>> => ({
      items: Array.from({ length: Math.max(0, Math.min(size, 80 - page * size)) }, (_, index) => page * size + index),
      total: 200,
    });
    const { seen, error } = await collect(iteratePages({ perPage: 50, fetchPage }));
    expect(seen).toEqual(Array.from({ length: 80 }, (_, index) => index)); // each once, in order
    expect(error).toBeInstanceOf(ResponseValidationError);
    expect((error as ResponseValidationError).issues[0]?.message).toBe(
      'the server counts 200 records but sent none past 80 (its count is off, or the list shrank while it was read): records could be lost',
    );
    expect((error as IdPlatformError).progress).toMatchObject({ yielded: 80 });
  });

  it('ends quietly when it resumes past the end, or the list shrank below where it got (an empty page after `total`)', async () => {
    const { calls, fetchPage } = list(180);
    const resumed = await collect(iteratePages({ perPage: 100, startPage: 2, fetchPage }));
    expect(resumed).toEqual({ seen: [], error: undefined });
    expect(calls).toEqual([[2, 100]]);
    // Records deleted while the list was read: the next page is empty and `total` below the records read.
    const shrinking = async (page: number): Promise<Page<number>> =>
      page === 0 ? { items: Array.from({ length: 50 }, (_, index) => index), total: 100 } : { items: [], total: 40 };
    expect(await collect(iteratePages({ perPage: 50, fetchPage: shrinking }))).toMatchObject({ error: undefined });
  });

  it('resumes past the end of a capping server that says its size: nothing before the resume point counts as past `total`', async () => {
    const { fetchPage } = list(120, { cap: 50, saysPageSize: true });
    expect(await collect(iteratePages({ perPage: 100, startPage: 1, fetchPage }))).toEqual({
      seen: Array.from({ length: 20 }, (_, index) => 100 + index),
      error: undefined,
    });
  });

  it('fails on an empty page while `total` says more, instead of ending quietly', async () => {
    const fetchPage = async (page: number): Promise<Page<number>> => ({
      items: page === 0 ? Array.from({ length: 50 }, (_, index) => index) : [],
      total: 150,
    });
    const { seen, error } = await collect(iteratePages({ perPage: 50, fetchPage }));
    expect(seen).toHaveLength(50);
    expect(error).toBeInstanceOf(ResponseValidationError);
    expect((error as IdPlatformError).progress).toEqual({ yielded: 50, page: 1, per_page: 50 });
  });

  it('fails when a server that ignores `page` says so, or sends more records than its `total`', async () => {
    const samePage = async (): Promise<Page<number>> => ({
      items: Array.from({ length: 50 }, (_, index) => index),
      total: 120,
      servedPage: 0,
    });
    const echoed = await collect(iteratePages({ perPage: 50, fetchPage: samePage }));
    expect(echoed.seen).toHaveLength(50);
    expect((echoed.error as ResponseValidationError).issues[0]?.message).toBe(
      'the server answered page 0 for page 1: it ignores page, so its records cannot be placed',
    );
    const silent = async (): Promise<Page<number>> => ({ items: Array.from({ length: 50 }, (_, index) => index), total: 120 });
    const counted = await collect(iteratePages({ perPage: 50, fetchPage: silent }));
    expect(counted.seen).toHaveLength(100); // the third page would pass the count: none of it is yielded
    expect((counted.error as ResponseValidationError).issues[0]?.message).toBe(
      'the server sent 150 records of a list it counts 120 (it ignores page, or the list shrank while it was read): records would repeat',
    );
  });

  it('is lazy: a page is fetched only when its first record is asked for', async () => {
    const { calls, fetchPage } = list(1000);
    for await (const item of iteratePages({ perPage: 50, fetchPage })) if (item === 4) break;
    expect(calls).toHaveLength(1);
  });

  describe('with the 1000-record window', () => {
    const window = (more: boolean, onLimit: 'throw' | 'stop' = 'throw') => ({ onLimit, hasMoreAfter: async () => more });

    it('yields all 1000 records with a smaller last page when perPage does not divide 1000, then throws PagingLimitError', async () => {
      const { calls, fetchPage } = list(5000, { withTotal: false });
      const { seen, error } = await collect(iteratePages({ perPage: 30, fetchPage, window: window(true) }));
      expect(seen).toEqual(Array.from({ length: 1000 }, (_, index) => index));
      expect(calls.at(-1)).toEqual([99, 10]);
      expect(calls.every(([page, size]) => isWithinPagingWindow(page, size))).toBe(true);
      expect(error).toBeInstanceOf(PagingLimitError);
      expect((error as PagingLimitError).reachable).toBe(1000);
    });

    it('ends quietly when nothing lies past the window, or with onLimit: stop', async () => {
      for (const options of [window(false), window(true, 'stop')]) {
        const { fetchPage } = list(5000, { withTotal: false });
        const { seen, error } = await collect(iteratePages({ perPage: 100, fetchPage, window: options }));
        expect(seen).toHaveLength(1000);
        expect(error).toBeUndefined();
      }
    });
  });
});

describe('isWithinPagingWindow', () => {
  it('allows (page + 1) * perPage up to 1000 and no further', () => {
    expect(isWithinPagingWindow(9, 100)).toBe(true);
    expect(isWithinPagingWindow(10, 100)).toBe(false);
    expect(isWithinPagingWindow(19, 50)).toBe(true);
    expect(isWithinPagingWindow(20, 50)).toBe(false);
  });
});

describe('iterateWindowedList past the 1000-record window, with ties in the sort order', () => {
  type Row = { id: string; day: number };
  /** A server that sorts by `day` stably (ties in insertion order, both directions) and pages within the window. */
  function tiedServer(rows: readonly Row[]) {
    return async (query: WindowedPageQuery) => {
      const descending = query.sort?.endsWith(':-1') ?? false;
      const sorted = [...rows].sort((a, b) => (descending ? b.day - a.day : a.day - b.day));
      return { items: sorted.slice(query.page * query.per_page, (query.page + 1) * query.per_page) };
    };
  }
  const rows = (count: number, day: (index: number) => number) =>
    Array.from({ length: count }, (_, index) => ({ id: `r${index}`, day: day(index) }));
  const iterate = (fetchPage: ReturnType<typeof tiedServer>) =>
    collect(
      iterateWindowedList<Row>({ perPage: 100, onLimit: 'throw', sort: 'day:1', defaultSort: 'day:1', fetchPage }) as AsyncIterable<never>,
    );

  it('throws PagingLimitError for a 1001st record that ties with the 1000th', async () => {
    const { seen, error } = await iterate(tiedServer(rows(1001, (index) => Math.min(index, 999))));
    expect(seen).toHaveLength(1000);
    expect(error).toBeInstanceOf(PagingLimitError);
  });

  it('ends quietly when exactly 1000 records exist and the iteration resumed late (page 19 of 50)', async () => {
    const fetchPage = tiedServer(rows(1000, (index) => index));
    const { seen, error } = await collect(
      iterateWindowedList<Row>({
        perPage: 50,
        startPage: 19,
        onLimit: 'throw',
        sort: 'day:1',
        defaultSort: 'day:1',
        fetchPage,
      }) as AsyncIterable<never>,
    );
    expect(seen).toHaveLength(50);
    expect(error).toBeUndefined();
  });

  it('ends quietly when exactly 1000 records exist and the last ones tie', async () => {
    const { seen, error } = await iterate(tiedServer(rows(1000, (index) => Math.min(index, 990))));
    expect(seen).toHaveLength(1000);
    expect(error).toBeUndefined();
  });
});
