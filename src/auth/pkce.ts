import { ConfigurationError } from '../core/errors.js';
import { base64url } from './base64url.js';

/** A PKCE verifier and its S256 challenge (RFC 7636). */
export interface PkcePair {
  /** Keep this secret until the code exchange: 43 characters of the unreserved alphabet. */
  readonly code_verifier: string;
  /** `BASE64URL(SHA-256(code_verifier))`: send it in the authorize URL. */
  readonly code_challenge: string;
  readonly code_challenge_method: 'S256';
}

/**
 * Makes a PKCE pair with WebCrypto (Node ≥ 20 and browsers).
 * The verifier is 32 random bytes in base64url: 43 characters of `[A-Za-z0-9-_]`, within RFC 7636's 43–128 of the unreserved alphabet.
 * The challenge is its S256 digest.
 * Rejects with `ConfigurationError` where `crypto.subtle` is missing.
 * Browsers provide it in a secure context only: a page served over https or from localhost.
 */
export async function createPkcePair(): Promise<PkcePair> {
  if (globalThis.crypto?.subtle === undefined) {
    throw new ConfigurationError(
      'createPkcePair needs WebCrypto (crypto.subtle), which browsers provide in a secure context only: serve the page over https or from localhost',
    );
  }
  const code_verifier = base64url(crypto.getRandomValues(new Uint8Array(32)));
  const digest = await crypto.subtle.digest('SHA-256', new TextEncoder().encode(code_verifier));
  return { code_verifier, code_challenge: base64url(new Uint8Array(digest)), code_challenge_method: 'S256' };
}
