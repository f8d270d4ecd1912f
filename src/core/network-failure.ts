import { isError, messageOf, NetworkError } from './errors.js';
import type { FetchLike } from './http.js';
import { redact } from './redaction.js';
import { discardBody } from './response-body.js';

/**
 * The code of the deepest error in a `cause` chain that has one: what undici's
 * "fetch failed" hides, e.g. `ECONNREFUSED`, `ENOTFOUND`, `UND_ERR_CONNECT_TIMEOUT`
 * or a TLS code such as `CERT_HAS_EXPIRED` / `DEPTH_ZERO_SELF_SIGNED_CERT`.
 */
export function rootCauseCode(error: unknown): string | undefined {
  let code: string | undefined;
  const seen = new Set<unknown>();
  for (let current = error; isError(current) && !seen.has(current); current = current.cause) {
    seen.add(current);
    const own = (current as { code?: unknown }).code;
    if (typeof own === 'string' && own !== '') code = own;
  }
  return code;
}

/**
 * Wraps `fetch` so that a failure to send (a `TypeError`, e.g. undici's "fetch
 * failed", or whatever a custom fetch throws) becomes a `NetworkError` whose
 * message names the method, the host, the path and the root cause code: `GET 127.0.0.1:9 /api/v2/roles failed: ECONNREFUSED
 * (connect ECONNREFUSED 127.0.0.1:9)`. The runtime's error is kept as `cause`; the
 * request (and so its headers) never is. The fetch is looked up at call time.
 *
 * A response that arrives after the request was given up on (its signal aborted by
 * ky's timeout or the caller: only a custom fetch that ignores signals answers then)
 * has its body cancelled, so that its connection is not left open, unread.
 */
export function reportingNetworkFailures(fetch: FetchLike | undefined): FetchLike {
  return (input, init) => {
    const failed = (error: unknown): never => {
      // Given up on (ky's timeout, the caller's signal): the abort's own error, which ky and the exchange read.
      if (input.signal.aborted) throw error;
      // Whatever else fetch throws (a TypeError such as undici's "fetch failed", a custom fetch's own error,
      // an SDK error it threw: no answer of the server, and it may quote the request) is a NetworkError
      // naming the host, which the exchange scrubs of secrets.
      throw networkFailure(describeFailure(input, error), error);
    };
    try {
      return Promise.resolve((fetch ?? globalThis.fetch)(input, init)).then((response) => {
        if (input.signal.aborted && response) discardBody(response); // a custom fetch may hand over anything
        return response;
      }, failed);
    } catch (error) {
      return failed(error); // a custom fetch that throws instead of rejecting
    }
  };
}

function describeFailure(input: Request, error: unknown): string {
  const url = new URL(input.url);
  const code = rootCauseCode(error);
  const detail = isError(error) ? deepestMessage(error) : messageOf(error);
  const reason = code ? `${code} (${detail})` : detail;
  return `${input.method} ${url.host} ${url.pathname} failed: ${reason}`;
}

function deepestMessage(error: Error): string {
  let message = error.message;
  const seen = new Set<unknown>();
  for (let current: unknown = error; isError(current) && !seen.has(current); current = current.cause) {
    seen.add(current);
    if (current.message) message = current.message;
  }
  return message;
}

/** The full text of each {@link networkFailure}'s message, before the error bounded it. */
const fullMessages = new WeakMap<NetworkError, string>();

/**
 * A `NetworkError` saying `message`, with `cause`. {@link withoutSecrets} scrubs the
 * full `message`, not the one the error keeps (cut at 2,000 characters, which could
 * cut a quoted secret in two, leaving a part that no longer matches it).
 */
export function networkFailure(message: string, cause: unknown): NetworkError {
  const failure = new NetworkError(message, { cause });
  fullMessages.set(failure, message);
  return failure;
}

/** The most links of a `cause` chain that {@link withoutSecrets} reads and copies. */
const MAX_CAUSE_LINKS = 8;

/** A runtime's system-error members (Node's, undici's): kept, scrubbed, on the copies of a chain. */
const SYSTEM_MEMBERS = ['code', 'errno', 'syscall', 'address', 'port', 'hostname'] as const;

/**
 * The members of a runtime's own network errors: an error with other members may
 * carry anything (a `Request`, its `Headers`, a list of errors) and is never passed
 * on as it is.
 */
const PLAIN_ERROR_MEMBERS: ReadonlySet<string> = new Set(['stack', 'message', 'cause', 'name', ...SYSTEM_MEMBERS]);

/**
 * `failure` with none of `secrets` (the attempt's credentials: token, client secret,
 * assertion, password) in its message or `cause` chain. A custom `fetch` may write
 * the request into its error (`request failed (authorization: Bearer …)`, `body=…`)
 * or attach it (`error.request`, `error.headers`). The original chain is kept only
 * when each of its links is a plain error of this realm (no members but a message,
 * a stack, a cause and a system error's `code`, `errno`, `syscall`, `address`,
 * `port`, `hostname`), quoting no secret, and it ends within 8 links; otherwise the
 * failure is rebuilt with its message scrubbed and, as its cause, plain `Error`
 * copies of the chain (name, scrubbed message, those system members).
 */
export function withoutSecrets(failure: NetworkError, secrets: readonly string[]): NetworkError {
  const message = fullMessages.get(failure) ?? failure.message;
  const { links, complete } = causeChain(failure.cause);
  if (!quotes(message, secrets) && complete && links.every((link) => isPlainErrorQuotingNothing(link, secrets))) return failure;
  let cause: Error | undefined;
  for (const link of links.reverse()) cause = scrubbedCopy(link, secrets, cause);
  return networkFailure(redact(message, secrets), cause);
}

function quotes(text: string, secrets: readonly string[]): boolean {
  return redact(text, secrets) !== text;
}

/**
 * The links of the `cause` chain from `cause` (errors or not), at most
 * {@link MAX_CAUSE_LINKS}; `complete` when the chain ended there (no cycle, no
 * link past the limit, no member that could not be read).
 */
function causeChain(cause: unknown): { links: unknown[]; complete: boolean } {
  const links: unknown[] = [];
  try {
    for (let link = cause; link !== undefined; link = (link as { cause?: unknown } | null)?.cause) {
      if (links.length >= MAX_CAUSE_LINKS || links.includes(link)) return { links, complete: false };
      links.push(link);
      if (typeof link !== 'object' || link === null) break;
    }
    return { links, complete: true };
  } catch {
    return { links, complete: false }; // a `cause` getter that throws
  }
}

/** Whether `link` is a plain error of this realm (see {@link withoutSecrets}) whose message and stack quote no secret. */
function isPlainErrorQuotingNothing(link: unknown, secrets: readonly string[]): boolean {
  try {
    if (!(link instanceof Error) || link instanceof AggregateError) return false;
    const plain = Reflect.ownKeys(link).every((key) => {
      if (typeof key !== 'string' || !PLAIN_ERROR_MEMBERS.has(key)) return false;
      const value: unknown = Reflect.get(link, key);
      return key === 'cause' || value === null || typeof value !== 'object';
    });
    // Every member a copy or `toJSON()` would show: the message, the stack, the name and the system members.
    const shown = [link.message, String(link.stack), link.name, ...SYSTEM_MEMBERS.map((key) => String(Reflect.get(link, key) ?? ''))];
    return plain && !quotes(shown.join('\n'), secrets);
  } catch {
    return false; // a member that could not be read: copied, whatever it held
  }
}

/**
 * A plain `Error` copy of one link (with `cause` as its cause): its name and message
 * and its system members (primitive values), scrubbed of `secrets`; a link that is
 * not an error becomes an `Error` saying so.
 */
function scrubbedCopy(link: unknown, secrets: readonly string[], cause: Error | undefined): Error {
  const copy = new Error('', cause === undefined ? undefined : { cause });
  try {
    const { name, message } = link as { name?: unknown; message?: unknown };
    if (typeof message !== 'string') {
      copy.message = `a ${link === null ? 'null' : typeof link} that is not an error`;
      return copy;
    }
    copy.message = redact(message, secrets);
    if (typeof name === 'string') copy.name = redact(name, secrets);
    for (const key of SYSTEM_MEMBERS) {
      const value: unknown = (link as Record<string, unknown>)[key];
      if (typeof value === 'string' || typeof value === 'number') Object.assign(copy, { [key]: redact(value, secrets) });
    }
  } catch {
    copy.message = '[an error whose members could not be read]';
  }
  return copy;
}
