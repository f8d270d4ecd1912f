import { AuthApiError, ResponseValidationError } from '../errors.js';
import type { RequestOptions } from '../options.js';
import { type Schema, validateResponse } from '../validation.js';
import { REDIRECT_REFUSED, readFailed } from './failures.js';
import { MAX_ERROR_BODY_DEPTH, redact } from './redaction.js';
import type { Answer, Prepared, Sender } from './sender.js';

/** What every call to the Authentication API shares: the sender at the tenant's origin. */
export interface AuthApiContext {
  readonly sender: Sender;
}

/** One call to the Authentication API. */
export interface AuthApiCall<T> {
  readonly method: 'GET' | 'POST';
  /** Below the origin, without a leading slash, e.g. `oauth/token`. */
  readonly path: string;
  /** Builds each attempt afresh (so that a client assertion is never replayed), within the attempt's timeout. */
  readonly prepare: (signal: AbortSignal) => Prepared | Promise<Prepared>;
  readonly schema: Schema<T>;
  readonly options?: RequestOptions | undefined;
}

/** Sends an Authentication API call: non-2xx throws `AuthApiError`, a 2xx body is checked; credentials and tokens stay out of errors. */
export function callAuthApi<T>({ sender }: AuthApiContext, call: AuthApiCall<T>): Promise<T> {
  return sender.send({
    method: call.method,
    path: call.path,
    options: call.options,
    prepare: call.prepare,
    read: (answer, { secrets }) => {
      const { response, body } = answer;
      const scrub = [...secrets, ...issuedCredentials(body)];
      if (!response.ok) throw authApiErrorOf(answer, scrub);
      try {
        return validateResponse(call.schema, body, scrub);
      } catch (error) {
        // Text where JSON belongs (form-encoded tokens, say) may hold credentials that cannot be found to scrub.
        if (typeof body !== 'string' || !(error instanceof ResponseValidationError)) throw error;
        const type = response.headers.get('content-type')?.split(';')[0]?.trim() ?? '';
        const shown = /^[\w.+-]+\/[\w.+-]+$/.test(type) ? redact(type, scrub) : 'no readable content type';
        throw new ResponseValidationError(
          error.issues,
          `[${body.length} characters of text (${shown}), withheld: a 2xx answer may hold credentials]`,
        );
      }
    },
  });
}

/** Names of members that hold issued credentials (`access_token`, `refresh_token`, `id_token`, a proxy's `token`). */
const CREDENTIAL_MEMBER = /token/i;

/** The string values of members named like a token, wherever an error would keep them (a proxy may wrap the answer). */
function issuedCredentials(body: unknown, depth = 0): string[] {
  if (typeof body !== 'object' || body === null || depth >= MAX_ERROR_BODY_DEPTH) return [];
  return Object.entries(body).flatMap(([name, member]) =>
    typeof member === 'string' ? (CREDENTIAL_MEMBER.test(name) ? [member] : []) : issuedCredentials(member, depth + 1),
  );
}

/** The error of a non-2xx answer, from `{ error, error_description }` or `{ code, description }`, else a `WWW-Authenticate` challenge. */
function authApiErrorOf(answer: Answer, secrets: readonly string[]): AuthApiError {
  const failed = readFailed(answer, secrets);
  const { details } = failed;
  if (failed.redirected) return new AuthApiError({ ...details, error: failed.statusText, errorDescription: REDIRECT_REFUSED });
  const error = failed.member('error') ?? failed.member('code');
  const challenge = details.headers['www-authenticate'] ?? '';
  const challenged = error === undefined ? challengeParam(challenge, 'error') : undefined;
  if (challenged !== undefined) {
    return new AuthApiError({ ...details, error: challenged, errorDescription: challengeParam(challenge, 'error_description') });
  }
  return new AuthApiError({
    ...details,
    error: error ?? failed.statusText,
    errorDescription: failed.member('error_description') ?? failed.member('description') ?? failed.member('message'),
  });
}

/** An auth-param, `name="quoted"` or `name=token`: a quoted value is consumed whole; names start only where a token does (linear time). */
const AUTH_PARAM = /(?<![!#$%&'*+.^_`|~0-9A-Za-z-])([!#$%&'*+.^_`|~0-9A-Za-z-]+)\s*=\s*(?:"((?:[^"\\]|\\.)*)"|([^\s,"]*))/g;

function challengeParam(challenge: string, name: 'error' | 'error_description'): string | undefined {
  for (const [, param, quoted, token] of challenge.matchAll(AUTH_PARAM)) {
    if (param?.toLowerCase() !== name) continue;
    const value = quoted === undefined ? token : quoted.replace(/\\(.)/g, '$1');
    return value || undefined;
  }
  return undefined;
}
