import { describe, expect, it } from 'vitest';
import { ManagementClient, RequestValidationError, ResponseValidationError } from '../../../src/management/index.js';

/** A client whose every API request is answered by `answer(page, perPage)` (JSON 200); `calls` records the queries. */
function scripted(answer: (page: number, perPage: number) => unknown) {
  const calls: string[] = [];
  const management = new ManagementClient({
    domain: 'acme.example.com',
    token: 'a-token',
    retry: false,
    fetch: async (input: Request) => {
      const url = new URL(input.url);
      calls.push(url.search);
      const body = answer(Number(url.searchParams.get('page')), Number(url.searchParams.get('per_page')));
      return new Response(JSON.stringify(body), { status: 200, headers: { 'content-type': 'application/json' } });
    },
  });
  return { management, calls };
}

async function collect<T>(iterator: AsyncIterable<T>) {
  const seen: T[] = [];
  try {
    for await (const item of iterator) seen.push(item);
    return { seen, error: undefined as unknown };
  } catch (error) {
    return { seen, error };
  }
}

const all = Array.from({ length: 400 }, (_, index) => ({ action_id: `act_${index}` }));

describe('actions.modules.iterateActions against servers that page their own way', () => {
  it('follows a server that ignores per_page with pages of more than 100 (no per_page check on its own requests)', async () => {
    const { management, calls } = scripted((page) => ({
      actions: all.slice(page * 150, (page + 1) * 150),
      total: 400,
      page,
      per_page: 150,
    }));
    const { seen, error } = await collect(management.actions.modules.iterateActions('mod_1', { per_page: 50 }));
    expect(error).toBeUndefined();
    expect(seen).toEqual(all);
    expect(calls).toEqual(['?page=0&per_page=50', '?page=1&per_page=150', '?page=2&per_page=150']);
  });

  it('fails, with progress, when the server answers another page than the one asked (it ignores page)', async () => {
    const { management } = scripted(() => ({ actions: all.slice(0, 50), total: 120, page: 0, per_page: 50 }));
    const { seen, error } = await collect(management.actions.modules.iterateActions('mod_1', { per_page: 50 }));
    expect(seen).toEqual(all.slice(0, 50));
    expect(error).toBeInstanceOf(ResponseValidationError);
    expect((error as ResponseValidationError).progress).toEqual({ yielded: 50, page: 1, per_page: 50 });
  });
});

describe('iterateActions checks the module id when it is called', () => {
  it.each(['.', '..', 'a\ud800b'])('iterateActions(%j) throws RequestValidationError before any next()', (id) => {
    const { management, calls } = scripted(() => ({ actions: [], total: 0, page: 0, per_page: 50 }));
    expect(() => management.actions.modules.iterateActions(id)).toThrow(RequestValidationError);
    expect(calls).toHaveLength(0);
  });
});
