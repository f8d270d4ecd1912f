import ky, { type KyInstance, type Options } from 'ky';
import { VERSION } from '../version.js';
import { timeoutAfter } from './deadline.js';
import { type HttpResponseErrorDetails, IdPlatformError, messageOf, NetworkError, type TimeoutError } from './errors.js';
import { networkFailure, reportingNetworkFailures, withoutSecrets } from './network-failure.js';
import { checkCallTimeout } from './options.js';
import { parseRateLimit } from './rate-limit.js';
import { redact } from './redaction.js';
import { BodyRead } from './response-body.js';
import { runtimeName } from './runtime.js';
import { checkSignal, untilAborted, whenAborted } from './signal.js';

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
  /** Checked by the caller (`checkedHeaders`): lower-case names, sendable values. */
  readonly headers?: Readonly<Record<string, string>> | undefined;
  readonly timeoutMs: number;
  readonly signal?: AbortSignal | undefined;
  /** The credentials this request carries (token, client secret, assertion, password): kept out of its errors. */
  readonly secrets?: readonly string[] | undefined;
}

/**
 * One ky instance for a client: its own retries and HTTP-error throwing off (the
 * SDK's retry loop and error mapping own those), `Accept: application/json`,
 * and a `User-Agent` where the runtime lets scripts set one (not in browsers).
 * Redirects are never followed (`redirect: 'manual'`): a 3xx answer is an error
 * (see {@link isRedirect}), so a body holding a client secret, a password or a
 * token, and the `Authorization` header, only ever go to the configured URL.
 * Each call sets ky's `timeout`.
 */
export function createHttpClient(options: {
  prefixUrl: string;
  fetch?: FetchLike | undefined;
  /** The client's `headers` option, checked by `resolveCommonOptions` (lower-case names, sendable values). */
  headers?: Readonly<Record<string, string>> | undefined;
}): KyInstance {
  return ky.create({
    prefixUrl: options.prefixUrl,
    retry: 0,
    throwHttpErrors: false,
    redirect: 'manual',
    // Failures to send become a NetworkError naming the method, host and root cause.
    fetch: reportingNetworkFailures(options.fetch) as typeof fetch,
    headers: { accept: 'application/json', ...userAgentHeader(), ...options.headers },
  });
}

/** The type of a form body, as `fetch` labels a `URLSearchParams` body. */
const FORM_CONTENT_TYPE = 'application/x-www-form-urlencoded;charset=UTF-8';

/** A response with its body read: parsed JSON when it is JSON, else the text (`undefined` when empty). */
export interface Exchange {
  readonly response: Response;
  readonly body: unknown;
}

/**
 * Sends one request and reads its body, whatever the status. `timeoutMs` covers
 * the whole exchange: ky's `timeout` until the response arrives, then the
 * exchange's deadline (the same `timeoutMs` from the start) while the body is read;
 * a body given up on (deadline or abort) is cancelled, even one that a custom fetch
 * ignoring signals hands over late, so the runtime closes its connection rather than
 * reading on. It rejects with `TimeoutError` when the time runs out, `NetworkError`
 * when fetch fails, and the signal's reason when `signal` aborts (even with a custom
 * `fetch` that ignores signals). Errors never hold the request (and so never its
 * Authorization header).
 */
export async function exchange(http: KyInstance, request: HttpRequest): Promise<Exchange> {
  const { body, method, path, timeoutMs, signal, headers } = request;
  checkCallTimeout(timeoutMs);
  checkSignal(signal);
  if (signal?.aborted) throw signal.reason;
  // One timer for the whole exchange, of the same duration as ky's (the runtime files timers of one
  // duration in one list, so it costs next to nothing); it matters once the body is being read.
  let expiredWith: TimeoutError | undefined;
  let read: BodyRead | undefined;
  const deadline = setTimeout(() => {
    expiredWith = timedOut(method, path, timeoutMs);
    read?.stop(expiredWith);
  }, timeoutMs);
  // ky gets a signal of this exchange's own, aborted with the caller's reason: ky makes an
  // `AbortSignal.any` of the signal it is given on every request, and Node 20 keeps an entry for
  // each on that signal for good (a long-lived caller's signal would grow with every call).
  const linked = signal && new AbortController();
  const unlink = signal && linked && whenAborted(signal, () => linked.abort(signal.reason));
  try {
    const query = request.searchParams?.toString();
    let response: Response;
    try {
      const options: Options = { method, timeout: timeoutMs };
      if (headers !== undefined) options.headers = headers;
      if (body !== undefined) {
        // The body's own type, whatever `Content-Type` the caller's headers (the client's or the call's) name.
        options.headers = { ...headers, 'content-type': 'json' in body ? 'application/json' : FORM_CONTENT_TYPE };
        if ('json' in body) options.json = body.json;
        else options.body = body.form;
      }
      if (linked) options.signal = linked.signal;
      const sent = http(query ? `${path}?${query}` : path, options);
      response = await (signal ? untilAborted(sent, signal) : sent);
    } catch (error) {
      if (isKyTimeout(error) && !signal?.aborted) throw timedOut(method, path, timeoutMs);
      throw exchangeFailure(error, signal, `${method} /${path} failed`, request.secrets);
    }
    read = new BodyRead(response);
    const reading = read;
    // The body is read until the caller aborts too: the stream is then cancelled (the connection closed, not read on).
    if (signal?.aborted) reading.stop(signal.reason);
    const stopReadingOnAbort = signal && whenAborted(signal, () => reading.stop(signal.reason));
    try {
      // The deadline passed while the response was on its way (ky's timer fires just after ours).
      if (expiredWith) throw expiredWith;
      return { response, body: await read.result };
    } catch (error) {
      read.stop(error); // the body is given up on: its stream is cancelled (nothing to do once read whole)
      throw exchangeFailure(error, signal, `${method} /${path} failed while reading the response`, request.secrets);
    } finally {
      stopReadingOnAbort?.();
    }
  } finally {
    clearTimeout(deadline);
    unlink?.();
  }
}

/**
 * The error of an exchange that failed, sending or reading: the signal's reason, the
 * SDK's own error (a timeout, a limit, a reported network failure), else a
 * `NetworkError` (whatever fetch, a custom one or the stream throws, TypeError or not).
 * A `NetworkError` never quotes the request's `secrets` (a custom fetch's error may).
 */
function exchangeFailure(error: unknown, signal: AbortSignal | undefined, failed: string, secrets: readonly string[] | undefined): unknown {
  if (signal?.aborted) return signal.reason;
  const failure = error instanceof IdPlatformError ? error : networkFailure(`${failed}: ${messageOf(error)}`, error);
  return failure instanceof NetworkError && secrets !== undefined ? withoutSecrets(failure, secrets) : failure;
}

/** ky's own `TimeoutError` (it holds the request, so it is never passed on). */
function isKyTimeout(error: unknown): boolean {
  return error instanceof Error && error.name === 'TimeoutError' && 'request' in error;
}

function timedOut(method: string, path: string, timeoutMs: number): TimeoutError {
  return timeoutAfter(timeoutMs, `${method} /${path} timed out after ${timeoutMs} ms`);
}

/**
 * Response headers as a plain object with lower-case names, for errors: without
 * `Set-Cookie`, whose cookies are credentials (a session or device cookie) that
 * errors must not carry into logs.
 */
export function headersToRecord(headers: Headers): Record<string, string> {
  const record = Object.fromEntries(headers.entries());
  delete record['set-cookie'];
  return record;
}

/**
 * Whether `response` is a redirect, which the SDK does not follow: a 3xx, or the
 * opaque redirect (status 0) a browser hands over for it.
 */
export function isRedirect(response: Response): boolean {
  return response.type === 'opaqueredirect' || (response.status >= 300 && response.status < 400);
}

/** What an error says of a redirect (see {@link createHttpClient}). */
export const REDIRECT_REFUSED =
  'The server answered with a redirect, which the SDK does not follow: credentials and tokens are sent to the configured URL only. Is the domain or base URL right?';

function userAgentHeader(): Record<string, string> {
  const runtime = runtimeName();
  return runtime ? { 'user-agent': `idplatform/${VERSION} ${runtime}` } : {};
}

/** A failed response read for an error: the common details, plus the body's text members. */
export interface FailedResponse extends Omit<HttpResponseErrorDetails, 'error'> {
  /** The status text, or `HTTP {status}` when there is none. */
  readonly statusText: string;
  /** The response is a redirect ({@link isRedirect}): its body and members say nothing of use. */
  readonly redirected: boolean;
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
    redirected: isRedirect(response),
    member: (name) => {
      const value = fields[name];
      return typeof value === 'string' && value !== '' ? value : undefined;
    },
  };
}
