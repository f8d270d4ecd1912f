import * as z from 'zod/mini';
import type { RequestOptions } from '../core/options.js';
import type { ApiRequest, Query } from '../core/transport.js';
import type { Schema } from '../core/validation.js';

/** The HTTP methods `management.request()` sends, in upper case. */
export type CustomRequestMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/**
 * Any Management API call, for endpoints the client has no method for:
 * `management.request({ method: 'POST', path: 'roles', body: { name: 'editor' } })`.
 * A `GET` request ({@link CustomGetRequest}) has no body; `POST`, `PUT`, `PATCH` and
 * `DELETE` ({@link CustomRequestWithBody}) may have one. `T` is the answer's type when you
 * name one (`request<Role>(…)`); `S` is the type of the `schema` you pass, filled in from the call.
 */
export type CustomRequest<T = unknown, S extends z.core.$ZodType = never> = CustomGetRequest<T, S> | CustomRequestWithBody<T, S>;

/** A custom `GET` request: `management.request({ method: 'GET', path: 'roles', query: { per_page: 10 } })`. It has no body. */
export interface CustomGetRequest<T = unknown, S extends z.core.$ZodType = never> {
  /** `GET` (upper case). */
  readonly method: 'GET';
  /**
   * The path below the base URL (`https://{domain}/api/v2`), e.g. `roles` or `/roles`.
   * One leading slash is ignored.
   * Build paths with ids through the `encodePath` tag: ``encodePath`roles/${roleId}/users` ``.
   * So that a request never leaves the base URL, these are refused before sending:
   * an empty path, a scheme or host (`https://…`, `//host`), and `.` or `..` segments (also percent-encoded).
   * So are a backslash, a control character (tab, CR, LF…), whitespace at the end and a lone surrogate.
   * `?` and `#` are refused too: pass `query` instead.
   */
  readonly path: string;
  /** Query parameters; `undefined` values are left out. */
  readonly query?: Query | undefined;
  /** None: a `GET` request has no body (pass `query`, or send the body with `POST`, `PUT` or `PATCH`). */
  readonly body?: 'a GET request has no body: pass query, or use POST, PUT or PATCH' | undefined;
  /**
   * A zod schema (`zod/mini` or classic `zod`) of the 2xx body: the body is checked against it (unless
   * the client has `validateResponses: false`) and typed by it. Without one, the body
   * is returned unchecked, typed `unknown`.
   */
  readonly schema?: S | Schema<T> | undefined;
}

/**
 * A custom `POST`, `PUT`, `PATCH` or `DELETE` request, with or without a body:
 * `management.request({ method: 'POST', path: 'roles', body: { name: 'editor' } })`.
 */
export interface CustomRequestWithBody<T = unknown, S extends z.core.$ZodType = never>
  extends Omit<CustomGetRequest<T, S>, 'method' | 'body'> {
  /** `POST`, `PUT`, `PATCH` or `DELETE` (upper case). */
  readonly method: 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  /**
   * A JSON body: an object, array, string, number, boolean or `null`.
   * What JSON cannot carry is refused before sending: a `Map`, `Set`,
   * `URLSearchParams`, `FormData`, `Blob` or binary data (JSON would write `{}`), a
   * function, a BigInt, a circular reference.
   */
  readonly body?: unknown;
}

const METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'] as const;

/**
 * Control characters (Unicode `Cc`: C0, DEL, C1): URL parsers drop a tab, CR or
 * LF wherever it stands, so `.\t.` would become a `..` segment after the check.
 */
const CONTROL_CHARACTER = /\p{Cc}/u;

/** Whether a path stays below the base URL and carries no query or fragment. */
function isSafeRelativePath(path: string): boolean {
  if (path === '' || path.startsWith('/') || path.includes('\\') || /[?#]/.test(path) || CONTROL_CHARACTER.test(path)) return false;
  // URL parsers strip whitespace at the end of a URL (`roles/.. ` would become a `..` segment).
  if (/\s$/.test(path) || /^[A-Za-z][A-Za-z0-9+.-]*:/.test(path)) return false;
  return path.split('/').every((segment) => {
    let decoded: string;
    try {
      // A lone surrogate, which URL parsers turn into U+FFFD, cannot be encoded.
      encodeURIComponent(segment);
      decoded = decodeURIComponent(segment);
    } catch {
      return false;
    }
    return decoded !== '.' && decoded !== '..';
  });
}

const PATH_MESSAGE =
  'path must be a path below the base URL such as "roles" or "roles/{id}" (built with encodePath): no scheme or host, no "." or ".." segments, no backslash, control character, trailing whitespace or lone surrogate, no "?" or "#" (use query)';

/** The rules a custom request is checked against before anything is sent. */
export const CustomRequestSchema = z
  .strictObject({
    method: z.enum(METHODS, 'method must be one of GET, POST, PUT, PATCH, DELETE'),
    path: z.pipe(
      z.string('path is required'),
      z.transform((path: string) => (path.startsWith('/') ? path.slice(1) : path)),
    ),
    query: z.optional(
      z.record(
        z.string(),
        z.optional(z.union([z.string(), z.number(), z.boolean()], 'query values must be strings, finite numbers or booleans')),
        'query must be an object of strings, numbers and booleans',
      ),
    ),
    body: z.optional(z.unknown()),
    schema: z.optional(
      z.custom<Schema<unknown>>(
        (value) => typeof (value as { safeParse?: unknown })?.safeParse === 'function',
        'schema must be a zod schema',
      ),
    ),
  })
  .check(
    z.refine((request) => isSafeRelativePath(request.path), { message: PATH_MESSAGE, path: ['path'] }),
    z.refine((request) => request.method !== 'GET' || request.body === undefined, {
      message: 'a GET request cannot have a body',
      path: ['body'],
    }),
    z.refine((request) => request.body === undefined || isJsonBody(request.body), {
      message:
        'body must be a value JSON can carry: an object, array, string, number, boolean or null (not a Map, Set, URLSearchParams, FormData, Blob or binary data, which JSON writes as {}, nor a function, a BigInt or a circular reference)',
      path: ['body'],
    }),
  );

/** Kinds of objects that hold their data where `JSON.stringify` does not look: it writes them as `{}`. */
const OPAQUE_TO_JSON = ['Map', 'Set', 'WeakMap', 'WeakSet', 'URLSearchParams', 'FormData', 'Blob', 'ArrayBuffer', 'ReadableStream'].flatMap(
  (name) => {
    const type = (globalThis as Record<string, unknown>)[name];
    return typeof type === 'function' ? [type as abstract new (...args: never[]) => unknown] : [];
  },
);

/**
 * Whether `JSON.stringify` writes `body` as it is. Checked before anything is sent.
 * The body must not be a kind of object that `JSON.stringify` writes as `{}`.
 * Nor may it be a value that it writes as nothing: a function, or a `toJSON` answering `undefined`.
 * Nor may it hold what makes `JSON.stringify` throw: a BigInt or a cycle.
 */
function isJsonBody(body: unknown): boolean {
  if (typeof body === 'object' && body !== null && (ArrayBuffer.isView(body) || OPAQUE_TO_JSON.some((type) => body instanceof type))) {
    return false;
  }
  try {
    return JSON.stringify(body) !== undefined;
  } catch {
    return false;
  }
}

const UnknownBodySchema: Schema<unknown> = z.unknown();

/**
 * The transport call of a custom request that passed {@link CustomRequestSchema}: the caller's schema,
 * when given, reads the 2xx body with its own `safeParse`, and its output is what the call returns.
 */
export function apiRequestOf<T>(checked: z.output<typeof CustomRequestSchema>, options: RequestOptions | undefined): ApiRequest<T> {
  const schema = checked.schema as Schema<T> | undefined;
  return {
    method: checked.method,
    path: checked.path,
    query: checked.query,
    body: checked.body === undefined ? undefined : { json: checked.body },
    schema: schema ?? (UnknownBodySchema as Schema<T>),
    callersSchema: schema !== undefined,
    options,
  };
}
