import { NetworkError } from './errors.js';
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
  for (let current = error; current instanceof Error && !seen.has(current); current = current.cause) {
    seen.add(current);
    const own = (current as { code?: unknown }).code;
    if (typeof own === 'string' && own !== '') code = own;
  }
  return code;
}

/**
 * Wraps `fetch` so that a failure to send (a `TypeError`, e.g. undici's "fetch
 * failed") becomes a `NetworkError` whose message names the method, the host, the
 * path and the root cause code: `GET 127.0.0.1:9 /api/v2/roles failed: ECONNREFUSED
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
      if (!(error instanceof TypeError)) throw error;
      throw new NetworkError(describeFailure(input, error), { cause: error });
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

function describeFailure(input: Request, error: TypeError): string {
  const url = new URL(input.url);
  const code = rootCauseCode(error);
  const detail = deepestMessage(error);
  const reason = code ? `${code} (${detail})` : detail;
  return `${input.method} ${url.host} ${url.pathname} failed: ${reason}`;
}

function deepestMessage(error: Error): string {
  let message = error.message;
  const seen = new Set<unknown>();
  for (let current: unknown = error; current instanceof Error && !seen.has(current); current = current.cause) {
    seen.add(current);
    if (current.message) message = current.message;
  }
  return message;
}

/** The most links of a `cause` chain that {@link withoutSecrets} reads and copies. */
const MAX_CAUSE_LINKS = 8;

/**
 * `failure` with none of `secrets` (the attempt's credentials: token, client secret,
 * assertion, password) in its message or `cause` chain. A custom `fetch` may write
 * the request into its error (`request failed (authorization: Bearer …)`, `body=…`);
 * such a failure is rebuilt with its message scrubbed and, in place of its cause,
 * plain `Error` copies of the chain (name, scrubbed message, `code`), so that no
 * logger that walks `cause` finds the original. A failure that quotes no secret is
 * returned as it is.
 */
export function withoutSecrets(failure: NetworkError, secrets: readonly string[]): NetworkError {
  const chain = causeChain(failure.cause);
  // A chain cut at its limit may hold more than was read: copied too.
  const clean = !quotes(failure.message, secrets) && chain.length < MAX_CAUSE_LINKS && !chain.some((link) => mayQuote(link, secrets));
  if (clean) return failure;
  const cause = scrubbedChain(chain, secrets);
  return new NetworkError(redact(failure.message, secrets), cause === undefined ? undefined : { cause });
}

/** The errors of a `cause` chain, outermost first (at most {@link MAX_CAUSE_LINKS}, no cycle). */
function causeChain(cause: unknown): Error[] {
  const chain: Error[] = [];
  for (
    let current = cause;
    current instanceof Error && !chain.includes(current) && chain.length < MAX_CAUSE_LINKS;
    current = current.cause
  ) {
    chain.push(current);
  }
  return chain;
}

function quotes(text: string, secrets: readonly string[]): boolean {
  return redact(text, secrets) !== text;
}

/** Whether what a logger may print of `error` (message, stack, own enumerable members) quotes a secret. */
function mayQuote(error: Error, secrets: readonly string[]): boolean {
  try {
    return quotes(`${error.message}\n${String(error.stack)}\n${JSON.stringify(error) ?? ''}`, secrets);
  } catch {
    return true; // a member that cannot be read or serialized: copied, whatever it held
  }
}

/** Plain copies of `chain` (name, scrubbed message, string or number `code`), linked as causes. */
function scrubbedChain(chain: readonly Error[], secrets: readonly string[]): Error | undefined {
  let copy: Error | undefined;
  for (const link of [...chain].reverse()) {
    const scrubbed: Error & { code?: string | number } = new Error('', copy === undefined ? undefined : { cause: copy });
    try {
      scrubbed.message = redact(String(link.message), secrets);
      scrubbed.name = redact(String(link.name), secrets);
      const { code } = link as { code?: unknown };
      if (typeof code === 'string' || typeof code === 'number') scrubbed.code = redact(code, secrets);
    } catch {
      scrubbed.message = '[an error whose members could not be read]';
    }
    copy = scrubbed;
  }
  return copy;
}
