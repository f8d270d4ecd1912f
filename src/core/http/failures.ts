import { type HttpResponseErrorDetails, isError, messageOf, NetworkError } from '../errors.js';
import { redact } from './redaction.js';
import type { Answer } from './sender.js';

/** What an error says of a redirect, which the SDK never follows. */
export const REDIRECT_REFUSED =
  'The server answered with a redirect, which the SDK does not follow: credentials and tokens are sent to the configured URL only. Is the domain or base URL right?';

/** The most links of a `cause` chain read for a network error's code and message. */
const MAX_CAUSE_LINKS = 8;

/**
 * The `NetworkError` of a request that got no answer: `what` (method, host, path) and the root cause, e.g. `GET 127.0.0.1:9 /api/v2/roles
 * failed: ECONNREFUSED (…)`. Its `cause` is the runtime's error, or a scrubbed copy when that could hold `secrets` or the request.
 */
export function networkError(what: string, error: unknown, secrets: readonly string[]): NetworkError {
  const chain: unknown[] = [];
  for (
    let link = error;
    link !== undefined && chain.length < MAX_CAUSE_LINKS && !chain.includes(link);
    link = isError(link) ? link.cause : undefined
  ) {
    chain.push(link);
  }
  const code = chain.map((link) => (link as { code?: unknown } | null)?.code).findLast((each) => typeof each === 'string' && each !== '');
  const detail = messageOf(chain.findLast((link) => isError(link) && link.message !== '') ?? error);
  const message = `${what} failed: ${code ? `${code} (${detail})` : detail}`;
  // What a copy or a logger would show of each link: its message, stack and string members (`code`, `syscall`).
  const shown = chain
    .map((link) =>
      (isError(link) ? [link.message, link.stack, ...Object.values(link).filter((v) => typeof v === 'string')] : [messageOf(link)]).join(
        '\n',
      ),
    )
    .join('\n');
  const kept = redact(shown, secrets) === shown && chain.every(isPlainError);
  return new NetworkError(redact(message, secrets), { cause: kept ? error : scrubbed(chain, secrets) });
}

/** A runtime's system-error members: all an error of its own network failures carries besides a message. */
const PLAIN_ERROR_MEMBERS: ReadonlySet<PropertyKey> = new Set([
  'stack',
  'message',
  'cause',
  'name',
  'code',
  'errno',
  'syscall',
  'address',
  'port',
  'hostname',
]);

/** An error with no member that could hold the request (a custom fetch may attach it, with its headers). */
function isPlainError(link: unknown): boolean {
  return (
    link instanceof Error &&
    !(link instanceof AggregateError) &&
    Reflect.ownKeys(link).every((key) => PLAIN_ERROR_MEMBERS.has(key) && (key === 'cause' || typeof Reflect.get(link, key) !== 'object'))
  );
}

/** Plain `Error` copies of a cause chain, their messages scrubbed of `secrets`, and their `code` kept. */
function scrubbed(chain: readonly unknown[], secrets: readonly string[]): Error | undefined {
  let cause: Error | undefined;
  for (const link of [...chain].reverse()) {
    const copy = new Error(redact(messageOf(link), secrets), cause && { cause });
    const { code, name } = link as { code?: unknown; name?: unknown };
    if (typeof code === 'string') Object.assign(copy, { code: redact(code, secrets) });
    if (typeof name === 'string') copy.name = redact(name, secrets);
    cause = copy;
  }
  return cause;
}

/** Whether `response` is a redirect: a 3xx, or the opaque redirect (status 0) a browser hands over for it. */
function isRedirect(response: Response): boolean {
  return response.type === 'opaqueredirect' || (response.status >= 300 && response.status < 400);
}

/** A failed answer read for an error of either API, scrubbed of `secrets` wherever a server could echo them. */
export function readFailed({ response, body: received, rateLimit }: Answer, secrets: readonly string[]) {
  const body = redact(received, secrets);
  const fields = typeof body === 'object' && body !== null ? (body as Record<string, unknown>) : {};
  const headers = redact(Object.fromEntries(response.headers), secrets);
  // Cookies are credentials (a session or device cookie) that errors must not carry into logs.
  delete headers['set-cookie'];
  const details: Omit<HttpResponseErrorDetails, 'error'> = { status: response.status, body, headers, rateLimit };
  return {
    details,
    statusText: redact(response.statusText, secrets) || `HTTP ${response.status}`,
    redirected: isRedirect(response),
    /** A non-empty string member of a JSON body. */
    member: (name: string) => {
      const value = fields[name];
      return typeof value === 'string' && value !== '' ? value : undefined;
    },
  };
}
