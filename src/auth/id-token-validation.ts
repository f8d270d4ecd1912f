/**
 * The checks of an ID token (OpenID Connect Core 3.1.3.7). Loaded with `import()`
 * on the first ID token, so that jose's decoder is not in the eager browser bundle.
 */
import type { JWTPayload } from 'jose';
import { decodeProtectedHeader } from 'jose/decode/protected_header';
import { decodeJwt } from 'jose/jwt/decode';
import { IdTokenValidationError } from '../core/errors.js';
import type { IdTokenClaims, IdTokenExpectations, IdTokenSettings, IdTokenValidationContext } from './id-token.js';

/**
 * Decodes `idToken`, checks it, and returns its claims.
 * The checks run in this order: the header's `alg`, then `iss`, `sub`, `aud`, `azp`, `exp`, `iat` and `nbf`.
 * Then come the types of the optional claims, and `nonce`, the organization and `auth_time` when `expected` holds them.
 * Last comes the signature, when `verification` is `'signature'`.
 * Throws `IdTokenValidationError` naming the first check that failed.
 */
export async function validateIdToken(
  idToken: string,
  context: IdTokenValidationContext,
  expected: IdTokenExpectations,
): Promise<IdTokenClaims> {
  const { settings } = context;
  const { alg, payload } = decode(idToken);
  if (alg !== settings.signingAlg) {
    fail('alg', `The ID token is signed with ${describeAlg(alg)}, but ${settings.signingAlg} is expected (option idTokenSigningAlg)`);
  }
  const claims = checkClaims(payload, settings, expected, context.now);
  if (settings.verification === 'signature') {
    const { verifyIdTokenSignature } = await import('./id-token-signature.js');
    await verifyIdTokenSignature(idToken, context);
  }
  return claims;
}

function decode(idToken: string): { alg: unknown; payload: JWTPayload } {
  try {
    return { alg: decodeProtectedHeader(idToken).alg, payload: decodeJwt(idToken) };
  } catch {
    return fail('id_token', 'The id_token is not a readable JWT');
  }
}

function fail(claim: string, message: string): never {
  throw new IdTokenValidationError(claim, message);
}

/** The claim checks of OpenID Connect Core 3.1.3.7 items 2–4 and 9–11, plus the organization of the login. */
function checkClaims(payload: JWTPayload, settings: IdTokenSettings, expected: IdTokenExpectations, now: number): IdTokenClaims {
  const { issuer, clientId, clockToleranceSec: tolerance } = settings;
  const { iss, sub, aud, azp, exp, iat, nbf } = payload;
  if (iss !== issuer) fail('iss', `The ID token's issuer (iss) is ${describeIssuer(iss, issuer)}, but ${issuer} is expected`);
  if (typeof sub !== 'string' || sub === '') fail('sub', 'The ID token has no subject (sub)');
  const audiences = typeof aud === 'string' ? [aud] : Array.isArray(aud) ? aud : [];
  if (!audiences.every((audience) => typeof audience === 'string'))
    fail('aud', "The ID token's audience (aud) lists something other than strings");
  if (!audiences.includes(clientId)) {
    fail('aud', `The ID token's audience (aud) does not hold this client's id ${clientId}`);
  }
  if (audiences.length > 1 && azp === undefined) {
    fail('azp', 'The ID token has several audiences but no authorized party (azp)');
  }
  if (azp !== undefined && azp !== clientId) {
    fail('azp', `The ID token's authorized party (azp) is ${describe(azp)}, not this client's id ${clientId}`);
  }
  if (typeof exp !== 'number' || !Number.isFinite(exp)) fail('exp', `The ID token has no finite expiry time (exp): ${describe(exp)}`);
  if (now - tolerance >= exp) {
    fail('exp', `The ID token expired at ${isoTime(exp)} (now ${isoTime(now)}, clock tolerance ${tolerance} s)`);
  }
  if (typeof iat !== 'number' || !Number.isFinite(iat)) fail('iat', `The ID token has no finite issue time (iat): ${describe(iat)}`);
  if (iat > now + tolerance) {
    fail('iat', `The ID token was issued in the future, at ${isoTime(iat)} (now ${isoTime(now)}, clock tolerance ${tolerance} s)`);
  }
  // RFC 7519 4.1.5: not accepted before its `nbf`, when it has one.
  if (nbf !== undefined && (typeof nbf !== 'number' || !Number.isFinite(nbf) || nbf > now + tolerance)) {
    fail(
      'nbf',
      `The ID token is not valid before ${typeof nbf === 'number' && Number.isFinite(nbf) ? isoTime(nbf) : describe(nbf)} (now ${isoTime(now)}, clock tolerance ${tolerance} s)`,
    );
  }
  checkClaimTypes(payload);
  checkLogin(payload, expected, now, tolerance);
  return payload as IdTokenClaims;
}

/** The optional claims `IdTokenClaims` types: each, when present, must be of that type (`auth_time` a finite number). */
const OPTIONAL_CLAIM_TYPES = { auth_time: 'number', nonce: 'string', org_id: 'string', org_name: 'string' } as const;

/**
 * Checks that the optional claims {@link IdTokenClaims} names hold what it says, when present.
 * This holds whether or not the login asked for them.
 * So a caller reading `claims.auth_time * 1000` or `claims.org_id.startsWith('org_')` can trust the type.
 */
function checkClaimTypes(payload: JWTPayload): void {
  for (const [claim, type] of Object.entries(OPTIONAL_CLAIM_TYPES)) {
    const value = payload[claim];
    if (value !== undefined && (typeof value !== type || (type === 'number' && !Number.isFinite(value)))) {
      fail(claim, `The ID token's ${claim} is ${describe(value)}, not a ${type === 'number' ? 'finite number' : type}`);
    }
  }
}

/** The checks that depend on what the caller sent to `/authorize`: nonce, organization, max_age. */
function checkLogin(payload: JWTPayload, expected: IdTokenExpectations, now: number, tolerance: number): void {
  const { nonce, organization, maxAge } = expected;
  if (nonce !== undefined && payload.nonce !== nonce) {
    fail(
      'nonce',
      payload.nonce === undefined ? 'The ID token has no nonce' : "The ID token's nonce differs from the one given to the grant",
    );
  }
  if (organization !== undefined) {
    if (organization.startsWith('org_')) {
      if (payload.org_id !== organization) {
        fail('org_id', `The ID token's organization (org_id) is ${describe(payload.org_id)}, but ${organization} was asked for`);
      }
    } else if (typeof payload.org_name !== 'string' || payload.org_name.toLowerCase() !== organization.toLowerCase()) {
      // Organization names are case-insensitive (the platform issues them in lower case).
      fail('org_name', `The ID token's organization (org_name) is ${describe(payload.org_name)}, but ${organization} was asked for`);
    }
  }
  if (maxAge !== undefined) {
    const authTime = payload.auth_time;
    if (typeof authTime !== 'number') fail('auth_time', 'The ID token has no auth_time, though max_age was given');
    if (now - tolerance > authTime + maxAge) {
      fail(
        'auth_time',
        `The user authenticated at ${isoTime(authTime)}, longer ago than max_age (${maxAge} s, clock tolerance ${tolerance} s)`,
      );
    }
  }
}

/**
 * What a claim that failed holds, without its text.
 * Error messages never quote what the server sent in the token.
 * It may echo a credential of the request (a password, a refresh token, a one-time code) into a claim.
 */
function describe(value: unknown): string {
  if (value === undefined) return 'missing';
  if (typeof value === 'string') return `another value (${value.length} characters)`;
  if (typeof value === 'number' && !Number.isFinite(value)) return String(value); // Infinity (1e400 in JSON): no credential
  return value === null ? 'null' : `a ${Array.isArray(value) ? 'list' : typeof value}`;
}

/** {@link describe}, naming the usual mistakes: the issuer without its trailing slash, or over `http:`. */
function describeIssuer(iss: unknown, issuer: string): string {
  if (iss === issuer.slice(0, -1)) return 'the expected issuer without its trailing slash';
  if (typeof iss === 'string' && iss.replace(/^http:/, 'https:') === issuer) return 'the expected issuer over http:';
  return describe(iss);
}

/** The JWS algorithms (RFC 7518, RFC 8037) and `none`: only these names are quoted. */
const JWS_ALGORITHMS: ReadonlySet<unknown> = new Set([
  ...['HS', 'RS', 'ES', 'PS'].flatMap((family) => ['256', '384', '512'].map((bits) => `${family}${bits}`)),
  'ES256K',
  'EdDSA',
  'Ed25519',
  'none',
]);

/** The header's `alg` when it names a JWS algorithm, else {@link describe} of it. */
function describeAlg(alg: unknown): string {
  return JWS_ALGORITHMS.has(alg) ? String(alg) : describe(alg);
}

/** A claim's time as ISO 8601, or the number itself where no date can show it (NaN, beyond ±275 760 years). */
function isoTime(seconds: number): string {
  const date = new Date(seconds * 1000);
  return Number.isNaN(date.getTime()) ? `${seconds} s since 1970` : date.toISOString();
}
