/**
 * ID token signatures, checked against the tenant's `/.well-known/jwks.json`. Loaded with `import()` only
 * when `idTokenVerification` is `'signature'`, so that browser bundles stay small.
 */
import { compactVerify, createRemoteJWKSet, customFetch, errors, type RemoteJWKSet } from 'jose';
import { timeoutAfter, withDeadline } from '../core/clock.js';
import { IdPlatformError, IdTokenValidationError } from '../core/errors.js';
import type { IdTokenSettings, IdTokenValidationContext } from './id-token.js';

const PATH = '/.well-known/jwks.json';

/** Each client's key set: jose caches it 10 minutes, and refetches it (at most every 30 s) for a key it lacks. */
const keySets = new WeakMap<IdTokenSettings, RemoteJWKSet>();

function keySetOf({ settings, client: { sender, timeoutMs } }: IdTokenValidationContext): RemoteJWKSet {
  const cached = keySets.get(settings);
  if (cached) return cached;
  // Through the client's sender: its fetch (mTLS's too), its headers, and a NetworkError for a failure to send.
  const fetchKeySet = async (_url: string, { signal }: { signal: AbortSignal }): Promise<Response> => {
    const response = await sender.fetch(PATH.slice(1), signal);
    if (response.status === 200) return response;
    response.body?.cancel().catch(() => {});
    throw new IdTokenValidationError('signature', `The tenant's ${PATH} answered HTTP ${response.status}, not its key set`);
  };
  const keySet = createRemoteJWKSet(new URL(PATH, settings.issuer), { timeoutDuration: Math.ceil(timeoutMs), [customFetch]: fetchKeySet });
  keySets.set(settings, keySet);
  return keySet;
}

/** Fetches the tenant's key set unless one under 10 minutes old is cached. Throws as {@link verifyIdTokenSignature}. */
export async function loadKeySet(context: IdTokenValidationContext): Promise<void> {
  const keySet = keySetOf(context);
  // Before a refresh-token grant: a rotating refresh token is not spent on tokens whose keys cannot be fetched.
  if (!keySet.fresh) await waitFor(() => keySet.reload(), context);
}

/**
 * Verifies the token's signature with the tenant's keys, accepting only
 * `idTokenSigningAlg`. Throws `IdTokenValidationError` (`signature`), or
 * `NetworkError` / `TimeoutError` when the keys cannot be fetched.
 */
export async function verifyIdTokenSignature(idToken: string, context: IdTokenValidationContext): Promise<void> {
  const options = { algorithms: [context.settings.signingAlg] };
  await waitFor(async () => {
    try {
      await compactVerify(idToken, keySetOf(context), options);
    } catch (error) {
      // Several keys could have signed it (no `kid`, or a repeated one): jose leaves trying each to its caller.
      if (!(error instanceof errors.JWKSMultipleMatchingKeys)) throw error;
      for await (const key of error as errors.JWKSMultipleMatchingKeys & AsyncIterable<CryptoKey>) {
        if (await compactVerify(idToken, key, options).catch(() => undefined)) return;
      }
      throw new errors.JWSSignatureVerificationFailed();
    }
  }, context);
}

/** Waits for `work` as long as the call's signal and `timeoutMs` allow: a fetch it shares goes on for the other calls. */
async function waitFor(work: () => Promise<void>, { signal, timeoutMs, client }: IdTokenValidationContext): Promise<void> {
  if (signal?.aborted) throw signal.reason;
  const done = work().catch((error: unknown) => {
    if (error instanceof IdPlatformError) throw error;
    const ms = client.timeoutMs;
    if (error instanceof errors.JWKSTimeout) throw timeoutAfter(ms, `GET ${PATH} timed out after ${ms} ms`);
    if (error instanceof errors.JWKSNoMatchingKey) throw new IdTokenValidationError('signature', `No key of ${PATH} matches the ID token`);
    if (error instanceof errors.JWSSignatureVerificationFailed || error instanceof errors.JWSInvalid) {
      throw new IdTokenValidationError('signature', 'The ID token signature is invalid');
    }
    // The set's fault: not JSON, not a key set, or a key that cannot be imported.
    throw new IdTokenValidationError('signature', `The tenant's ${PATH} is not a JSON Web Key Set that can check the ID token`);
  });
  const ms = timeoutMs ?? client.timeoutMs;
  await withDeadline(done, signal, ms, `GET ${PATH} timed out after ${ms} ms`);
}
