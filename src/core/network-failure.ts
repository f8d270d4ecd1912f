import { NetworkError } from './errors.js';
import type { FetchLike } from './http.js';
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
