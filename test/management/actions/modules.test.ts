import { HttpResponse, http } from 'msw';
import { describe, expect, it } from 'vitest';
import { ManagementClient, RequestValidationError, ResponseValidationError } from '../../../src/management/index.js';
import { API, DOMAIN, recordRequests, useMswServer } from '../../helpers/server.js';

const server = useMswServer();
const requests = recordRequests(server);

const all = Array.from({ length: 400 }, (_, index) => ({ action_id: `act_${index}` }));

/** The module's actions as `answer(page, perPage)` gives them (JSON 200). */
function serve(answer: (page: number, perPage: number) => unknown) {
  requests.length = 0;
  server.use(
    http.get(`${API}/actions/modules/:id/actions`, ({ request }) => {
      const query = new URL(request.url).searchParams;
      return HttpResponse.json(answer(Number(query.get('page')), Number(query.get('per_page'))) as object);
    }),
  );
  return new ManagementClient({ domain: DOMAIN, token: 'a-token', retry: false });
}

/** The platform's paging of the first `count` actions. */
const paged = (count: number) => (page: number, perPage: number) => ({
  actions: all.slice(0, count).slice(page * perPage, (page + 1) * perPage),
  total: count,
  page,
  per_page: perPage,
});

async function collect<T>(iterator: AsyncIterable<T>) {
  const seen: T[] = [];
  try {
    for await (const item of iterator) seen.push(item);
    return { seen, error: undefined as unknown };
  } catch (error) {
    return { seen, error };
  }
}

const queries = () => requests.map((request) => new URL(request.url).search);

describe('actions.modules.iterateActions', () => {
  it('reads every page until `total`, without an extra empty request', async () => {
    const management = serve(paged(130));
    const { seen, error } = await collect(management.actions.modules.iterateActions('mod_1', { per_page: 50 }));
    expect(error).toBeUndefined();
    expect(seen).toEqual(all.slice(0, 130));
    expect(queries()).toEqual(['?page=0&per_page=50', '?page=1&per_page=50', '?page=2&per_page=50']);
  });

  it('stops on a full last page once `total` is reached', async () => {
    const management = serve(paged(100));
    expect((await collect(management.actions.modules.iterateActions('mod_1', { per_page: 50 }))).seen).toHaveLength(100);
    expect(requests).toHaveLength(2);
  });

  it('is lazy: five records cost one request', async () => {
    const management = serve(paged(400));
    let count = 0;
    for await (const _ of management.actions.modules.iterateActions('mod_1')) if (++count === 5) break;
    expect(requests).toHaveLength(1);
  });

  it('ends quietly when it resumes past the end', async () => {
    const management = serve(paged(130));
    expect(await collect(management.actions.modules.iterateActions('mod_1', { per_page: 50, page: 3 }))).toEqual({
      seen: [],
      error: undefined,
    });
    expect(requests).toHaveLength(1);
  });
});

describe('actions.modules.iterateActions detects a server that pages otherwise than asked', () => {
  it('more records than per_page (it ignores per_page): throws ResponseValidationError after yielding 0 records, with one request', async () => {
    const management = serve((page) => ({ actions: all.slice(page * 150, (page + 1) * 150), total: 400, page, per_page: 150 }));
    const { seen, error } = await collect(management.actions.modules.iterateActions('mod_1', { per_page: 50 }));
    expect(seen).toEqual([]);
    expect(error).toBeInstanceOf(ResponseValidationError);
    expect((error as ResponseValidationError).issues[0]?.message).toMatch(/^the server sent 150 records for page 0 of 50 records/);
    expect((error as ResponseValidationError).progress).toEqual({ yielded: 0, page: 0, per_page: 50 });
    expect(requests).toHaveLength(1);
  });

  it('another page than asked (it ignores page): throws ResponseValidationError after yielding 50 records', async () => {
    const management = serve(() => ({ actions: all.slice(0, 50), total: 120, page: 0, per_page: 50 }));
    const { seen, error } = await collect(management.actions.modules.iterateActions('mod_1', { per_page: 50 }));
    expect(seen).toEqual(all.slice(0, 50));
    expect(error).toBeInstanceOf(ResponseValidationError);
    expect((error as ResponseValidationError).issues[0]).toMatchObject({
      path: ['page'],
      message: expect.stringContaining('page 0 (not 1)'),
    });
    expect((error as ResponseValidationError).progress).toEqual({ yielded: 50, page: 1, per_page: 50 });
  });

  it('a smaller page size than asked (it caps per_page): throws ResponseValidationError after yielding 50 records', async () => {
    // The cap applies from the second page on, as a proxy put in front mid-way would.
    const management = serve((page, perPage) => paged(400)(page, page === 0 ? perPage : 30));
    const { seen, error } = await collect(management.actions.modules.iterateActions('mod_1', { per_page: 50 }));
    expect(seen).toEqual(all.slice(0, 50));
    expect((error as ResponseValidationError).issues[0]).toMatchObject({
      path: ['per_page'],
      message: expect.stringContaining('per_page 30 (not 50)'),
    });
  });

  it('a `total` the records contradict (a page that ends before it): throws ResponseValidationError after yielding 50 records', async () => {
    const management = serve((page, perPage) => ({ ...paged(80)(page, perPage), total: 200 }));
    const { seen, error } = await collect(management.actions.modules.iterateActions('mod_1', { per_page: 50 }));
    // The short page's records are not yielded: resuming at `progress.page` repeats none and loses none.
    expect(seen).toEqual(all.slice(0, 50));
    expect(error).toBeInstanceOf(ResponseValidationError);
    expect((error as ResponseValidationError).issues[0]).toMatchObject({
      path: ['total'],
      message: expect.stringContaining('the server counts 200 records but sent none past 80'),
    });
    expect((error as ResponseValidationError).progress).toEqual({ yielded: 50, page: 1, per_page: 50 });
  });

  it('a `total` the records contradict (records past it): throws ResponseValidationError after yielding 100 records', async () => {
    const management = serve((page, perPage) => ({ ...paged(400)(page, perPage), total: 120 }));
    const { seen, error } = await collect(management.actions.modules.iterateActions('mod_1', { per_page: 50 }));
    expect(seen).toEqual(all.slice(0, 100));
    expect((error as ResponseValidationError).issues[0]?.message).toContain('the server counts 120 records but sent up to 150');
  });
});

describe('iterateActions checks the module id when it is called', () => {
  it.each(['.', '..', 'a\ud800b'])('iterateActions(%j) throws RequestValidationError before any next()', (id) => {
    const management = serve(() => ({ actions: [], total: 0, page: 0, per_page: 50 }));
    expect(() => management.actions.modules.iterateActions(id)).toThrow(RequestValidationError);
    expect(requests).toHaveLength(0);
  });
});
