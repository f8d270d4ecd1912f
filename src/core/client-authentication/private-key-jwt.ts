import { type CryptoKey, importJWK, importPKCS8, SignJWT } from 'jose';
import { ConfigurationError } from '../errors.js';
import { CLIENT_ASSERTION_TYPE, type ClientAssertionSigningAlg, type ClientAssertionSigningKey, isCryptoKey } from './signing-key.js';
import type { ClientAuthentication } from './types.js';

const ASSERTION_LIFETIME_SECONDS = 60;

/**
 * `private_key_jwt`: a JWT signed with the client's key, sent as `client_assertion`
 * with `client_assertion_type=urn:ietf:params:oauth:client-assertion-type:jwt-bearer`.
 * Claims: `iss` = `sub` = client id, `aud` = the tenant's issuer `https://{domain}/`,
 * `iat`, `exp` 60 s later and a random `jti`, so every attempt sends a new assertion.
 * Kept in its own module so browser bundles that do not use it never load jose.
 */
export function privateKeyJwt(
  clientId: string,
  signingKey: ClientAssertionSigningKey,
  alg: ClientAssertionSigningAlg = 'RS256',
  now: () => number = Date.now,
): ClientAuthentication {
  let key: Promise<CryptoKey | Uint8Array> | undefined;
  return {
    method: 'private_key_jwt',
    apply: async ({ body }, issuer) => {
      key ??= importSigningKey(signingKey, alg).catch((error: unknown) => {
        key = undefined;
        throw new ConfigurationError(`\`clientAssertionSigningKey\` could not be used as a ${alg} private key`, { cause: error });
      });
      const issuedAt = Math.floor(now() / 1000);
      const assertion = await new SignJWT({})
        .setProtectedHeader({ alg, typ: 'JWT' })
        .setIssuer(clientId)
        .setSubject(clientId)
        .setAudience(issuer)
        .setIssuedAt(issuedAt)
        .setExpirationTime(issuedAt + ASSERTION_LIFETIME_SECONDS)
        .setJti(crypto.randomUUID())
        .sign(await key);
      body.set('client_id', clientId);
      body.set('client_assertion_type', CLIENT_ASSERTION_TYPE);
      body.set('client_assertion', assertion);
      return [assertion];
    },
  };
}

async function importSigningKey(key: ClientAssertionSigningKey, alg: ClientAssertionSigningAlg): Promise<CryptoKey | Uint8Array> {
  if (typeof key === 'string') return importPKCS8(key, alg);
  if (isCryptoKey(key)) return key;
  return importJWK(key, alg);
}
