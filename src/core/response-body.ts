import { ResponseValidationError } from './errors.js';

/**
 * The largest response body the SDK reads: 4 MiB. A page of 100 invitations is
 * about 100 KiB; a larger body is a proxy's error page or a fault, and reading it
 * whole could exhaust memory. A body over the limit (by `Content-Length` or as it
 * streams in) is cancelled and the call fails with `ResponseValidationError`.
 */
export const MAX_RESPONSE_BODY_BYTES = 4 * 1024 * 1024;

/**
 * The deepest JSON nesting the SDK keeps as parsed JSON: 64 levels. The spec's
 * bodies nest 4 levels (metadata is free-form, but flat in practice); a deeper
 * body is kept as its text, so that schema checks fail cleanly and no error,
 * redaction or logger recurses through it.
 */
export const MAX_JSON_DEPTH = 64;

/** The body of a response: parsed JSON when it is JSON (and no deeper than {@link MAX_JSON_DEPTH}), else the text; `undefined` when empty. */
export async function readBoundedBody(response: Response): Promise<unknown> {
  const text = await readBoundedText(response);
  if (text === '') return undefined;
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return text;
  }
  return nestsDeeperThan(parsed, MAX_JSON_DEPTH) ? text : parsed;
}

async function readBoundedText(response: Response): Promise<string> {
  const declared = Number(response.headers.get('content-length') ?? '0');
  if (declared > MAX_RESPONSE_BODY_BYTES) {
    await response.body?.cancel().catch(() => {});
    throw tooLarge(response.status);
  }
  if (response.body === null) return '';
  // A declared length within the limit is all HTTP lets the server send: the runtime reads it natively.
  if (response.headers.get('content-length') !== null && Number.isFinite(declared)) return response.text();
  const reader = response.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  while (true) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > MAX_RESPONSE_BODY_BYTES) {
      await reader.cancel().catch(() => {});
      throw tooLarge(response.status);
    }
    chunks.push(value);
  }
  const bytes = new Uint8Array(size);
  let offset = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return new TextDecoder().decode(bytes);
}

function tooLarge(status: number): ResponseValidationError {
  return new ResponseValidationError(
    [{ code: 'too_big', path: [], message: `the response body (HTTP ${status}) is larger than ${MAX_RESPONSE_BODY_BYTES} bytes` }],
    undefined,
  );
}

/**
 * Whether arrays and objects in `value` nest deeper than `limit`. Iterative (no
 * recursion on hostile input), and it allocates nothing per object it visits but
 * two stack slots: it runs on every response body.
 */
function nestsDeeperThan(value: unknown, limit: number): boolean {
  if (typeof value !== 'object' || value === null) return false;
  const items: object[] = [value];
  const depths: number[] = [0];
  const visit = (child: unknown, depth: number) => {
    if (typeof child === 'object' && child !== null) {
      items.push(child);
      depths.push(depth);
    }
  };
  while (items.length > 0) {
    const item = items.pop() as Record<string, unknown>;
    const depth = depths.pop() as number;
    if (depth >= limit) return true;
    if (Array.isArray(item)) {
      for (let index = 0; index < item.length; index++) visit(item[index], depth + 1);
    } else {
      for (const key in item) if (Object.hasOwn(item, key)) visit(item[key], depth + 1);
    }
  }
  return false;
}
