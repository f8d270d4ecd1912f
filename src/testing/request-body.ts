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

/** Parses the body by its `Content-Type`; other media types, and JSON that does not parse, are problems. */
export async function readRequestBody(request: Request): Promise<RequestBody | BodyProblem> {
  const type = mediaType(request.headers.get('content-type'));
  const text = await request.text();
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
