import type { CryptoKey, JWK } from 'jose';
import { ConfigurationError } from '../../errors.js';

/** A private key for signing client assertions: PKCS#8 PEM text, a WebCrypto `CryptoKey`, or a private JWK. */
export type ClientAssertionSigningKey = string | CryptoKey | JWK;

/** Whether a signing key is a WebCrypto `CryptoKey` (rather than a JWK). */
function isCryptoKey(key: CryptoKey | JWK): key is CryptoKey {
  return typeof (key as CryptoKey).algorithm === 'object' && typeof (key as CryptoKey).usages !== 'undefined';
}

/** Algorithms accepted for client assertions. */
export const CLIENT_ASSERTION_ALGORITHMS = ['RS256', 'RS384', 'RS512', 'PS256', 'PS384', 'PS512', 'ES256', 'ES384', 'ES512'] as const;
/** One of {@link CLIENT_ASSERTION_ALGORITHMS}. */
export type ClientAssertionSigningAlg = (typeof CLIENT_ASSERTION_ALGORITHMS)[number];

/**
 * Checks a signing key and algorithm given in client options, and returns them (the algorithm `RS256` by default).
 * Throws `ConfigurationError` naming the problem, e.g. a JWK without its private part (`d`).
 * It loads no jose: this module takes only types from it.
 * Whether a key fits the algorithm is checked when the key is imported, on first use (`privateKeyJwt`).
 * That keeps this check small in the browser bundles that load it.
 */
export function checkSigningKeyOptions(key: unknown, alg: unknown): { key: ClientAssertionSigningKey; alg: ClientAssertionSigningAlg } {
  const algorithm = CLIENT_ASSERTION_ALGORITHMS.find((known) => known === (alg ?? 'RS256'));
  if (algorithm === undefined) {
    throw new ConfigurationError(`\`clientAssertionSigningAlg\` must be one of ${CLIENT_ASSERTION_ALGORITHMS.join(', ')}`);
  }
  if (typeof key === 'string' && !key.includes('-----BEGIN PRIVATE KEY-----')) {
    throw new ConfigurationError('`clientAssertionSigningKey` as a string must be a PKCS#8 PEM ("-----BEGIN PRIVATE KEY-----")');
  }
  if (!isSigningKeyShape(key)) {
    throw new ConfigurationError('`clientAssertionSigningKey` must be a PKCS#8 PEM string, a CryptoKey or a JWK');
  }
  if (typeof key === 'object' && !isCryptoKey(key) && (typeof key.d !== 'string' || key.d === '')) {
    throw new ConfigurationError('`clientAssertionSigningKey` is a JWK without `d`: signing needs the private key, not the public one');
  }
  return { key, alg: algorithm };
}

/** A PEM string, a `CryptoKey`, or a JWK (an object naming its key type in `kty`); jose checks the rest when it imports the key. */
function isSigningKeyShape(key: unknown): key is ClientAssertionSigningKey {
  if (typeof key === 'string') return true;
  if (typeof key !== 'object' || key === null) return false;
  return isCryptoKey(key as CryptoKey) || typeof (key as JWK).kty === 'string';
}
