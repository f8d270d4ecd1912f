import { ResponseValidationError } from '../errors.js';
import type { RequestOptions } from '../options.js';
import { type Schema, validateResponse } from '../validation.js';
import { authApiErrorOf } from './failures.js';
import { MAX_ERROR_BODY_DEPTH, redact } from './redaction.js';
import type { Prepared, Sender } from './sender.js';

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

/**
 * Sends one Authentication API call: a non-2xx answer becomes `AuthApiError`, a 2xx
 * body is checked against `schema`. The attempt's credentials, and any token in the
 * answer, are kept out of errors.
 */
export function callAuthApi<T>({ sender }: AuthApiContext, call: AuthApiCall<T>): Promise<T> {
  return sender.send({
    method: call.method,
    path: call.path,
    options: call.options,
    prepare: call.prepare,
    read: ({ response, body, rateLimit }, { secrets }) => {
      const scrub = [...secrets, ...issuedCredentials(body)];
      if (!response.ok) throw authApiErrorOf({ response, body, rateLimit }, scrub);
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
