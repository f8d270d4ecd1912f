import ky, { type KyInstance } from 'ky';
import { VERSION } from '../version.js';
import { type HttpResponseErrorDetails, IdPlatformError, NetworkError, RequestValidationError, TimeoutError } from './errors.js';
import { checkedClientHeaders, checkedHeaders } from './header-values.js';
import { isBrowser, isValidTimeout, MAX_TIMEOUT_MS } from './options.js';
import { parseRateLimit } from './rate-limit.js';
import { redact } from './redaction.js';
import { readBoundedBody } from './response-body.js';
import { checkSignal } from './signal.js';

/** A `fetch`-compatible function (the global one, an mTLS-aware one, or a test's). */
export type FetchLike = (input: Request, init?: RequestInit) => Promise<Response>;

/** Options of one HTTP exchange, below the retry loop. */
export interface HttpRequest {
  readonly method: string;
  /** Relative to the client's base URL, without a leading slash. */
  readonly path: string;
  readonly searchParams?: URLSearchParams | undefined;
  /** A JSON body or a form body; `undefined` for none. */
  readonly body?: { readonly json: unknown } | { readonly form: URLSearchParams } | undefined;
  readonly headers?: Readonly<Record<string, string>> | undefined;
  readonly timeoutMs: number;
  readonly signal?: AbortSignal | undefined;
}

/**
 * One ky instance for a client: its own retries and HTTP-error throwing off (the
 * SDK's retry loop and error mapping own those), `Accept: application/json`,
 * and a `User-Agent` where the runtime lets scripts set one (not in browsers).
 */
export function createHttpClient(options: {
  prefixUrl: string;
  fetch?: FetchLike | undefined;
  headers?: Readonly<Record<string, string>> | undefined;
}): KyInstance {
  return ky.create({
    prefixUrl: options.prefixUrl,
    retry: 0,
    throwHttpErrors: false,
    timeout: false,
    ...(options.fetch ? { fetch: options.fetch as typeof fetch } : {}),
    // Checked here: an invalid value would make the runtime throw an error quoting it.
    headers: { accept: 'application/json', ...userAgentHeader(), ...checkedClientHeaders(options.headers) },
  });
}

/** A response with its body read: parsed JSON when it is JSON, else the text (`undefined` when empty). */
export interface Exchange {
  readonly response: Response;
  readonly body: unknown;
}

/**
 * Sends one request and reads its body, whatever the status. `timeoutMs` covers
 * the whole exchange, body included; it rejects with `TimeoutError` when it runs
 * out, `NetworkError` when fetch fails, and the signal's reason when `signal`
 * aborts (even with a custom `fetch` that ignores signals). Errors never hold the
 * request (and so never its Authorization header).
 */
export async function exchange(http: KyInstance, request: HttpRequest): Promise<Exchange> {
  const { body, method, path, timeoutMs } = request;
  if (!isValidTimeout(timeoutMs)) {
    throw new RequestValidationError([
      { code: 'invalid_timeout', path: ['timeoutMs'], message: `timeoutMs must be a number of milliseconds from 1 to ${MAX_TIMEOUT_MS}` },
    ]);
  }
  checkSignal(request.signal);
  // Lower-case names, the last of a name winning: a caller's `Authorization` never merges with the SDK's.
  const headers = checkedHeaders(request.headers);
  // One controller ends the exchange: the timer aborts it, and so does the caller's signal.
  const controller = new AbortController();
  const { signal } = controller;
  const timer = setTimeout(() => controller.abort(new DOMException(`timed out after ${timeoutMs} ms`, 'TimeoutError')), timeoutMs);
  const caller = request.signal;
  const forwardAbort = () => controller.abort(caller?.reason);
  if (caller?.aborted) forwardAbort();
  else caller?.addEventListener('abort', forwardAbort, { once: true });
  const aborted = new Promise<never>((_, reject) => {
    if (signal.aborted) reject(signal.reason);
    else signal.addEventListener('abort', () => reject(signal.reason), { once: true });
  });
  const work = (async () => {
    const response = await http(path, {
      method,
      ...(request.searchParams ? { searchParams: request.searchParams } : {}),
      ...(body && 'json' in body ? { json: body.json } : {}),
      ...(body && 'form' in body ? { body: body.form } : {}),
      headers,
      signal,
    });
    return { response, body: await readBody(response) };
  })();
  work.catch(() => {}); // settled by the race below; a late failure after an abort is not news
  aborted.catch(() => {});
  try {
    return await Promise.race([work, aborted]);
  } catch (error) {
    if (caller?.aborted) throw caller.reason;
    if (signal.aborted) throw new TimeoutError(`${method} /${path} timed out after ${timeoutMs} ms`, { cause: signal.reason });
    if (error instanceof IdPlatformError) throw error;
    // Whatever else fetch (or a custom one) throws, TypeError or not, is a network failure.
    throw new NetworkError(`${method} /${path} failed: ${error instanceof Error ? error.message : String(error)}`, { cause: error });
  } finally {
    clearTimeout(timer);
    caller?.removeEventListener('abort', forwardAbort);
  }
}

/**
 * The body of a response: parsed JSON when it is JSON, else the text (`undefined` when empty).
 * Bounded in size and nesting: see `readBoundedBody`.
 */
export function readBody(response: Response): Promise<unknown> {
  return readBoundedBody(response);
}

/** Response headers as a plain object with lower-case names. */
export function headersToRecord(headers: Headers): Record<string, string> {
  return Object.fromEntries(headers.entries());
}

function userAgentHeader(): Record<string, string> {
  const node = (globalThis as { process?: { versions?: { node?: string } } }).process?.versions?.node;
  return node && !isBrowser() ? { 'user-agent': `idplatform/${VERSION} node/${node}` } : {};
}

/** A failed response read for an error: the common details, plus the body's text members. */
export interface FailedResponse extends Omit<HttpResponseErrorDetails, 'error'> {
  /** The status text, or `HTTP {status}` when there is none. */
  readonly statusText: string;
  /** A non-empty string member of a JSON body, or `undefined`. */
  member(name: string): string | undefined;
}

/**
 * Reads what an error needs from a non-2xx response, scrubbed of `secrets` wherever
 * a server could echo them: the body (keys too), the status text and the headers.
 */
export function readFailedResponse(response: Response, receivedBody: unknown, secrets: readonly string[]): FailedResponse {
  const body = redact(receivedBody, secrets);
  const fields = typeof body === 'object' && body !== null ? (body as Record<string, unknown>) : {};
  return {
    status: response.status,
    statusText: redact(response.statusText, secrets) || `HTTP ${response.status}`,
    body,
    headers: redact(headersToRecord(response.headers), secrets),
    rateLimit: parseRateLimit(response.headers),
    member: (name) => {
      const value = fields[name];
      return typeof value === 'string' && value !== '' ? value : undefined;
    },
  };
}
