import type { KyInstance, Options as KyOptions } from 'ky';
import { VERSION } from '../../version.js';
import { type Clock, MAX_TIMER_MS, timeoutAfter, untilAborted, whenAborted } from '../clock.js';
import { IdPlatformError, messageOf, RequestValidationError } from '../errors.js';
import { loadOnce } from '../load-once.js';
import type { FetchLike, RequestOptions, ResponseInfo } from '../options.js';
import { isValidTimeout, type RetryPolicy, resolveRetryPolicy, runtimeName } from '../options.js';
import { networkError } from './failures.js';
import { checkedHeaders } from './headers.js';
import { parseRateLimit, type RateLimit } from './rate-limit.js';
import { withRetry } from './retry.js';

/** What a {@link Sender} is built with: one per API of a client. */
export interface SenderSettings {
  /** The API's root, e.g. `https://acme.example.com/api/v2`. */
  readonly prefixUrl: string;
  readonly fetch?: FetchLike | undefined;
  /** The client's `headers` option, checked. */
  readonly headers?: Readonly<Record<string, string>> | undefined;
  readonly timeoutMs: number;
  readonly retry: RetryPolicy;
  readonly clock: Clock;
  readonly onResponse?: ((info: ResponseInfo) => void) | undefined;
}

/** What one attempt sends besides the method and path, and the credentials in it (kept out of errors). */
export interface Prepared {
  readonly headers?: Readonly<Record<string, string>> | undefined;
  readonly body?: { readonly json: unknown } | { readonly form: URLSearchParams } | undefined;
  readonly secrets: readonly string[];
}

/** A response with its body read: parsed JSON when it is JSON, else the text (`undefined` when empty). */
export interface Answer {
  readonly response: Response;
  readonly body: unknown;
  readonly rateLimit: RateLimit | undefined;
}

/** Answered by {@link SenderCall.read} to send the call once more at once (a 401 replayed with a new token). */
export const SEND_AGAIN: unique symbol = Symbol('send again');

/** One call, as an API's client describes it to the sender. */
export interface SenderCall<T> {
  readonly method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  /** Below the prefix URL, without a leading slash. */
  readonly path: string;
  readonly query?: URLSearchParams | undefined;
  readonly options?: RequestOptions | undefined;
  /** Before each attempt's timer starts: waits the call's timeout does not bound (pacing). */
  readonly before?: ((options: CheckedOptions) => void | Promise<void>) | undefined;
  /** Builds each attempt's headers and body afresh (a token, a client assertion), within its timer. */
  prepare(signal: AbortSignal): Prepared | Promise<Prepared>;
  /** The result of an answer, or the error it becomes: the part that differs between the APIs. */
  read(answer: Answer, prepared: Prepared): T | typeof SEND_AGAIN | Promise<T | typeof SEND_AGAIN>;
}

/** A call's options, checked once: its signal, its own timeout, headers and retry policy. */
export interface CheckedOptions {
  readonly signal: AbortSignal | undefined;
  readonly timeoutMs: number;
  readonly headers: Readonly<Record<string, string>> | undefined;
  readonly policy: RetryPolicy;
}

const FORM = 'application/x-www-form-urlencoded;charset=UTF-8';
/** ky, loaded with the first request: its feature checks build a `Request`, which makes Node load its fetch (about 40 ms) at once. */
const loadKy = loadOnce(() => import('ky').then((module) => module.default));
const IDEMPOTENT: ReadonlySet<string> = new Set(['GET', 'PUT', 'DELETE']);

/**
 * Sends every request of both clients: options checked once, then the retry loop around attempts, each under one timer covering the
 * token or client authentication, the exchange and the body. Redirects are never followed: credentials only go to the configured URL.
 */
export class Sender {
  readonly #settings: SenderSettings;
  readonly #kyOptions: KyOptions;
  #http: KyInstance | undefined;
  readonly #host: string;
  /** The options of a call that passes none: the client's, checked when it was built. */
  readonly #clientOptions: CheckedOptions;

  constructor(settings: SenderSettings) {
    this.#settings = settings;
    this.#host = new URL(settings.prefixUrl).host;
    this.#clientOptions = { signal: undefined, timeoutMs: settings.timeoutMs, headers: undefined, policy: settings.retry };
    const userAgent = runtimeName();
    this.#kyOptions = {
      prefixUrl: settings.prefixUrl,
      headers: {
        accept: 'application/json',
        ...(userAgent && { 'user-agent': `idplatform/${VERSION} ${userAgent}` }),
        ...settings.headers,
      },
      // The SDK's own: ky's stop at the response's headers, and cannot throw at once on a long `X-RateLimit-Reset`.
      retry: 0,
      timeout: false,
      throwHttpErrors: false,
      redirect: 'manual',
    };
  }

  /** The client's ky instance, made once ky has loaded; a failed load (a chunk lost offline) is tried again by the next call. */
  async #loadHttp(): Promise<KyInstance> {
    const ky = await loadKy().catch((error: unknown) => {
      throw new IdPlatformError(`The SDK could not load its HTTP client: ${messageOf(error)}`, { cause: error });
    });
    this.#http ??= ky.create(this.#kyOptions);
    return this.#http;
  }

  /** Checks a call's options (`RequestValidationError`, nothing sent), as a call would. */
  checkOptions(options: RequestOptions | undefined): CheckedOptions {
    // `null` from plain JavaScript reads as none given.
    if (options === undefined || options === null) return this.#clientOptions;
    const { signal, headers, retry } = options;
    const timeoutMs = options.timeoutMs ?? this.#settings.timeoutMs;
    if (signal !== undefined && !isAbortSignal(signal)) throw optionError('invalid_type', 'signal', 'signal must be an AbortSignal');
    if (!isValidTimeout(timeoutMs))
      throw optionError('invalid_timeout', 'timeoutMs', `timeoutMs must be a number of milliseconds from 1 to ${MAX_TIMER_MS}`);
    const policy =
      retry === undefined ? this.#settings.retry : resolveRetryPolicy(retry, (message) => optionError('invalid_retry', 'retry', message));
    return { signal, timeoutMs, headers: headers === undefined ? undefined : checkedHeaders(headers), policy };
  }

  /** Sends `call` through the retry loop and resolves with what its `read` makes of the answer. */
  async send<T>(call: SenderCall<T>): Promise<T> {
    const options = this.checkOptions(call.options);
    const { signal, policy } = options;
    const attempt = async (): Promise<T> => {
      while (true) {
        const waiting = call.before?.(options);
        if (waiting) await waiting; // a bucket with room answers at once: no turn of the event loop
        const result = await this.#attempt(call, options);
        if (result !== SEND_AGAIN) return result;
      }
    };
    return withRetry(attempt, { policy, clock: this.#settings.clock, idempotent: IDEMPOTENT.has(call.method), signal });
  }

  /** A plain `GET` for a library that reads the response itself (jose's key set), with the client's fetch, headers and `onResponse`. */
  async fetch(path: string, signal: AbortSignal): Promise<Response> {
    try {
      // Also ends a custom fetch that ignores signals: the key set's fetch is shared and must not hang for good.
      const answered = this.#loadHttp().then((http) => http(path, { fetch: this.#fetchUntil(signal) }));
      const response = await untilAborted(answered, signal);
      const { onResponse } = this.#settings;
      if (onResponse)
        tellResponse(onResponse, { method: 'GET', path: `/${path}`, status: response.status, rateLimit: parseRateLimit(response.headers) });
      return response;
    } catch (error) {
      if (signal.aborted || error instanceof IdPlatformError) throw error;
      throw networkError(`GET ${this.#host} /${path}`, error, []);
    }
  }

  /** A fetch that aborts on `signal`, which ky is not given: ky would join it to a signal of its own with `AbortSignal.any` every time. */
  #fetchUntil(signal: AbortSignal): typeof fetch {
    return (input, init) => (this.#settings.fetch ?? globalThis.fetch)(input as Request, { ...init, signal });
  }

  async #attempt<T>(call: SenderCall<T>, { signal, timeoutMs, headers }: CheckedOptions): Promise<T | typeof SEND_AGAIN> {
    // Aborted while the call waited (pacing, a 401's replay): a listener added now would never hear it.
    if (signal?.aborted) throw signal.reason;
    const { method, path } = call;
    const attempt = new AbortController();
    // Rejects when the attempt is cut short: each step races it, so a preparation, fetch or body that ignores the signal ends too.
    let cutShort!: (reason: unknown) => void;
    const stopped = new Promise<never>((_, reject) => {
      cutShort = (reason) => {
        attempt.abort(reason);
        reject(reason);
      };
    });
    stopped.catch(ignore);
    const timer = setTimeout(() => cutShort(timeoutAfter(timeoutMs, `${method} /${path} timed out after ${timeoutMs} ms`)), timeoutMs);
    const unlink = signal && whenAborted(signal, () => cutShort(signal.reason));
    try {
      const prepared = await Promise.race([call.prepare(attempt.signal), stopped]);
      const { body } = prepared;
      const http = this.#http ?? (await Promise.race([this.#loadHttp(), stopped]));
      const exchange = http(call.query?.size ? `${path}?${call.query}` : path, {
        method,
        // The body's own type, whatever `Content-Type` the caller's headers name.
        headers:
          body === undefined
            ? { ...headers, ...prepared.headers }
            : { ...headers, ...prepared.headers, 'content-type': 'json' in body ? 'application/json' : FORM },
        ...(body !== undefined && ('json' in body ? { json: body.json } : { body: body.form })),
        fetch: this.#fetchUntil(attempt.signal),
      }).then(async (response) => {
        if (attempt.signal.aborted) {
          // A fetch that ignores signals answered late: its body is cancelled, so the runtime closes the connection.
          response.body?.cancel().catch(ignore);
          throw attempt.signal.reason;
        }
        return [response, await response.text()] as const;
      });
      let response: Response;
      let text: string;
      try {
        [response, text] = await Promise.race([exchange, stopped]);
      } catch (error) {
        // No answer: whatever fetch or the body's stream threw, an SDK error of a custom fetch's too.
        // Aborted: by the caller (the reason, thrown below) or by the timer (its TimeoutError).
        if (attempt.signal.aborted) throw attempt.signal.reason;
        throw networkError(`${method} ${this.#host} ${new URL(path, `${this.#settings.prefixUrl}/`).pathname}`, error, prepared.secrets);
      }
      const answer: Answer = { response, body: parseBody(text), rateLimit: parseRateLimit(response.headers) };
      const { onResponse } = this.#settings;
      if (onResponse) tellResponse(onResponse, { method, path: `/${path}`, status: response.status, rateLimit: answer.rateLimit });
      return await call.read(answer, prepared);
    } finally {
      clearTimeout(timer);
      unlink?.();
    }
  }
}

/** An `AbortSignal`, also one of another realm (a test environment's), which `instanceof` misses. */
function isAbortSignal(value: unknown): value is AbortSignal {
  return value instanceof AbortSignal || Object.prototype.toString.call(value) === '[object AbortSignal]';
}

function optionError(code: string, name: string, message: string): RequestValidationError {
  return new RequestValidationError([{ code, path: [name], message }]);
}

function ignore(): void {}

function parseBody(text: string): unknown {
  if (text === '') return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

/** Calls `onResponse`: a hook that throws fails the call (not retried, its error as `cause`); an async hook's promise is ignored. */
function tellResponse(onResponse: (info: ResponseInfo) => void, info: ResponseInfo): void {
  try {
    const answer: unknown = onResponse(info);
    if (answer instanceof Promise) answer.catch(ignore);
  } catch (error) {
    throw new IdPlatformError('The onResponse hook threw', { cause: error });
  }
}
