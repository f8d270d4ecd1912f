import { describe, expect, it } from 'vitest';
import { PagingLimitError } from '../../src/core/errors.js';
import { isWithinPagingWindow, iteratePages, type Page } from '../../src/core/paging.js';

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

  it('reports no page done (onPage) for a capped page that lies wholly before the resume point', async () => {
    const { fetchPage } = list(400, { cap: 30 });
    const pages: number[] = [];
    const { seen } = await collect(
      iteratePages({ perPage: 50, startPage: 5, fetchPage, onPage: ({ records }) => void pages.push(records) }),
    );
    expect(seen[0]).toBe(250);
    expect(pages[0]).toBe(300); // the first report comes once page 5's records were yielded
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
