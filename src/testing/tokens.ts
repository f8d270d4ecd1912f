import type { CryptoKey, JSONWebKeySet } from 'jose';

/** What an access token is issued for. */
export interface AccessTokenRequest {
  /** `iss`: the tenant, `{origin}/`. */
  readonly issuer: string;
  /** `aud`: the Management API, `{origin}/api/v2/`. */
  readonly audience: string;
  readonly clientId: string;
  readonly scopes: readonly string[];
  readonly lifetimeSeconds: number;
}

/** The outcome of checking a bearer token: its client and scopes, or why it was refused. */
export type TokenCheck =
  | { readonly ok: true; readonly clientId: string; readonly subject: string; readonly scopes: readonly string[] }
  | {
      readonly ok: false;
      /** The platform's short reason, e.g. `Bad issuer` (also the `WWW-Authenticate` description). */
      readonly message: string;
      /** What to change, when the emulator can tell, e.g. the origin to make the token for. */
      readonly hint?: string;
    };

interface SigningKey {
  readonly privateKey: CryptoKey;
  readonly publicKey: CryptoKey;
  readonly kid: string;
}

let processKey: Promise<SigningKey> | undefined;

/**
 * The signing key of every emulator in this process, made on first use: an RSA key
 * takes up to a second to generate, too long to pay per test. Tokens stay tied to
 * their tenant by `iss` and `aud` (the origin).
 */
function sharedSigningKey(): Promise<SigningKey> {
  processKey ??= (async () => {
    const { calculateJwkThumbprint, exportJWK, generateKeyPair } = await import('jose');
    const { privateKey, publicKey } = await generateKeyPair('RS256', { extractable: true });
    return { privateKey, publicKey, kid: await calculateJwkThumbprint(await exportJWK(publicKey)) };
  })().catch((error: unknown) => {
    processKey = undefined;
    throw error;
  });
  return processKey;
}

/** The emulator's access tokens: RS256 JWTs signed with the process's emulator key. Times come from `now`. */
export class AccessTokens {
  readonly #now: () => number;

  constructor(now: () => number) {
    this.#now = now;
  }

  /** Signs a token with claims `iss`, `sub` (`{clientId}@clients`), `aud`, `iat`, `exp`, `scope`, `gty`, `azp`. */
  async issue(request: AccessTokenRequest): Promise<string> {
    const { privateKey, kid } = await this.#signingKey();
    const { SignJWT } = await import('jose');
    const issuedAt = Math.floor(this.#now() / 1000);
    return new SignJWT({ scope: request.scopes.join(' '), gty: 'client-credentials', azp: request.clientId })
      .setProtectedHeader({ alg: 'RS256', typ: 'JWT', kid })
      .setIssuer(request.issuer)
      .setSubject(`${request.clientId}@clients`)
      .setAudience(request.audience)
      .setIssuedAt(issuedAt)
      .setExpirationTime(issuedAt + request.lifetimeSeconds)
      .sign(privateKey);
  }

  /** Verifies signature, `exp`, `iss` and `aud` of a bearer token, as the Management API does. */
  async verify(token: string, expected: { readonly issuer: string; readonly audience: string }): Promise<TokenCheck> {
    const { publicKey } = await this.#signingKey();
    const { jwtVerify } = await import('jose');
    try {
      const { payload } = await jwtVerify(token, publicKey, {
        algorithms: ['RS256'],
        issuer: expected.issuer,
        audience: expected.audience,
        currentDate: new Date(this.#now()),
        requiredClaims: ['exp', 'sub'],
      });
      const scopes = typeof payload.scope === 'string' ? payload.scope.split(' ').filter(Boolean) : [];
      const clientId = typeof payload.azp === 'string' ? payload.azp : (payload.sub ?? '').replace(/@clients$/, '');
      return { ok: true, clientId, subject: payload.sub ?? '', scopes };
    } catch (error) {
      const message = refusal(error);
      // Claims are checked after the signature: jose's error carries the verified payload.
      const hint =
        message === 'Bad issuer' ? issuerHint((error as { payload: { iss?: unknown } }).payload.iss, expected.issuer) : undefined;
      return hint === undefined ? { ok: false, message } : { ok: false, message, hint };
    }
  }

  /** The public key set (`/.well-known/jwks.json`) that verifies the emulator's tokens. */
  async jwks(): Promise<JSONWebKeySet> {
    const { publicKey, kid } = await this.#signingKey();
    const { exportJWK } = await import('jose');
    return { keys: [{ ...(await exportJWK(publicKey)), kid, alg: 'RS256', use: 'sig' }] };
  }

  #signingKey(): Promise<SigningKey> {
    return sharedSigningKey();
  }
}

/**
 * Why a token signed by an emulator of this process has another tenant's `iss`.
 * It was made by `createAccessToken` for another origin, since the token endpoint issues for the origin it is asked at.
 * Typically it was made for `emulator.origin` and sent to `listen()`'s server.
 */
function issuerHint(issuer: unknown, expectedIssuer: string): string | undefined {
  if (typeof issuer !== 'string') return undefined;
  const origin = expectedIssuer.replace(/\/$/, '');
  const served = new URL(origin);
  const loopback = served.protocol === 'http:' && /^(?:localhost|\[::1\]|127(?:\.\d{1,3}){3})$/.test(served.hostname);
  const which = loopback ? ', the url listen() returned,' : '';
  return (
    `the token's issuer is "${issuer}", this tenant's is "${expectedIssuer}" ` +
    `(createAccessToken needs { origin: "${origin}" }${which} to make a token for this tenant)`
  );
}

/** The Management API's message for a refused token. */
function refusal(error: unknown): string {
  const code = typeof error === 'object' && error !== null && 'code' in error ? error.code : undefined;
  const claim = typeof error === 'object' && error !== null && 'claim' in error ? error.claim : undefined;
  if (code === 'ERR_JWS_SIGNATURE_VERIFICATION_FAILED') return 'Invalid signature';
  if (code === 'ERR_JWT_EXPIRED') return 'Expired token';
  if (code === 'ERR_JWT_CLAIM_VALIDATION_FAILED' && claim === 'aud') return 'Bad audience';
  if (code === 'ERR_JWT_CLAIM_VALIDATION_FAILED' && claim === 'iss') return 'Bad issuer';
  return 'Invalid token';
}
