import * as z from 'zod/mini';
import { IdPlatformError } from './errors.js';

/** `page`: the page index of the platform's offset-paged lists, an integer from 0. */
export const PageSchema = z.int('page must be an integer').check(z.minimum(0, 'page must be >= 0'));

/** `per_page`: records per page of the platform's offset-paged lists, an integer from 1 to 100. */
export const PerPageSchema = z
  .int('per_page must be an integer')
  .check(z.minimum(1, 'per_page must be between 1 and 100'), z.maximum(100, 'per_page must be between 1 and 100'));

/** How many records paging can reach on the lists that limit it: the platform refuses pages past the first 1000 records. */
export const PAGING_WINDOW = 1000;

/** The platform's explanation when a page reaches past the first 1000 records; the client says the same. */
export const PAGING_WINDOW_MESSAGE = `Requesting page exceeds the allowed maximum of ${PAGING_WINDOW} records`;

/** Whether an iterator may start at page `page` of `perPage` records: its first record is among the first 1000. */
export function isResumableInPagingWindow(page: number, perPage: number): boolean {
  return page * perPage < PAGING_WINDOW;
}

/** Whether the platform serves page `page` of `perPage` records: all of it lies within the first 1000 (`(page + 1) * perPage <= 1000`). */
export function isWithinPagingWindow(page: number, perPage: number): boolean {
  return (page + 1) * perPage <= PAGING_WINDOW;
}

/** What an iterator does when it has yielded the first 1000 records and more remain: throw `PagingLimitError`, or stop quietly. */
export type OnPagingLimit = 'throw' | 'stop';

/** What an iterator's `onPage` is told once a page's records were yielded and consumed: for progress, and checkpoints to resume from. */
export interface PageProgress {
  /** The page just completed, in pages of the iterator's `per_page`, from 0: pass `page + 1` as `page` to resume after it. */
  readonly page: number;
  /** How far into the list the iterator got: the records on this and every earlier page (skipped ones included). */
  readonly records: number;
  /** The server's count of all records, when it sends one. */
  readonly total?: number | undefined;
  /** `true` on the last call when the server holds records past the first 1000 (with `onLimit: 'throw'`, `PagingLimitError` follows). */
  readonly limitReached: boolean;
}

/** A callback told about every completed page; the iterator waits for a promise it returns. */
export type OnPage = (progress: PageProgress) => void | Promise<void>;

/** An iterator's `onPage` parameter: a function. */
export const OnPageSchema = z.custom<OnPage>((value) => typeof value === 'function', 'onPage must be a function');

/** An iterator whose code, a chunk apps that never iterate never load, loads on its first `next()` and is passed to `start`. */
export function lazyIterator<T>(start: (code: typeof import('./paging/iterate.js')) => AsyncIterable<T>): AsyncIterableIterator<T> {
  return (async function* () {
    const code = await import('./paging/iterate.js').catch((error: unknown) => {
      throw new IdPlatformError('The iterator could not load its code', { cause: error });
    });
    yield* start(code);
  })();
}
