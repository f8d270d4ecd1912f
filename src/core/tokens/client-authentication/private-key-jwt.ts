import { type CryptoKey, importJWK, importPKCS8, type JWK, SignJWT } from 'jose';
import { ConfigurationError } from '../../errors.js';
import { loadOnce } from '../../load-once.js';
import type { ClientAssertionSigningAlg, ClientAssertionSigningKey } from './signing-key.js';
import type { ClientAuthentication } from './types.js';

const ASSERTION_LIFETIME_SECONDS = 60;

/** The `client_assertion_type` of a JWT client assertion (RFC 7523). */
const CLIENT_ASSERTION_TYPE = 'urn:ietf:params:oauth:client-assertion-type:jwt-bearer';

/** Whether a checked signing key (PEM text, a `CryptoKey` or a JWK) is a JWK: JWKs name their key type in `kty`, as jose reads them. */
function isJwk(key: ClientAssertionSigningKey): key is JWK {
  return typeof key === 'object' && typeof (key as JWK).kty === 'string';
}

/**
 * `private_key_jwt`: sends a JWT signed with the client's key as `client_assertion`.
 * It goes with `client_assertion_type=urn:ietf:params:oauth:client-assertion-type:jwt-bearer`.
 * The claims are `iss` = `sub` = client id, `aud` = the tenant's issuer `https://{domain}/`, `iat`, `exp` 60 s later and a random `jti`.
 * So every attempt sends a new assertion.
 * The header names the key's `kid` when the key is a JWK with one.
 * A key that cannot sign `alg` assertions (a public key, a key of another algorithm) fails with `ConfigurationError`.
 * That happens when the key is imported, or when it signs for what only jose finds.
 * Kept in its own module, so that browser bundles that do not use it never load jose.
 */
export function privateKeyJwt(
  clientId: string,
  signingKey: ClientAssertionSigningKey,
  alg: ClientAssertionSigningAlg = 'RS256',
  now: () => number = Date.now,
): ClientAuthentication {
  // A key that failed to import is not kept: the next attempt tries again.
  const key = loadOnce(() =>
    importSigningKey(signingKey, alg).catch((error: unknown) => {
      if (error instanceof ConfigurationError) throw error;
      throw new ConfigurationError(`\`clientAssertionSigningKey\` could not be used as a ${alg} private key`, { cause: error });
    }),
  );
  // A JWK's `kid` names the key among those the client registered (key rotation): sent in the header.
  const kid = isJwk(signingKey) && signingKey.kid ? signingKey.kid : undefined;
  return {
    method: 'private_key_jwt',
    apply: async ({ body }, issuer) => {
      const issuedAt = Math.floor(now() / 1000);
      const jwt = new SignJWT({})
        .setProtectedHeader(kid === undefined ? { alg, typ: 'JWT' } : { alg, typ: 'JWT', kid })
        .setIssuer(clientId)
        .setSubject(clientId)
        .setAudience(issuer)
        .setIssuedAt(issuedAt)
        .setExpirationTime(issuedAt + ASSERTION_LIFETIME_SECONDS)
        .setJti(crypto.randomUUID());
      const signWith = await key();
      let assertion: string;
      try {
        assertion = await jwt.sign(signWith);
      } catch (error) {
        // jose's TypeError or a WebCrypto DOMException: the key cannot sign these assertions.
        throw new ConfigurationError(`\`clientAssertionSigningKey\` could not sign a ${alg} client assertion`, { cause: error });
      }
      body.set('client_id', clientId);
      body.set('client_assertion_type', CLIENT_ASSERTION_TYPE);
      body.set('client_assertion', assertion);
      return [assertion];
    },
  };
}

/** Imports the key (PEM or JWK) for `alg`, and checks that it can sign `alg` assertions (see {@link checkSigningCryptoKey}). */
async function importSigningKey(key: ClientAssertionSigningKey, alg: ClientAssertionSigningAlg): Promise<CryptoKey | Uint8Array> {
  const imported = typeof key === 'string' ? await importPKCS8(key, alg) : isJwk(key) ? await importJWK(key, alg) : key;
  if (!(imported instanceof Uint8Array)) checkSigningCryptoKey(imported, alg);
  return imported;
}

/** What WebCrypto calls the key of each algorithm family. */
const WEBCRYPTO_ALGORITHM = { RS: 'RSASSA-PKCS1-v1_5', PS: 'RSA-PSS', ES: 'ECDSA' } as const;
/** The curve of each ECDSA algorithm. */
const CURVE_OF: Readonly<Record<string, string>> = { ES256: 'P-256', ES384: 'P-384', ES512: 'P-521' };

/**
 * Throws `ConfigurationError` unless `key` can sign `alg` assertions.
 * It must be a private key (`type: 'private'`) with the `sign` usage.
 * Its WebCrypto algorithm must be `alg`'s: `RSASSA-PKCS1-v1_5` for RS, `RSA-PSS` for PS, `ECDSA` on the matching curve for ES.
 * For RS and PS, its hash must be the algorithm's too.
 * jose would refuse such a key as well, but with a `TypeError` when it signs.
 */
function checkSigningCryptoKey(key: CryptoKey, alg: ClientAssertionSigningAlg): void {
  if (key.type !== 'private') {
    throw new ConfigurationError(`\`clientAssertionSigningKey\` is a ${key.type} key: signing needs the private key`);
  }
  if (!key.usages.includes('sign')) {
    throw new ConfigurationError("`clientAssertionSigningKey` was imported without the 'sign' usage");
  }
  const algorithm = key.algorithm as { name?: unknown; hash?: { name?: unknown }; namedCurve?: unknown };
  const family = alg.slice(0, 2) as keyof typeof WEBCRYPTO_ALGORITHM;
  const fits =
    algorithm.name === WEBCRYPTO_ALGORITHM[family] &&
    (family === 'ES' ? algorithm.namedCurve === CURVE_OF[alg] : algorithm.hash?.name === `SHA-${alg.slice(2)}`);
  if (!fits) {
    throw new ConfigurationError(
      `\`clientAssertionSigningKey\` is not a ${alg} key: set \`clientAssertionSigningAlg\` to the key's algorithm`,
    );
  }
}
