import * as z from 'zod/mini';
import { IdPlatformError, PagingLimitError, type PagingProgress, ResponseValidationError } from './errors.js';
import { depthBounded } from './redaction.js';

/** `page`: the page index of the platform's offset-paged lists, an integer from 0. */
export const PageSchema = z.int('page must be an integer').check(z.minimum(0, 'page must be >= 0'));

/** `per_page`: records per page of the platform's offset-paged lists, an integer from 1 to 100. */
export const PerPageSchema = z
  .int('per_page must be an integer')
  .check(z.minimum(1, 'per_page must be between 1 and 100'), z.maximum(100, 'per_page must be between 1 and 100'));

/** How many records offset paging can reach on endpoints that limit it (spec section 8). */
export const PAGING_WINDOW = 1000;

/** The server's explanation when a page reaches past the window; the client says the same. */
export const PAGING_WINDOW_MESSAGE = `Requesting page exceeds the allowed maximum of ${PAGING_WINDOW} records`;

/** Whether an iterator may start at page `page` of `perPage` records: its first record lies inside the window (`page * perPage < 1000`). */
export function isResumableInPagingWindow(page: number, perPage: number): boolean {
  return page * perPage < PAGING_WINDOW;
}

/** Whether page `page` of `perPage` records lies inside the paging window: `(page + 1) * perPage <= 1000`. */
export function isWithinPagingWindow(page: number, perPage: number): boolean {
  return (page + 1) * perPage <= PAGING_WINDOW;
}

/** What to do when an iterator has yielded every record the paging window lets it reach and more remain. */
export type OnPagingLimit = 'throw' | 'stop';

/** One page as an iterator sees it. */
export interface Page<T> {
  readonly items: readonly T[];
  /** The server's count of all records, when it sends one. */
  readonly total?: number | undefined;
  /**
   * The page size the server says it used (e.g. the invitation list's `limit`), when
   * it says so: a page shorter than asked but as long as this is not the last one.
   */
  readonly servedPerPage?: number | undefined;
  /** The page index the server says it served (in pages of `servedPerPage`, else of the size asked), when it says so. */
  readonly servedPage?: number | undefined;
}

/**
 * What an iterator's `onPage` callback is told after the records of a page were
 * yielded (and consumed): for progress, and for checkpoints to resume from.
 */
export interface PageProgress {
  /**
   * The index of the page just completed, in pages of the iterator's `per_page`,
   * from 0. Pass `page + 1` as the iterator's `page` to resume after it.
   */
  readonly page: number;
  /** How far into the list the iterator got: the records on this and every earlier page (skipped ones included). */
  readonly records: number;
  /** The server's count of all records, when it sends one. */
  readonly total?: number | undefined;
  /**
   * `true` on the last call when the iterator stopped at the 1000-record paging
   * window while the server holds more (with `onLimit: 'stop'`; with `'throw'`,
   * `PagingLimitError` follows). `false` otherwise.
   */
  readonly limitReached: boolean;
}

/** A callback told about every completed page; the iterator waits for a promise it returns. */
export type OnPage = (progress: PageProgress) => void | Promise<void>;

/** An iterator's `onPage` parameter: a function. */
export const OnPageSchema = z.custom<OnPage>((value) => typeof value === 'function', 'onPage must be a function');

/** How {@link iteratePages} reads a paged list. */
export interface PagedList<T> {
  /** Records per request. */
  readonly perPage: number;
  /** The page (of `perPage` records) to start at, to resume an earlier iteration; default 0. */
  readonly startPage?: number | undefined;
  /** Called after each completed page of `perPage` records, and after the last one. */
  readonly onPage?: OnPage | undefined;
  /** Fetches page `page` of `perPage` records. */
  fetchPage(page: number, perPage: number): Promise<Page<T>>;
  /** For lists that cap paging at {@link PAGING_WINDOW} records. */
  readonly window?: {
    readonly onLimit: OnPagingLimit;
    /** Whether the server holds records past `last`, the final reachable one. */
    readonly hasMoreAfter: (last: T) => Promise<boolean>;
  };
}

/**
 * Yields every record of a paged list, lazily: one request per page, made only
 * when the caller asks for a record of that page. Stops once `total` records were
 * yielded, or, without a total, at a short page; no extra empty request. A short
 * page while `total` says more means the server caps the page size: the iterator
 * goes on with the server's size.
 *
 * With a paging window, the last reachable records are fetched with a smaller
 * page size where `perPage` does not divide the window, so that all 1000 are
 * yielded; then, if the server holds more, `PagingLimitError` is thrown (or the
 * iterator stops quietly with `onLimit: 'stop'`). Nothing is lost silently.
 *
 * A first page longer than asked means the server ignores `per_page` (a proxy, a
 * fixed page size): the iterator goes on with the server's size. A longer page
 * later cannot be placed without loss, so it fails; so does a page the server says
 * is another than the one asked (`servedPage`: it ignores `page`), an empty page
 * before `total`, and a page whose records reach past `total` (checked before its
 * records are yielded). A short page after a longer one is not taken
 * for a cap. Any `IdPlatformError` that ends
 * the iteration carries `progress` (records yielded, and the failed request's
 * `page` and `per_page`), so the caller can resume.
 *
 * `startPage` resumes at record `startPage * perPage`. A server that caps the page
 * size answers that request with its own page `startPage` (records before the resume
 * point): it is placed by the size the answer reports (`servedPerPage`), or by
 * `total` when the page is not the last; a capped page that is also the last one
 * can be told apart only by `servedPerPage`. `onPage` is told after each
 * completed page (see {@link PageProgress}); with `onLimit: 'stop'` and an `onPage`,
 * the iterator asks the server once whether records lie past the window, to say so
 * in `limitReached`.
 */
export async function* iteratePages<T>(list: PagedList<T>): AsyncGenerator<T, void, undefined> {
  const { window, onPage } = list;
  const pageSize = list.perPage;
  let perPage = list.perPage;
  const startOffset = (list.startPage ?? 0) * pageSize;
  let offset = startOffset;
  let last: T | undefined;
  let serverPageSize: number | undefined;
  /** The longest page of this iteration so far: a server that served one that long does not cap pages shorter. */
  let longest = 0;
  while (true) {
    const size =
      serverPageSize !== undefined
        ? window && offset >= PAGING_WINDOW
          ? 0
          : serverPageSize
        : window
          ? pageSizeAt(offset, perPage)
          : perPage;
    if (size === 0) return;
    const page = Math.floor(offset / pageSize);
    const progress = { yielded: offset - startOffset, page: offset / size, per_page: size };
    const { items, total, servedPerPage, servedPage } = await withProgress(list.fetchPage(progress.page, size), progress);
    // A server that answers another page than the one asked (it ignores `page`) would repeat records, or never end.
    if (servedPage !== undefined && servedPage !== progress.page)
      throw withProgressOn(pageMismatchError(servedPage, progress.page), progress);
    if (items.length > size) {
      // The server ignores `per_page`: on the first page, adopt its size; later, records would be skipped.
      if (offset !== 0) throw withProgressOn(longPageError(items.length, size), progress);
      serverPageSize = items.length;
    }
    // A server that caps the page size serves page `page` of its own size, which starts before
    // `offset` when the iteration resumed (`startPage`) with a larger size: the records before
    // the resume point are passed over, and the next request goes on from the resume point.
    const cap = servedPageSize(items.length, size, offset, total, servedPerPage, longest);
    longest = Math.max(longest, items.length);
    const servedFrom = cap === undefined ? offset : progress.page * cap;
    const fresh = servedFrom < offset ? items.slice(offset - servedFrom) : items;
    // The server counts more records than it serves (an empty page before `total`), or fewer (records it
    // served past `total`): records would be lost, or repeated. Checked before the page's records are yielded.
    // (A resume past the end, or a list that shrank, gets an empty page after `total`: it ends quietly.)
    const servedTo = servedFrom + items.length;
    if (total !== undefined && (items.length === 0 ? offset < total : servedTo > total)) {
      throw withProgressOn(totalMismatchError(items.length === 0 ? offset : servedTo, total), progress);
    }
    for (const item of fresh) yield item;
    offset = Math.max(offset, servedTo);
    last = fresh.at(-1) ?? last;
    let more: boolean;
    if (total !== undefined) {
      more = offset < total;
      // A short page while `total` says more: the server caps the page size. Go on
      // with pages no larger than its cap, on which the records read so far end.
      if (more && items.length < size) perPage = largestDivisor(offset, items.length);
    } else if (servedPerPage !== undefined && servedPerPage > 0 && servedPerPage < size && items.length === servedPerPage) {
      // A full page of a smaller size than asked: the server caps the page size. Go on
      // with pages no larger than its cap, on which the records read so far end.
      more = true;
      perPage = largestDivisor(offset, servedPerPage);
    } else more = items.length >= size;
    const atWindowEnd =
      more && window !== undefined && (serverPageSize !== undefined ? offset >= PAGING_WINDOW : pageSizeAt(offset, perPage) === 0);
    const asks = window?.onLimit === 'throw' || onPage !== undefined;
    // The check past the window follows the last reachable record: nothing is left to resume then.
    const endProgress = { yielded: offset - startOffset, page: Math.floor(offset / perPage), per_page: perPage };
    const limitReached = atWindowEnd && asks && last !== undefined && (await withProgress(window.hasMoreAfter(last), endProgress));
    // A page is reported done once its records were yielded (a capped page wholly before a resume point yields none).
    const finishedPage = fresh.length > 0 && offset % pageSize === 0;
    // The page of the last record yielded: a capping server's smaller requests may have crossed
    // into the next page since this request started, and a resume at `page + 1` must not repeat it.
    const reported = offset > startOffset ? Math.max(page, Math.floor((offset - 1) / pageSize)) : page;
    if (onPage && (!more || atWindowEnd || finishedPage)) await onPage({ page: reported, records: offset, total, limitReached });
    if (limitReached && window?.onLimit === 'throw') throw withProgressOn(new PagingLimitError(offset), endProgress);
    if (!more || atWindowEnd) return;
  }
}

/**
 * The page size the server used for a page smaller than asked, when it shows one: it
 * says so (`servedPerPage`), or, when it does not say, `total` says the page is not the
 * last one. `undefined` when the page is as asked (a server that says it used the size
 * asked placed the page there, however short), or is the last one.
 */
function servedPageSize(
  received: number,
  asked: number,
  offset: number,
  total: number | undefined,
  servedPerPage: number | undefined,
  longest: number,
): number | undefined {
  if (servedPerPage !== undefined && servedPerPage > 0) return servedPerPage < asked ? servedPerPage : undefined;
  // Not when an earlier page was longer: that server does not cap at `received` (its `total` is off).
  if (total !== undefined && longest <= received && received < asked && received !== total - offset) return received;
  return undefined;
}

/** `promise`, with `progress` set on an `IdPlatformError` it rejects with. */
async function withProgress<R>(promise: Promise<R>, progress: PagingProgress): Promise<R> {
  try {
    return await promise;
  } catch (error) {
    throw withProgressOn(error, progress);
  }
}

function withProgressOn(error: unknown, progress: PagingProgress): unknown {
  if (error instanceof IdPlatformError && error.progress === undefined) {
    Object.defineProperty(error, 'progress', { value: progress, enumerable: true, configurable: true, writable: true });
  }
  return error;
}

/** The `ResponseValidationError` of a page the iterator cannot place: one issue saying why (no body: the records were read). */
function unplaceablePage(code: string, path: readonly PropertyKey[], message: string): ResponseValidationError {
  return new ResponseValidationError([{ code, path, message }], undefined);
}

function pageMismatchError(served: number, asked: number): ResponseValidationError {
  return unplaceablePage(
    'custom',
    ['page'],
    `the server answered page ${served} for page ${asked}: it ignores page, so its records cannot be placed`,
  );
}

function totalMismatchError(offset: number, total: number): ResponseValidationError {
  return unplaceablePage(
    'custom',
    ['total'],
    offset > total
      ? `the server sent ${offset} records of a list it counts ${total} (it ignores page, or the list shrank while it was read): records would repeat`
      : `the server counts ${total} records but sent none past ${offset} (its count is off, or the list shrank while it was read): records could be lost`,
  );
}

function longPageError(received: number, asked: number): ResponseValidationError {
  return unplaceablePage(
    'too_big',
    [],
    `the server sent ${received} records for a page of ${asked} after the first page; it ignores per_page, so the next records cannot be located without loss`,
  );
}

/**
 * The page size for the request starting at `offset` inside the window: `perPage`
 * while whole pages fit, then the largest divisor of `offset` that fits in what is
 * left (so that `offset` is a page boundary); 0 when the window is used up.
 */
function pageSizeAt(offset: number, perPage: number): number {
  const room = PAGING_WINDOW - offset;
  if (room <= 0) return 0;
  return largestDivisor(offset, Math.min(perPage, room));
}

/** The largest page size ≤ `max` on which `offset` is a page boundary (0 is one of every size). */
function largestDivisor(offset: number, max: number): number {
  for (let size = max; size > 1; size--) if (offset % size === 0) return size;
  return 1;
}

/** The query a windowed list sends for one page: the caller's filters plus the page. */
export interface WindowedPageQuery {
  readonly page: number;
  readonly per_page: number;
  readonly sort?: string | undefined;
  readonly fields?: string | undefined;
  readonly include_fields?: boolean | undefined;
}

/**
 * A list of records with an `id` that the platform pages through up to the
 * 1000-record window, in a strict `sort` order (`field:1` / `field:-1`).
 */
export interface WindowedList<T extends { readonly id?: string | undefined }> {
  /** Records per request. */
  readonly perPage: number;
  readonly onLimit: OnPagingLimit;
  /** The caller's sort (sent as given; `undefined` leaves the server's default). */
  readonly sort?: string | undefined;
  /** The server's order when no `sort` is sent, e.g. `created_at:-1`: the probe reverses it. */
  readonly defaultSort: string;
  /** The caller's `fields` filter and whether it includes (default) or excludes the fields it names. */
  readonly fields?: string | undefined;
  readonly includeFields?: boolean | undefined;
  /** The page (of `perPage` records) to start at; `startPage * perPage` must be below the window. */
  readonly startPage?: number | undefined;
  /** Called after each completed page; see {@link PageProgress}. */
  readonly onPage?: OnPage | undefined;
  /** Fetches one page with this query (the caller's other filters added by the list), and the page size the server used when it says. */
  fetchPage(query: WindowedPageQuery): Promise<{ readonly items: readonly T[]; readonly servedPerPage?: number | undefined }>;
}

/** How many of the last-sorted records the check past the window asks for (the most one page holds). */
const PROBE_SIZE = 100;

/**
 * Yields every record of a windowed list, lazily (see {@link iteratePages}). When
 * the 1000 reachable records are used up it asks once whether more exist: the first
 * records of the reversed order are the last of all (up to 100, with `id` and the
 * sort field). One that was not yielded lies past the window, and `PagingLimitError`
 * is thrown (or the iterator stops with `onLimit: 'stop'`). The order may have ties
 * (invitations sent at the same instant, or by the same inviter): the ids fetched are
 * kept, so a tie at the end of the window is told apart from the records past it, as
 * long as the probe reaches past the last key's ties. When the 100 last-sorted records
 * were all yielded and all share one key, the probe cannot see past those ties; it
 * then counts on a strict order (ties broken the same way in both directions, as the
 * emulator does): more exist unless the reversed order's first record is the last
 * one yielded.
 *
 * The check compares ids, so every page asks for `id`; when the caller's `fields`
 * left it out, it is removed again from what is yielded.
 */
export function iterateWindowedList<T extends { readonly id?: string | undefined }>(
  list: WindowedList<T>,
): AsyncGenerator<T, void, undefined> {
  const { sort, includeFields } = list;
  const order = sort ?? list.defaultSort;
  const reversed = reverseSort(order);
  const sortPath = order.slice(0, order.lastIndexOf(':')).split('.');
  const listed = fieldList(list.fields);
  const hidesId = listed.length > 0 && (includeFields === false ? listed.includes('id') : !listed.includes('id'));
  const fields = hidesId ? withIdShown(listed, includeFields !== false) : list.fields;
  const fetched = new Set<string | undefined>();
  const records = iteratePages<T>({
    perPage: list.perPage,
    startPage: list.startPage,
    onPage: list.onPage,
    fetchPage: async (page, size) => {
      const answer = await list.fetchPage({ page, per_page: size, sort, fields, include_fields: includeFields });
      for (const record of answer.items) fetched.add(record.id);
      return answer;
    },
    window: {
      onLimit: list.onLimit,
      hasMoreAfter: async (last) => {
        const probeFields = sortPath[0] === 'id' ? 'id' : `id,${sortPath[0]}`;
        const answer = await list.fetchPage({ sort: reversed, page: 0, per_page: PROBE_SIZE, fields: probeFields });
        // With nothing past the window, the list's last records are the ones this iteration fetched
        // (it may have resumed late: records before its start are not among them).
        const items = answer.items.slice(0, fetched.size);
        if (items.some((record) => !fetched.has(record.id))) return true;
        if (items.length < PROBE_SIZE) return false;
        // All yielded: past the window lie at most ties of the last key, which the probe holds
        // whole unless all it holds are ties of that key. Then only a strict order (ties broken
        // the same way both ways) tells: its reversed first record is the last of all.
        const keyOf = (record: T | undefined) => JSON.stringify(depthBounded(valueAt(record, sortPath)));
        return keyOf(items[0]) === keyOf(items.at(-1)) && items[0]?.id !== last.id;
      },
    },
  });
  return hidesId ? withoutIds(records) : records;
}

/** The value at `path` (`['inviter', 'name']`) of `record`, or `undefined`. */
function valueAt(record: unknown, path: readonly string[]): unknown {
  let value = record;
  for (const name of path) value = typeof value === 'object' && value !== null ? (value as Record<string, unknown>)[name] : undefined;
  return value;
}

function fieldList(fields: string | undefined): string[] {
  return (fields ?? '')
    .split(',')
    .map((name) => name.trim())
    .filter(Boolean);
}

/** `fields` changed so that `id` is returned: added to an include list, dropped from an exclude list (empty then means all). */
function withIdShown(names: readonly string[], include: boolean): string | undefined {
  return include ? [...names, 'id'].join(',') : names.filter((name) => name !== 'id').join(',') || undefined;
}

async function* withoutIds<T extends { readonly id?: string | undefined }>(records: AsyncIterable<T>): AsyncGenerator<T, void, undefined> {
  for await (const { id: _id, ...record } of records) yield record as T;
}

/** `field:1` ↔ `field:-1`. */
function reverseSort(sort: string): string {
  return sort.endsWith(':-1') ? `${sort.slice(0, -3)}:1` : `${sort.slice(0, -2)}:-1`;
}
