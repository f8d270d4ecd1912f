import * as z from 'zod/mini';
import { type AuthApiContext, callAuthApi, checkedCallOptions } from '../core/auth-request.js';
import type { RequestOptions } from '../core/options.js';
import type { TokenResponse } from '../core/token-response.js';
import type { IdTokenExpectations, IdTokenSettings, IdTokenValidationContext, TokenResponseWithClaims } from './id-token.js';

export type { IdTokenExpectations, TokenResponseWithClaims } from './id-token.js';

/** The body of `/.well-known/jwks.json`, checked by jose when it builds the key set (keeping zod's schema out of the eager bundle). */
const JwksBodySchema = z.unknown();

/** What the ID token checks use: the settings, now, and a fetch of the key set with the call's `signal` and `timeoutMs`. */
type ClaimsSettings = { readonly idToken: IdTokenSettings } & AuthApiContext;

/**
 * Loads what checking an ID token needs before a refresh-token grant is sent: with
 * `'signature'` verification, the checks and the tenant's key set (fetched at most
 * every 10 minutes, with the call's `signal` and `timeoutMs`). Were the keys fetched
 * after the grant and that fetch failed, the grant's tokens would be lost, with the
 * refresh token that rotation has just replaced: the user would be logged out. A
 * failed fetch of the keys throws (`NetworkError`, `AuthApiError`, `TimeoutError`)
 * and the grant is not sent. The call's options are checked first, so that no
 * request leaves with bad ones.
 */
export async function prepareIdTokenChecks(settings: ClaimsSettings, options: RequestOptions = {}): Promise<void> {
  if (settings.idToken.verification !== 'signature') return;
  checkedCallOptions(settings, options);
  const { prepareIdTokenChecks: prepare } = await import('./id-token-validation.js');
  await prepare(validationContext(settings, options));
}

/**
 * Validates the response's `id_token`, if any, before the grant resolves, and
 * returns the response with its `claims`. The checks (and jose) are loaded on
 * the first ID token only, so that bundles of flows without one stay small.
 * The key set is fetched with the call's `signal` and `timeoutMs`. Throws
 * `IdTokenValidationError`.
 */
export async function withIdTokenClaims(
  settings: ClaimsSettings,
  tokens: TokenResponse,
  expected: IdTokenExpectations = {},
  options: RequestOptions = {},
): Promise<TokenResponseWithClaims> {
  if (tokens.id_token === undefined) return tokens;
  const { validateIdToken } = await import('./id-token-validation.js');
  return { ...tokens, claims: await validateIdToken(tokens.id_token, validationContext(settings, options), expected) };
}

function validationContext(settings: ClaimsSettings, options: RequestOptions): IdTokenValidationContext {
  const fetchJwks = () =>
    callAuthApi(settings, {
      method: 'GET',
      path: '.well-known/jwks.json',
      schema: JwksBodySchema,
      prepare: () => ({}),
      options: { signal: options.signal, timeoutMs: options.timeoutMs },
    });
  return { settings: settings.idToken, now: Math.floor(settings.clock.now() / 1000), fetchJwks };
}
