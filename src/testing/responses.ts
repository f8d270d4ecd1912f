/** How the emulator writes its answers: JSON bodies, and the two error shapes of the platform. */

const STATUS_TEXT: Readonly<Record<number, string>> = {
  200: 'OK',
  204: 'No Content',
  400: 'Bad Request',
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'Not Found',
  405: 'Method Not Allowed',
  429: 'Too Many Requests',
  500: 'Internal Server Error',
  502: 'Bad Gateway',
  503: 'Service Unavailable',
  504: 'Gateway Timeout',
};

/** The reason phrase of an HTTP status, e.g. `Bad Request` for 400. */
export function statusText(status: number): string {
  return STATUS_TEXT[status] ?? `HTTP ${status}`;
}

/** A JSON response (`application/json; charset=utf-8`). */
export function json(body: unknown, status = 200, headers: Readonly<Record<string, string>> = {}): Response {
  return new Response(JSON.stringify(body), {
    status,
    statusText: statusText(status),
    headers: { 'content-type': 'application/json; charset=utf-8', ...headers },
  });
}

/** The Management API's error body: `{ statusCode, error, message, errorCode }`. */
export interface ManagementErrorBody {
  readonly statusCode: number;
  /** The reason phrase of the status, e.g. `Bad Request`. */
  readonly error: string;
  readonly message: string;
  /** A stable machine-readable code, e.g. `invalid_paging`. */
  readonly errorCode?: string;
}

/** A Management API error: `{ statusCode, error, message, errorCode }`. */
export function managementError(
  status: number,
  message: string,
  errorCode?: string,
  headers: Readonly<Record<string, string>> = {},
): Response {
  const body: ManagementErrorBody = {
    statusCode: status,
    error: statusText(status),
    message,
    ...(errorCode === undefined ? {} : { errorCode }),
  };
  return json(body, status, headers);
}

/** The Authentication API's error body, in OAuth 2.0 style: `{ error, error_description }`. */
export interface AuthenticationErrorBody {
  /** An OAuth error code, e.g. `invalid_client`. */
  readonly error: string;
  readonly error_description: string;
}

/** An Authentication API error: `{ error, error_description }`, never cached. */
export function authenticationError(
  status: number,
  error: string,
  description: string,
  headers: Readonly<Record<string, string>> = {},
): Response {
  const body: AuthenticationErrorBody = { error, error_description: description };
  return json(body, status, { 'cache-control': 'no-store', pragma: 'no-cache', ...headers });
}

/** Which of the two APIs a path belongs to: `/api/v2/…` is the Management API, the rest the Authentication API. */
export type ApiKind = 'management' | 'authentication';

/** The API a path belongs to. */
export function apiOf(pathname: string): ApiKind {
  return pathname === '/api/v2' || pathname.startsWith('/api/v2/') ? 'management' : 'authentication';
}

/** An error in the shape of the API that `pathname` belongs to. */
export function errorFor(
  api: ApiKind,
  status: number,
  message: string,
  code: string,
  headers: Readonly<Record<string, string>> = {},
): Response {
  return api === 'management' ? managementError(status, message, code, headers) : authenticationError(status, code, message, headers);
}
