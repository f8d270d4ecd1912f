import * as z from 'zod/mini';
import { type AuthApiContext, callAuthApi } from '../core/auth-request.js';
import type { RequestOptions } from '../core/options.js';
import type { TokenResponse } from '../core/token-response.js';
import type { IdTokenExpectations, IdTokenSettings, TokenResponseWithClaims } from './id-token.js';

export type { IdTokenExpectations, TokenResponseWithClaims } from './id-token.js';

/** The body of `/.well-known/jwks.json`, checked by jose when it builds the key set (keeping zod's schema out of the eager bundle). */
const JwksBodySchema = z.unknown();

/**
 * Validates the response's `id_token`, if any, before the grant resolves, and
 * returns the response with its `claims`. The checks (and jose) are loaded on
 * the first ID token only, so that bundles of flows without one stay small.
 * The key set is fetched with the call's `signal` and `timeoutMs`. Throws
 * `IdTokenValidationError`.
 */
export async function withIdTokenClaims(
  settings: { readonly idToken: IdTokenSettings } & AuthApiContext,
  tokens: TokenResponse,
  expected: IdTokenExpectations = {},
  options: RequestOptions = {},
): Promise<TokenResponseWithClaims> {
  if (tokens.id_token === undefined) return tokens;
  const { validateIdToken } = await import('./id-token-validation.js');
  const fetchJwks = () =>
    callAuthApi(settings, {
      method: 'GET',
      path: '.well-known/jwks.json',
      schema: JwksBodySchema,
      prepare: () => ({}),
      options: { signal: options.signal, timeoutMs: options.timeoutMs },
    });
  const context = { settings: settings.idToken, now: Math.floor(settings.clock.now() / 1000), fetchJwks };
  return { ...tokens, claims: await validateIdToken(tokens.id_token, context, expected) };
}
