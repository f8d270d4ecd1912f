import { describe, expect, it } from 'vitest';
import { IdPlatformError, PagingLimitError, ResponseValidationError } from '../../../src/core/errors.js';
import { iterateCountedList, iterateWindowedList, type WindowedPageQuery } from '../../../src/core/paging/iterate.js';
import { isWithinPagingWindow, type PageProgress } from '../../../src/core/paging.js';

async function collect<T>(iterator: AsyncIterable<T>) {
  const seen: T[] = [];
  try {
    for await (const item of iterator) seen.push(item);
    return { seen, error: undefined };
  } catch (error) {
    return { seen, error };
  }
}

const range = (from: number, to: number) => Array.from({ length: Math.max(0, to - from) }, (_, index) => from + index);

/** The message of the one issue of a `ResponseValidationError`. */
function issueOf(error: unknown) {
  expect(error).toBeInstanceOf(ResponseValidationError);
  const { issues } = error as ResponseValidationError;
  expect(issues).toHaveLength(1);
  return issues[0];
}

describe('iterateCountedList', () => {
  /** A list of `count` numbers paged as asked, echoing `page` and `per_page`, with `total`; `calls` records the pages asked. */
  function counted(count: number, perPage: number, { withTotal = true } = {}) {
    const calls: number[] = [];
    const fetchPage = async (page: number) => {
      calls.push(page);
      const items = range(page * perPage, Math.min(count, (page + 1) * perPage));
      return withTotal ? { items, total: count, page, per_page: perPage } : { items, page, per_page: perPage };
    };
    return { calls, fetchPage };
  }

  it('stops once `total` records were yielded, without an empty request', async () => {
    for (const [count, requests] of [
      [130, 3],
      [100, 2],
      [0, 1],
    ] as const) {
      const { calls, fetchPage } = counted(count, 50);
      const { seen, error } = await collect(iterateCountedList({ perPage: 50, fetchPage }));
      expect(error).toBeUndefined();
      expect(seen).toEqual(range(0, count));
      expect(calls).toHaveLength(requests);
    }
  });

  it('stops at a short page when the server sends no total', async () => {
    const { calls, fetchPage } = counted(120, 50, { withTotal: false });
    const { seen } = await collect(iterateCountedList({ perPage: 50, fetchPage }));
    expect(seen).toEqual(range(0, 120));
    expect(calls).toEqual([0, 1, 2]);
  });

  it('tells onPage after each page, with the records so far and the total', async () => {
    const { fetchPage } = counted(130, 50);
    const pages: PageProgress[] = [];
    await collect(iterateCountedList({ perPage: 50, fetchPage, onPage: (progress) => void pages.push(progress) }));
    expect(pages).toEqual([
      { page: 0, records: 50, total: 130, limitReached: false },
      { page: 1, records: 100, total: 130, limitReached: false },
      { page: 2, records: 130, total: 130, limitReached: false },
    ]);
  });

  it('resumes at startPage; progress.yielded counts the records of this iteration only', async () => {
    const failure = new IdPlatformError('the sixth page failed');
    const { fetchPage } = counted(500, 50);
    const failing = async (page: number) => {
      if (page === 5) throw failure;
      return fetchPage(page);
    };
    const { seen, error } = await collect(iterateCountedList({ perPage: 50, startPage: 4, fetchPage: failing }));
    expect(seen).toEqual(range(200, 250));
    expect(error).toBe(failure);
    expect(failure.progress).toEqual({ yielded: 50, page: 5, per_page: 50 });
  });

  it('ends quietly when it resumes at or past the end (an empty page at `total`)', async () => {
    const { calls, fetchPage } = counted(180, 100);
    expect(await collect(iterateCountedList({ perPage: 100, startPage: 2, fetchPage }))).toEqual({ seen: [], error: undefined });
    expect(calls).toEqual([2]);
  });

  it('is lazy: a page is fetched only when its first record is asked for', async () => {
    const { calls, fetchPage } = counted(1000, 50);
    for await (const item of iterateCountedList({ perPage: 50, fetchPage })) if (item === 4) break;
    expect(calls).toEqual([0]);
  });

  it('detects a page with more records than per_page and throws ResponseValidationError after yielding 50 records', async () => {
    const fetchPage = async (page: number) => ({ items: range(page * 60, page * 60 + 60).slice(0, page === 0 ? 50 : 60), total: 400 });
    const { seen, error } = await collect(iterateCountedList({ perPage: 50, fetchPage }));
    expect(seen).toEqual(range(0, 50));
    expect(issueOf(error)).toMatchObject({
      path: [],
      message: expect.stringMatching(/^the server sent 60 records for page 1 of 50 records:/),
    });
    expect((error as IdPlatformError).progress).toEqual({ yielded: 50, page: 1, per_page: 50 });
  });

  it.each([
    ['another page (it ignores page)', { page: 0 }, 'the server answered page 0 (not 1) for page 1 of 50 records', ['page']],
    [
      'another page size (it caps per_page)',
      { per_page: 30 },
      'the server answered per_page 30 (not 50) for page 1 of 50 records',
      ['per_page'],
    ],
  ])('detects a server that echoes %s and throws ResponseValidationError after yielding 50 records', async (_, echo, message, path) => {
    const fetchPage = async (page: number) => ({
      items: range(page * 50, page * 50 + 50),
      total: 200,
      page,
      per_page: 50,
      ...(page ? echo : {}),
    });
    const { seen, error } = await collect(iterateCountedList({ perPage: 50, fetchPage }));
    expect(seen).toEqual(range(0, 50));
    expect(issueOf(error)).toEqual({
      code: 'custom',
      path,
      message: `${message}: it does not page as asked, so records could be lost or repeated`,
    });
    expect((error as IdPlatformError).progress).toEqual({ yielded: 50, page: 1, per_page: 50 });
  });

  it('detects records past `total` (a server that ignores page and says nothing) and throws after yielding 100 records', async () => {
    const fetchPage = async () => ({ items: range(0, 50), total: 120 });
    const { seen, error } = await collect(iterateCountedList({ perPage: 50, fetchPage }));
    expect(seen).toHaveLength(100); // the third page would reach record 150 of 120: none of it is yielded
    expect(issueOf(error)).toMatchObject({
      path: ['total'],
      message: expect.stringMatching(/^the server counts 120 records but sent up to 150 for page 2/),
    });
    expect((error as IdPlatformError).progress).toEqual({ yielded: 100, page: 2, per_page: 50 });
  });

  it.each([
    [
      'a short page (a server that caps per_page silently)',
      (page: number) => range(page * 50, page * 50 + (page ? 30 : 50)),
      'none past 80',
    ],
    ['an empty page', (page: number) => (page ? [] : range(0, 50)), 'none past 50'],
  ])('detects %s before `total` is reached and throws ResponseValidationError after yielding 50 records', async (_, items, saw) => {
    const fetchPage = async (page: number) => ({ items: items(page), total: 200 });
    const { seen, error } = await collect(iterateCountedList({ perPage: 50, fetchPage }));
    expect(seen).toEqual(range(0, 50));
    expect(issueOf(error)).toMatchObject({
      path: ['total'],
      message: expect.stringContaining(`the server counts 200 records but sent ${saw}`),
    });
    expect((error as IdPlatformError).progress).toEqual({ yielded: 50, page: 1, per_page: 50 });
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

describe('iterateWindowedList', () => {
  type Row = { id: string; day: number };
  const rows = (count: number, day: (index: number) => number = (index) => index): Row[] =>
    Array.from({ length: count }, (_, index) => ({ id: `r${index}`, day: day(index) }));

  /**
   * A server that sorts `all` by `day` stably (ties in insertion order, both directions), answers
   * `{ start, limit }` pages, and refuses (throws) a page past the first 1000 records like the platform.
   */
  function windowed(
    all: readonly Row[],
    answer: (query: WindowedPageQuery, page: Row[]) => object = (query, page) => ({
      items: page,
      start: query.page * query.per_page,
      limit: query.per_page,
    }),
  ) {
    const calls: WindowedPageQuery[] = [];
    const fetchPage = async (query: WindowedPageQuery) => {
      calls.push(query);
      if (!isWithinPagingWindow(query.page, query.per_page)) throw new Error(`page ${query.page} of ${query.per_page} is refused`);
      const descending = query.sort?.endsWith(':-1') ?? false;
      const sorted = [...all].sort((a, b) => (descending ? b.day - a.day : a.day - b.day));
      return answer(query, sorted.slice(query.page * query.per_page, (query.page + 1) * query.per_page)) as { items: Row[] };
    };
    return { calls, fetchPage };
  }
  const iterate = (fetchPage: (query: WindowedPageQuery) => Promise<{ items: Row[] }>, options: object = {}) =>
    collect(
      iterateWindowedList<Row>({
        window: 1000,
        perPage: 100,
        onLimit: 'throw',
        filters: { sort: 'day:1' },
        defaultSort: 'day:1',
        fetchPage,
        ...options,
      }),
    );
  const pagesOf = (calls: readonly WindowedPageQuery[]) => calls.filter((query) => query.sort === 'day:1').map((q) => [q.page, q.per_page]);

  it('stops at a short page without an extra request', async () => {
    const { calls, fetchPage } = windowed(rows(120));
    const { seen, error } = await iterate(fetchPage, { perPage: 50 });
    expect(error).toBeUndefined();
    expect(seen.map((row) => row.day)).toEqual(range(0, 120));
    expect(pagesOf(calls)).toEqual([
      [0, 50],
      [1, 50],
      [2, 50],
    ]);
  });

  it('is lazy: five records cost one request', async () => {
    const { calls, fetchPage } = windowed(rows(2000));
    let count = 0;
    for await (const _ of iterateWindowedList<Row>({
      window: 1000,
      perPage: 50,
      onLimit: 'throw',
      filters: {},
      defaultSort: 'day:1',
      fetchPage,
    }))
      if (++count === 5) break;
    expect(calls).toHaveLength(1);
  });

  it.each([
    [30, [[99, 10]]],
    [70, [[49, 20]]],
    [
      97,
      [
        [97, 10],
        [49, 20],
      ],
    ],
  ])(
    'per_page %i: fetches the last records of the window with smaller pages, yields all 1000, then throws PagingLimitError',
    async (perPage, tail) => {
      const { calls, fetchPage } = windowed(rows(5000));
      const pages: PageProgress[] = [];
      const { seen, error } = await iterate(fetchPage, { perPage, onPage: (progress: PageProgress) => void pages.push(progress) });
      expect(seen.map((row) => row.day)).toEqual(range(0, 1000));
      expect(pagesOf(calls).slice(-tail.length)).toEqual(tail);
      expect(error).toBeInstanceOf(PagingLimitError);
      expect((error as PagingLimitError).reachable).toBe(1000);
      // Every record was yielded: the progress points at the end of the window.
      const { progress } = error as PagingLimitError;
      expect(progress?.yielded).toBe(1000);
      expect((progress?.page ?? 0) * (progress?.per_page ?? 0)).toBe(1000);
      // onPage is told per page of `perPage` (the smaller requests complete the last one), limitReached on the last.
      const whole = Math.floor(1000 / perPage);
      expect(pages.map(({ page, records }) => [page, records])).toEqual([
        ...range(0, whole).map((page) => [page, (page + 1) * perPage]),
        [whole, 1000],
      ]);
      expect(pages.map(({ limitReached }) => limitReached)).toEqual([...Array(whole).fill(false), true]);
    },
  );

  it("stops at the window with onLimit: 'stop': without asking whether more exist, or, for onPage, asking to tell limitReached", async () => {
    const quiet = windowed(rows(5000));
    expect((await iterate(quiet.fetchPage, { onLimit: 'stop' })).seen).toHaveLength(1000);
    expect(quiet.calls).toHaveLength(10);
    const told = windowed(rows(5000));
    const pages: PageProgress[] = [];
    const { seen, error } = await iterate(told.fetchPage, {
      onLimit: 'stop',
      onPage: (progress: PageProgress) => void pages.push(progress),
    });
    expect(seen).toHaveLength(1000);
    expect(error).toBeUndefined();
    expect(told.calls).toHaveLength(11);
    expect(pages.at(-1)).toEqual({ page: 9, records: 1000, total: undefined, limitReached: true });
  });

  it('resumes at startPage and reaches the same records as one run', async () => {
    const { calls, fetchPage } = windowed(rows(5000));
    const { seen, error } = await iterate(fetchPage, { perPage: 70, startPage: 14 });
    expect(seen.map((row) => row.day)).toEqual(range(980, 1000));
    expect(error).toBeInstanceOf(PagingLimitError);
    expect(pagesOf(calls)).toEqual([[49, 20]]);
  });

  it('sets progress on an error of the check past the window: nothing is left to resume', async () => {
    const failure = new IdPlatformError('the check failed');
    const { fetchPage } = windowed(rows(5000));
    const failing = async (query: WindowedPageQuery) => {
      if (query.sort === 'day:-1') throw failure;
      return fetchPage(query);
    };
    const { seen, error } = await iterate(failing, { perPage: 30 });
    expect(seen).toHaveLength(1000);
    expect(error).toBe(failure);
    expect(failure.progress).toEqual({ yielded: 1000, page: 100, per_page: 10 });
  });

  it('detects a page with more records than per_page and throws ResponseValidationError after yielding 100 records', async () => {
    const { fetchPage } = windowed(rows(5000), (query, page) => ({
      items: query.page === 1 ? [...page, { id: 'extra', day: -1 }] : page,
      start: query.page * query.per_page,
      limit: query.per_page,
    }));
    const { seen, error } = await iterate(fetchPage);
    expect(seen).toHaveLength(100);
    expect(issueOf(error)?.message).toMatch(/^the server sent 101 records for page 1 of 100 records: it does not page as asked/);
    expect((error as IdPlatformError).progress).toEqual({ yielded: 100, page: 1, per_page: 100 });
  });

  it.each([
    ['start', 'another page (it ignores page)', { start: 0 }, 'the server answered start 0 (not 100) for page 1 of 100 records'],
    ['limit', 'another page size (it caps per_page)', { limit: 40 }, 'the server answered limit 40 (not 100) for page 1 of 100 records'],
  ])(
    'detects a `%s` that says the server served %s and throws ResponseValidationError after yielding 100 records',
    async (field, _, echo, message) => {
      const { calls, fetchPage } = windowed(rows(5000), (query, page) => ({
        items: page.slice(0, 'limit' in echo && query.page ? echo.limit : undefined),
        start: query.page * query.per_page,
        limit: query.per_page,
        ...(query.page ? echo : {}),
      }));
      const { seen, error } = await iterate(fetchPage);
      expect(seen.map((row) => row.day)).toEqual(range(0, 100));
      expect(issueOf(error)).toMatchObject({ path: [field], message: expect.stringContaining(message) });
      expect((error as IdPlatformError).progress).toEqual({ yielded: 100, page: 1, per_page: 100 });
      expect(calls).toHaveLength(2);
    },
  );

  it('detects a check past the window that answers another page than asked', async () => {
    const { fetchPage } = windowed(rows(5000), (query, page) => ({
      items: page,
      start: query.sort === 'day:-1' ? 100 : query.page * query.per_page,
      limit: query.per_page,
    }));
    const { seen, error } = await iterate(fetchPage);
    expect(seen).toHaveLength(1000);
    expect(issueOf(error)?.message).toContain('the server answered start 100 (not 0) for page 0 of 100 records');
    expect((error as IdPlatformError).progress).toEqual({ yielded: 1000, page: 10, per_page: 100 });
  });

  describe('past the window, with ties in the sort order', () => {
    it('throws PagingLimitError for a 1001st record that ties with the 1000th', async () => {
      const { seen, error } = await iterate(windowed(rows(1001, (index) => Math.min(index, 999))).fetchPage);
      expect(seen).toHaveLength(1000);
      expect(error).toBeInstanceOf(PagingLimitError);
    });

    it('ends quietly when exactly 1000 records exist and the iteration resumed late (page 19 of 50)', async () => {
      const { seen, error } = await iterate(windowed(rows(1000)).fetchPage, { perPage: 50, startPage: 19 });
      expect(seen).toHaveLength(50);
      expect(error).toBeUndefined();
    });

    it('ends quietly when exactly 1000 records exist and the last ones tie', async () => {
      const { seen, error } = await iterate(windowed(rows(1000, (index) => Math.min(index, 990))).fetchPage);
      expect(seen).toHaveLength(1000);
      expect(error).toBeUndefined();
    });

    it('throws PagingLimitError when the last 100 records tie and more follow in a strict order', async () => {
      const { seen, error } = await iterate(windowed(rows(1050, (index) => Math.min(index, 900))).fetchPage);
      expect(seen).toHaveLength(1000);
      expect(error).toBeInstanceOf(PagingLimitError);
    });
  });
});
