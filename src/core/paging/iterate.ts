import { IdPlatformError, PagingLimitError, type PagingProgress, ResponseValidationError } from '../errors.js';
import type { OnPage, OnPagingLimit } from '../paging.js';

/** Where an iteration starts, its page size, and whom to tell about each page. */
interface PagingOptions {
  readonly perPage: number;
  /** The page (of `perPage` records) to start at, to resume an earlier iteration; default 0. */
  readonly startPage?: number | undefined;
  readonly onPage?: OnPage | undefined;
}

/** One page as the server answered it: its records, and the paging fields it sent (`start`, `limit`; or `total`, `page`, `per_page`). */
export type Page<T> = { readonly items: readonly T[] } & {
  readonly [name in 'start' | 'limit' | 'total' | 'page' | 'per_page']?: number | undefined;
};

/** A list paged by `page` and `per_page` whose answers count all its records in `total` (the actions that use a module). */
export interface CountedList<T> extends PagingOptions {
  fetchPage(page: number): Promise<Page<T>>;
}

/**
 * Yields every record of a counted list, fetching a page when a record of it is asked for, up to `total` or, without one, a short page.
 * A page that breaks the paging asked for (too many records, another `page` or `per_page`, ending past or short of `total`) throws
 * `ResponseValidationError` before any of its records is yielded.
 */
export async function* iterateCountedList<T>(list: CountedList<T>): AsyncGenerator<T, void, undefined> {
  const { perPage, onPage } = list;
  const first = list.startPage ?? 0;
  for (let page = first; ; page++) {
    const from = page * perPage;
    const progress = { yielded: from - first * perPage, page, per_page: perPage };
    const { items, total, ...echoed } = await withProgress(list.fetchPage(page), progress);
    const to = from + items.length;
    const broken = brokenPage(page, perPage, items.length, { page: [echoed.page, page], per_page: [echoed.per_page, perPage] }, total);
    if (broken) throw withProgressOn(broken, progress);
    yield* items;
    await onPage?.({ page, records: to, total, limitReached: false });
    if (total === undefined ? items.length < perPage : to >= total) return;
  }
}

/** The query a windowed list sends for one page: the caller's filters plus the page. */
export interface WindowedPageQuery {
  readonly page: number;
  readonly per_page: number;
  readonly sort?: string | undefined;
  readonly fields?: string | undefined;
  readonly include_fields?: boolean | undefined;
}

/** A record the check past the window can tell apart from the others. */
type Identified = { readonly id?: string | undefined };

/** A list of records with an `id` that the platform pages through up to its first `window` records, in a strict `sort` order. */
export interface WindowedList<T extends Identified> extends PagingOptions {
  /** How many records the platform pages through: 1000. */
  readonly window: number;
  readonly onLimit: OnPagingLimit;
  /** The caller's `sort` (`field:1` / `field:-1`), `fields` and `include_fields`, sent as given (`id` aside). */
  readonly filters: Omit<WindowedPageQuery, 'page' | 'per_page'>;
  /** The server's order when no `sort` is sent, e.g. `created_at:-1`: the check past the window reverses it. */
  readonly defaultSort: string;
  /** Fetches one page with this query (the list adds the caller's other filters). */
  fetchPage(query: WindowedPageQuery): Promise<Page<T>>;
}

/**
 * Yields the first `window` records of a list, lazily, to a short page (smaller pages last where `perPage` does not divide `window`),
 * then asks once whether more exist: `PagingLimitError`, or a quiet stop with `onLimit: 'stop'`. A page with too many records, or another
 * `start` or `limit`, throws `ResponseValidationError` before any of its records is yielded. Pages ask for `id`, for the last check.
 */
export async function* iterateWindowedList<T extends Identified>(list: WindowedList<T>): AsyncGenerator<T, void, undefined> {
  const { perPage, onPage, onLimit, filters, window } = list;
  const listed: readonly string[] = filters.fields?.match(/[^\s,]+/g) ?? [];
  const excludes = filters.include_fields === false;
  const hidesId = listed.length > 0 && listed.includes('id') === excludes;
  // `id` added to an include list, or dropped from an exclude list (where empty means all fields).
  const fields = hidesId ? (excludes ? listed.filter((name) => name !== 'id') : [...listed, 'id']).join(',') || undefined : filters.fields;
  const withoutId = ({ id: _id, ...record }: T) => record as T;
  const first = (list.startPage ?? 0) * perPage;
  const fetched = new Set<unknown>();
  for (let from = first; ; ) {
    // Whole pages while they fit in the window; then the largest size that fits on which `from` is a page boundary.
    let size = Math.min(perPage, window - from);
    while (from % size !== 0) size--;
    const page = from / size;
    const progress = { yielded: from - first, page, per_page: size };
    const { items, start, limit } = await withProgress(list.fetchPage({ ...filters, fields, page, per_page: size }), progress);
    const broken = brokenPage(page, size, items.length, { start: [start, from], limit: [limit, size] });
    if (broken) throw withProgressOn(broken, progress);
    for (const item of items) fetched.add(item.id);
    yield* hidesId ? items.map(withoutId) : items;
    const to = from + items.length;
    const full = items.length === size;
    const atWindowEnd = full && to === window;
    if (!full || atWindowEnd || to % perPage === 0) {
      // After the window nothing is left to resume: `page * per_page` is `window` (`size` divides it there).
      const end = { yielded: to - first, page: to / size, per_page: size };
      const asks = atWindowEnd && (onLimit === 'throw' || onPage !== undefined);
      const limitReached = asks && (await withProgress(hasMoreAfter(list, fetched, items.at(-1)?.id), end));
      await onPage?.({ page: Math.floor(from / perPage), records: to, total: undefined, limitReached });
      if (limitReached && onLimit === 'throw') throw withProgressOn(new PagingLimitError(to), end);
    }
    if (!full || atWindowEnd) return;
    from = to;
  }
}

/** How many of the last-sorted records the check past the window asks for: the most one page holds. */
const PROBE_SIZE = 100;

/** Whether records lie past the window: the reversed order's first 100 are the last of all, so one not fetched lies past it. */
async function hasMoreAfter<T extends Identified>(list: WindowedList<T>, fetched: Set<unknown>, lastId?: string): Promise<boolean> {
  const order = list.filters.sort ?? list.defaultSort;
  const path = order.slice(0, order.lastIndexOf(':')).split('.');
  const reversed = order.endsWith(':-1') ? `${order.slice(0, -3)}:1` : `${order.slice(0, -2)}:-1`;
  const answer = await list.fetchPage({ sort: reversed, page: 0, per_page: PROBE_SIZE, fields: path[0] === 'id' ? 'id' : `id,${path[0]}` });
  const broken = brokenPage(0, PROBE_SIZE, answer.items.length, { start: [answer.start, 0], limit: [answer.limit, PROBE_SIZE] });
  if (broken) throw broken;
  // With nothing past the window, the list's last records are the ones fetched (a late start fetched fewer).
  const items = answer.items.slice(0, fetched.size);
  if (items.some((record) => !fetched.has(record.id))) return true;
  if (items.length < PROBE_SIZE) return false;
  // All 100 fetched: more can hide only among ties of the last key, where the strict order's reversed first record is the last of all.
  const [firstKey, lastKey] = [keyOf(items[0], path), keyOf(items.at(-1), path)];
  const tied = firstKey === undefined || lastKey === undefined || firstKey === lastKey;
  return tied && items[0]?.id !== lastId;
}

/** A record's sort key as JSON; `undefined` for one nested too deep to serialize (no platform record is), which then counts as a tie. */
function keyOf(record: unknown, path: readonly string[]): string | undefined {
  try {
    return JSON.stringify(path.reduce<unknown>(memberOf, record));
  } catch {
    return undefined;
  }
}

/** The member `name` of `value` when it is an object, else `undefined`: the steps to a sort key such as `inviter.name`. */
function memberOf(value: unknown, name: string): unknown {
  return typeof value === 'object' && value !== null ? (value as Record<string, unknown>)[name] : undefined;
}

/** The error when page `page` of `size` records is not as asked: too many records, a paging field echoed otherwise, or a bad `total`. */
function brokenPage(page: number, size: number, count: number, echoes: Echoes, total?: number): ResponseValidationError | undefined {
  const to = page * size + count;
  const [name, [seen, asked] = []] = Object.entries(echoes).find(([, [seen, asked]]) => seen !== undefined && seen !== asked) ?? [];
  const where = `for page ${page} of ${size} records: it does not page as asked, so records could be lost or repeated`;
  const fail = (path: string[], saw: string) =>
    new ResponseValidationError([{ code: 'custom', path, message: `${saw} ${where}` }], undefined);
  if (count > size) return fail([], `the server sent ${count} records`);
  if (name !== undefined) return fail([name], `the server answered ${name} ${seen} (not ${asked})`);
  if (total !== undefined && count > 0 && to > total) return fail(['total'], `the server counts ${total} records but sent up to ${to}`);
  if (total !== undefined && count < size && to < total)
    return fail(['total'], `the server counts ${total} records but sent none past ${to}`);
  return undefined;
}

/** Paging fields a server echoes, by name: the value it sent (when it sent one) and the value asked for. */
type Echoes = Readonly<Record<string, readonly [seen: number | undefined, asked: number]>>;

/** `promise`, with `progress` set on an `IdPlatformError` it rejects with. */
function withProgress<R>(promise: Promise<R>, progress: PagingProgress): Promise<R> {
  return promise.catch((error: unknown) => {
    throw withProgressOn(error, progress);
  });
}

function withProgressOn(error: unknown, progress: PagingProgress): unknown {
  if (error instanceof IdPlatformError) error.progress ??= progress;
  return error;
}
