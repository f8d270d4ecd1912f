import * as z from 'zod/mini';
import { type AuthApiContext, callAuthApi, checkedCallOptions } from '../core/auth-request.js';
import type { RequestOptions } from '../core/options.js';
import { ownProperties } from '../core/own-properties.js';
import type { SharedRetry } from '../core/retry.js';
import type { TokenResponse } from '../core/token-response.js';
import type {
  IdTokenExpectations,
  IdTokenSettings,
  IdTokenValidationContext,
  PreparedKeySet,
  TokenResponseWithClaims,
} from './id-token.js';

export type { IdTokenExpectations, TokenResponseWithClaims } from './id-token.js';

/** The body of `/.well-known/jwks.json`, checked by jose when it builds the key set (keeping zod's schema out of the eager bundle). */
const JwksBodySchema = z.unknown();

/** What the ID token checks use: the ID token settings, the clock, and the client's context to fetch the key set with. */
type ClaimsSettings = { readonly idToken: IdTokenSettings } & AuthApiContext;

/**
 * Loads what checking an ID token needs before a refresh-token grant is sent: with
 * `'signature'` verification, the checks and the tenant's key set (fetched at most
 * every 10 minutes). Were the keys fetched after the grant and that fetch failed,
 * the grant's tokens would be lost, with the refresh token that rotation has just
 * replaced: the user would be logged out. A failed fetch of the keys throws
 * (`NetworkError`, `AuthApiError`, `TimeoutError`) and the grant is not sent. The
 * call's options are checked first, so that no request leaves with bad ones. Pass
 * what it returns to {@link withIdTokenClaims}: the token is then checked with this
 * key set, even if it turned 10 minutes old during the grant or another call replaced
 * the cached set meanwhile (only a key the set lacks, after a key rotation, fetches
 * the set again after the grant).
 */
export async function prepareIdTokenChecks(settings: ClaimsSettings, options: RequestOptions = {}): Promise<PreparedKeySet | undefined> {
  if (settings.idToken.verification !== 'signature') return undefined;
  checkedCallOptions(settings, options);
  const { loadKeySet } = await import('./id-token-signature.js');
  return loadKeySet(validationContext(settings, options));
}

/**
 * Validates the response's `id_token`, if any, before the grant resolves, and
 * returns the response with its `claims`. The checks (and jose) are loaded on
 * the first ID token only, so that bundles of flows without one stay small.
 * The call waits for the key set as long as its `signal` and `timeoutMs` allow (the
 * fetch itself, which concurrent calls share, runs with the client's timeout). Throws
 * `IdTokenValidationError`.
 */
export async function withIdTokenClaims(
  settings: ClaimsSettings,
  tokens: TokenResponse,
  expected: IdTokenExpectations = {},
  options: RequestOptions = {},
  prepared: PreparedKeySet | undefined = undefined,
): Promise<TokenResponseWithClaims> {
  if (tokens.id_token === undefined) return tokens;
  const { validateIdToken } = await import('./id-token-validation.js');
  return { ...tokens, claims: await validateIdToken(tokens.id_token, validationContext(settings, options, prepared), expected) };
}

function validationContext(settings: ClaimsSettings, options: RequestOptions, preparedKeySet?: PreparedKeySet): IdTokenValidationContext {
  const fetchJwks = (shared: SharedRetry) =>
    callAuthApi(settings, { method: 'GET', path: '.well-known/jwks.json', schema: JwksBodySchema, prepare: () => ({}), shared });
  const { signal, timeoutMs } = ownProperties(options);
  const fetchSettling = { settlesWithinMs: settings.timeoutMs, clock: settings.clock };
  return {
    settings: settings.idToken,
    now: Math.floor(settings.clock.now() / 1000),
    preparedKeySet,
    fetchJwks,
    fetchSettling,
    signal,
    timeoutMs,
  };
}
