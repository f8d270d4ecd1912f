/** Reads a request body the way the platform does: `application/json` or `application/x-www-form-urlencoded`. */

/** A parsed request body. */
export type RequestBody =
  | { readonly kind: 'json'; readonly value: unknown }
  | { readonly kind: 'form'; readonly value: URLSearchParams }
  | { readonly kind: 'empty' };

/** A body that could not be read, and why. */
export interface BodyProblem {
  readonly problem: string;
}

/** The media type of a `Content-Type` value, lower-cased and without parameters (`application/json; charset=utf-8` → `application/json`). */
export function mediaType(contentType: string | null): string {
  return (contentType ?? '').split(';')[0]?.trim().toLowerCase() ?? '';
}

/** The largest body the emulator reads: the bodies it takes are a few hundred bytes. */
export const MAX_BODY_BYTES = 64 * 1024;

/** Parses the body by its `Content-Type`; other media types, JSON that does not parse, and bodies over {@link MAX_BODY_BYTES} are problems. */
export async function readRequestBody(request: Request): Promise<RequestBody | BodyProblem> {
  const type = mediaType(request.headers.get('content-type'));
  const text = await readLimited(request);
  if (text === undefined) return { problem: `Request body too large: at most ${MAX_BODY_BYTES} bytes` };
  if (type === '' && text === '') return { kind: 'empty' };
  if (type === 'application/json') {
    try {
      return { kind: 'json', value: JSON.parse(text) };
    } catch {
      return { problem: 'Invalid request payload JSON format' };
    }
  }
  if (type === 'application/x-www-form-urlencoded') return { kind: 'form', value: new URLSearchParams(text) };
  return {
    problem: `Unsupported Content-Type ${type === '' ? '(none)' : `"${type}"`}: send application/json or application/x-www-form-urlencoded`,
  };
}

/** Whether a read ended in a problem. */
export function isBodyProblem(body: RequestBody | BodyProblem): body is BodyProblem {
  return 'problem' in body;
}

/** The body as text, or `undefined` (reading stops) once it passes {@link MAX_BODY_BYTES}. */
async function readLimited(request: Request): Promise<string | undefined> {
  if (Number(request.headers.get('content-length') ?? 0) > MAX_BODY_BYTES) return undefined;
  if (request.body === null) return '';
  const reader = request.body.getReader();
  const decoder = new TextDecoder();
  let text = '';
  let size = 0;
  for (let chunk = await reader.read(); !chunk.done; chunk = await reader.read()) {
    size += chunk.value.byteLength;
    if (size > MAX_BODY_BYTES) {
      await reader.cancel();
      return undefined;
    }
    text += decoder.decode(chunk.value, { stream: true });
  }
  return text + decoder.decode();
}
