import { ConfigurationError } from '../core/errors.js';
import type { AuthApiContext } from '../core/http/auth-api.js';
import type { TokenResponse } from '../core/tokens/response.js';

/**
 * The claims of a validated ID token (OpenID Connect Core §2 and §5.1). The
 * registered claims the SDK checks are typed; any other claim (a profile claim
 * the scope asked for, a namespaced custom claim) is `unknown` until you check it.
 */
export interface IdTokenClaims {
  /** The issuer: `https://{domain}/`. */
  readonly iss: string;
  /** The user's id. */
  readonly sub: string;
  /** The audience: your client id, or a list that holds it. */
  readonly aud: string | readonly string[];
  /** Expiry, seconds since the epoch. */
  readonly exp: number;
  /** Issue time, seconds since the epoch. */
  readonly iat: number;
  /** When the user authenticated, seconds since the epoch. */
  readonly auth_time?: number;
  /** The `nonce` of the authorize request. */
  readonly nonce?: string;
  /** The authorized party: your client id when `aud` lists several. */
  readonly azp?: string;
  /** The organization id, when the login was for an organization. */
  readonly org_id?: string;
  /** The organization name, when the login was for an organization. */
  readonly org_name?: string;
  /** Any other claim, e.g. `email`, `name` or a namespaced custom claim. */
  readonly [claim: string]: unknown;
}

/** A token response whose ID token was validated: `claims` is present exactly when `id_token` is. */
export interface TokenResponseWithClaims extends TokenResponse {
  /** The validated claims of `id_token`, when the response had one. */
  readonly claims?: IdTokenClaims;
}

/** The algorithms an ID token may be signed with; the tenant's default is `RS256`. */
export type IdTokenSigningAlg = 'RS256' | 'RS384' | 'RS512' | 'PS256' | 'PS384' | 'PS512' | 'ES256' | 'ES384' | 'ES512' | 'EdDSA';

/**
 * How ID tokens are checked.
 * `'signature'` checks the claims, and the signature against the tenant's `/.well-known/jwks.json`.
 * `'claims'` checks the claims only.
 * It trusts the token because it came straight from the token endpoint over TLS (OpenID Connect Core 3.1.3.7, item 6).
 */
export type IdTokenVerification = 'signature' | 'claims';

/** What the caller knows about the login an ID token is for: each one given is checked. */
export interface IdTokenExpectations {
  /** The `nonce` sent to `/authorize`: the token's `nonce` must equal it. */
  readonly nonce?: string | undefined;
  /** The organization (id `org_…` or name) sent to `/authorize`: `org_id` (or `org_name`) must match. */
  readonly organization?: string | undefined;
  /** The `max_age` (seconds) sent to `/authorize`: `auth_time` must be present and no older. */
  readonly maxAge?: number | undefined;
}

/** The ID token options of `AuthenticationClient`, resolved. */
export interface IdTokenSettings {
  /** The expected `iss`: `${origin}/`. */
  readonly issuer: string;
  readonly clientId: string;
  readonly clockToleranceSec: number;
  readonly signingAlg: IdTokenSigningAlg;
  readonly verification: IdTokenVerification;
}

/** What the lazily loaded checks get from the client: the time, and how to fetch its tenant's key set. */
export interface IdTokenValidationContext {
  readonly settings: IdTokenSettings;
  /** Now, in seconds since the epoch. */
  readonly now: number;
  /** The client's sender, which fetches the key set (with its `fetch`, `headers` and `onResponse`), and its `timeoutMs`. */
  readonly client: AuthApiContext & { readonly timeoutMs: number };
  /** The call's signal and `timeoutMs`: how long this call waits for the key set (the fetch goes on for others). */
  readonly signal?: AbortSignal | undefined;
  readonly timeoutMs?: number | undefined;
}

/** The ID token options as `AuthenticationClientOptions` holds them. */
export interface IdTokenOptions {
  readonly clockToleranceSec?: number | undefined;
  readonly idTokenSigningAlg?: IdTokenSigningAlg | undefined;
  readonly idTokenVerification?: IdTokenVerification | undefined;
}

const SIGNING_ALGS: readonly IdTokenSigningAlg[] = [
  'RS256',
  'RS384',
  'RS512',
  'PS256',
  'PS384',
  'PS512',
  'ES256',
  'ES384',
  'ES512',
  'EdDSA',
];

/**
 * Checks the ID token options; the defaults are a 60-second clock tolerance,
 * `RS256`, and signature verification everywhere but in browsers.
 */
export function resolveIdTokenSettings(options: IdTokenOptions, origin: string, clientId: string, inBrowser: boolean): IdTokenSettings {
  const { clockToleranceSec = 60, idTokenSigningAlg = 'RS256', idTokenVerification = inBrowser ? 'claims' : 'signature' } = options;
  if (typeof clockToleranceSec !== 'number' || !Number.isFinite(clockToleranceSec) || clockToleranceSec < 0) {
    throw new ConfigurationError('`clockToleranceSec` must be a number of seconds ≥ 0');
  }
  if (!SIGNING_ALGS.includes(idTokenSigningAlg)) {
    throw new ConfigurationError(`\`idTokenSigningAlg\` must be one of ${SIGNING_ALGS.join(', ')}`);
  }
  if (idTokenVerification !== 'signature' && idTokenVerification !== 'claims') {
    throw new ConfigurationError("`idTokenVerification` must be 'signature' or 'claims'");
  }
  return { issuer: `${origin}/`, clientId, clockToleranceSec, signingAlg: idTokenSigningAlg, verification: idTokenVerification };
}
