import type { RequestOptions } from '../core/options.js';
import type { TokenResponse } from '../core/tokens/response.js';
import type { IdTokenExpectations, IdTokenValidationContext, TokenResponseWithClaims } from './id-token.js';
import type { AuthSettings } from './settings.js';

export type { IdTokenExpectations, TokenResponseWithClaims } from './id-token.js';

/** What the ID token checks use: the ID token settings, the clock, and the client's context to fetch the key set with. */
type ClaimsSettings = Pick<AuthSettings, 'idToken' | 'sender' | 'clock' | 'timeoutMs'>;

/**
 * Loads what checking an ID token needs, before a refresh-token grant is sent.
 * With `'signature'` verification, that is the checks and the tenant's key set.
 * A key set under 10 minutes old is taken from the cache.
 * A failed fetch of the keys throws (`NetworkError`, `TimeoutError`, `IdTokenValidationError`), and the grant is not sent.
 * Fetched after the grant, a failure would lose its tokens, with the refresh token that rotation replaced.
 * The user would then be logged out.
 * The call's options are checked first, so that no request leaves with bad ones.
 */
export async function prepareIdTokenChecks(settings: ClaimsSettings, options: RequestOptions = {}): Promise<void> {
  if (settings.idToken.verification !== 'signature') return;
  settings.sender.checkOptions(options);
  const { loadKeySet } = await import('./id-token-signature.js');
  await loadKeySet(validationContext(settings, options));
}

/**
 * Validates the response's `id_token`, if any, before the grant resolves.
 * Returns the response with its `claims`.
 * The checks (and jose) load with the first ID token only, so that bundles of flows without one stay small.
 * The call waits for the key set as long as its `signal` and `timeoutMs` allow.
 * The fetch itself is shared by concurrent calls, and runs with the client's timeout.
 * Throws `IdTokenValidationError`.
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
  const { signal, timeoutMs } = options;
  return { settings: settings.idToken, now: Math.floor(settings.clock.now() / 1000), client: settings, signal, timeoutMs };
}
