import { ResponseValidationError } from './errors.js';

/**
 * The largest response body the SDK reads: 4 MiB. A page of 100 invitations is
 * about 100 KiB; a larger body is a proxy's error page or a fault, and reading it
 * whole could exhaust memory. A body over the limit (by `Content-Length` or as it
 * streams in) is cancelled and the call fails with `ResponseValidationError`.
 */
export const MAX_RESPONSE_BODY_BYTES = 4 * 1024 * 1024;

/** Decodes UTF-8 like `Response.text()` (a byte order mark dropped, bad bytes replaced); stateless, so shared. */
const utf8 = new TextDecoder();

/**
 * One response body being read, bounded in size and nesting, that its caller can
 * {@link BodyRead.stop | stop}. The body is read through the stream's own reader, so
 * that stopping cancels the stream: the runtime then closes the connection instead
 * of reading on in the background (`Response.body.cancel()` cannot do that while
 * `Response.text()` holds the stream).
 */
export class BodyRead {
  /**
   * Parsed JSON when the body is JSON, else the text; `undefined` when empty. The
   * body is handed over as `JSON.parse` builds it, however deep (the parser of every
   * runtime the SDK supports does not recurse, and the body is at most 4 MiB): the
   * SDK's own code never recurses through it unbounded (schema checks go as deep as
   * the schema; a body in an error is cut at 64 levels, see `redact`).
   */
  readonly result: Promise<unknown>;
  #reader: ReadableStreamDefaultReader<Uint8Array> | undefined;
  #stopped: { readonly reason: unknown } | undefined;

  /** Starts reading; whatever goes wrong (even a `response` that is not one) rejects {@link result}, never throws. */
  constructor(response: Response) {
    this.result = this.#read(response);
    // The read may be given up on (stopped) with nobody left to await it: never an unhandled rejection.
    this.result.catch(() => {});
  }

  /**
   * Stops the read: the stream is cancelled and {@link result} rejects with `reason`,
   * unless the body has been read whole already (or there is none, as in a 204, or
   * it was refused by its `Content-Length`).
   */
  stop(reason: unknown): void {
    if (this.#stopped) return;
    this.#stopped = { reason };
    this.#reader?.cancel().catch(() => {});
  }

  async #read(response: Response): Promise<unknown> {
    // A declared size over the limit is refused unread. Bytes are counted as they stream in as
    // well: a compressed body's `Content-Length` is its compressed size, not what it inflates to.
    if (Number(response.headers.get('content-length') ?? '0') > MAX_RESPONSE_BODY_BYTES) {
      discardBody(response);
      throw tooLarge(response.status);
    }
    if (response.body === null) return undefined;
    // Taken before the first `await`, so that `stop` can cancel it from then on (it throws,
    // and the read rejects, when a custom fetch hands over a body already read).
    const reader = response.body.getReader();
    this.#reader = reader;
    const chunks: Uint8Array[] = [];
    let size = 0;
    try {
      while (true) {
        const { done, value } = await reader.read();
        if (this.#stopped) throw this.#stopped.reason;
        if (done) break;
        size += value.byteLength;
        if (size > MAX_RESPONSE_BODY_BYTES) {
          reader.cancel().catch(() => {});
          throw tooLarge(response.status);
        }
        chunks.push(value);
      }
    } catch (error) {
      throw this.#stopped ? this.#stopped.reason : error;
    }
    return parseBody(utf8.decode(chunks.length === 1 ? chunks[0] : concat(chunks, size)));
  }
}

/** Cancels a body that will not be read (the runtime then closes its connection); never throws or rejects. */
export function discardBody(response: Response): void {
  response.body?.cancel().catch(() => {});
}

function parseBody(text: string): unknown {
  if (text === '') return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

function concat(chunks: readonly Uint8Array[], size: number): Uint8Array {
  const bytes = new Uint8Array(size);
  let offset = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return bytes;
}

function tooLarge(status: number): ResponseValidationError {
  return new ResponseValidationError(
    [{ code: 'too_big', path: [], message: `the response body (HTTP ${status}) is larger than ${MAX_RESPONSE_BODY_BYTES} bytes` }],
    undefined,
  );
}
