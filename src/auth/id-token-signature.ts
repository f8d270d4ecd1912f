/**
 * ID token signature verification against the tenant's `/.well-known/jwks.json`
 * (OpenID Connect Core 3.1.3.7, item 6). Loaded with `import()` only when
 * `idTokenVerification` is `'signature'`, so that browser bundles stay small.
 */
import { compactVerify, createLocalJWKSet, errors, type JSONWebKeySet } from 'jose';
import { IdTokenValidationError } from '../core/errors.js';
import { leftAWait, type SharedAttempt, SharedWork, sharedRetry } from '../core/shared-work.js';
import type { IdTokenSettings, IdTokenValidationContext, PreparedKeySet } from './id-token.js';

/** After a key rotation, a key missing from the cached set refetches the set, at most this often. */
const REFETCH_COOLDOWN_SEC = 30;

/**
 * How long a fetched key set is used before it is fetched again: a key the tenant
 * revokes (removes from its set) stops being trusted within this time.
 */
const KEY_SET_MAX_AGE_SEC = 600;

type KeySet = ReturnType<typeof createLocalJWKSet>;

interface CachedKeySet {
  /** The fetch, which the calls waiting for it share (waited for through `fetch.wait`, so that a wait counts). */
  readonly fetch: SharedWork<KeySet>;
  /** Seconds since the epoch. */
  readonly fetchedAt: number;
  /** The fetch failed. */
  failed?: boolean;
}

/** One cached key set per client (keyed by its ID token settings). */
const cache = new WeakMap<IdTokenSettings, CachedKeySet>();
/**
 * Each client's last refetch after a key rotation (a token naming a key the cached
 * set lacks), while it runs or after it failed: the cached set stays in use until a
 * refetch succeeds, and the next refetch waits 30 s from the last one.
 */
const rotations = new WeakMap<IdTokenSettings, CachedKeySet>();
/** The last failure of a client's key-set fetch that every call gave up during a wait it demanded (see `SharedAttempt.resumeAfter`). */
const givenUpFailures = new WeakMap<IdTokenSettings, unknown>();

/**
 * Fetches the key set and caches it (from `now`): at once, or, for a refetch after a
 * key rotation (`rotation`), once it succeeds (the set in the cache is kept until
 * then, and kept when it fails). Every call waiting for it having given up, a fetch
 * sends no retry; the next call waits for what its request in flight brings, and
 * fetches again if it fails.
 */
function fetchKeySet(context: IdTokenValidationContext, previous?: CachedKeySet, rotation = false): CachedKeySet {
  const { settings, now, fetchJwks, fetchSettling } = context;
  const run = (attempt: SharedAttempt) => fetchJwks(sharedRetry(attempt)).then((jwks) => createLocalJWKSet(jwks as JSONWebKeySet));
  const fetch =
    previous === undefined
      ? new SharedWork(run, { resumeAfter: givenUpFailures.get(settings), ...fetchSettling })
      : previous.fetch.continued(run);
  const entry: CachedKeySet = { fetch, fetchedAt: now };
  (rotation ? rotations : cache).set(settings, entry);
  fetch.result.then(
    () => {
      givenUpFailures.delete(settings);
      const cached = cache.get(settings);
      if (rotation && (cached === undefined || cached.fetchedAt <= entry.fetchedAt)) cache.set(settings, entry);
    },
    (error: unknown) => {
      entry.failed = true;
      // A failed fetch is not cached: the next token tries again (after what is left of a wait a 429 demanded,
      // when every call gave this fetch up before it waited that out).
      if (fetch.givenUp && leftAWait(error)) givenUpFailures.set(settings, error);
      if (cache.get(settings) === entry) cache.delete(settings);
    },
  );
  return entry;
}

/**
 * The key set to check a token with: the one its grant loaded, else the cached set of
 * `context`'s client while it is younger than {@link KEY_SET_MAX_AGE_SEC}, else a
 * fresh fetch.
 */
function currentKeySet(context: IdTokenValidationContext): CachedKeySet {
  // A prepared set is an entry of this module's cache (see loadKeySet).
  if (context.preparedKeySet !== undefined) return context.preparedKeySet as CachedKeySet;
  const cached = cache.get(context.settings);
  if (cached === undefined || context.now - cached.fetchedAt >= KEY_SET_MAX_AGE_SEC) return fetchKeySet(context);
  return carriedOn(context, cached);
}

/**
 * `entry`, or, when every call gave its fetch up before it ended, the fetch that takes
 * it over (see `SharedWork.continued`), in the same place (`rotation`: a refetch after
 * a key rotation, cached once it succeeds).
 */
function carriedOn(context: IdTokenValidationContext, entry: CachedKeySet, rotation = false): CachedKeySet {
  return entry.fetch.abandoned ? fetchKeySet(context, entry, rotation) : entry;
}

/**
 * The keys of `entry`, waited for with the call's own signal and `timeoutMs`: a call
 * that gives up leaves the fetch, which other calls may share, going on.
 */
function keysOf(entry: CachedKeySet, { signal, timeoutMs }: IdTokenValidationContext): Promise<KeySet> {
  return entry.fetch.wait(signal, timeoutMs, `GET /.well-known/jwks.json timed out after ${timeoutMs} ms`);
}

/**
 * Makes sure the tenant's key set is at hand (cached and young enough, or fetched
 * now) and returns it, so that a token verified soon after is checked with it and
 * needs no fetch (but for a key the set lacks: key rotation). Throws what the fetch
 * throws (`AuthApiError`, `NetworkError`, `TimeoutError`) or `IdTokenValidationError`
 * for a set that is not a JSON Web Key Set.
 */
export async function loadKeySet(context: IdTokenValidationContext): Promise<PreparedKeySet> {
  const entry = currentKeySet(context);
  await keysOf(entry, context).catch((error: unknown) => {
    throw toValidationError(error);
  });
  return entry;
}

/**
 * Verifies the token's signature with the tenant's keys (fetched and cached for 10
 * minutes; fetched again sooner when the token names a key the cached set lacks, at
 * most every 30 s), accepting only `idTokenSigningAlg`. Throws `IdTokenValidationError`
 * (`signature` or `alg`); a failure to fetch the keys throws the usual `AuthApiError`
 * or `NetworkError`.
 */
export async function verifyIdTokenSignature(idToken: string, context: IdTokenValidationContext): Promise<void> {
  const entry = currentKeySet(context);
  try {
    await verifyWith(idToken, await keysOf(entry, context), context.settings);
  } catch (error) {
    if (!(error instanceof errors.JWKSNoMatchingKey)) throw toValidationError(error);
    const newer = keySetAfterRotation(context, entry);
    if (newer === undefined) throw toValidationError(error);
    await verifyWith(idToken, await keysOf(newer, context), context.settings).catch((retried: unknown) => {
      throw toValidationError(retried);
    });
  }
}

/**
 * A key set fetched after `entry`, which lacks the token's key: one another call
 * fetched (or is fetching) since, used as it is (concurrent logins that meet a
 * rotated key share one fetch), else a refetch, unless one was made (or `entry`
 * fetched) less than {@link REFETCH_COOLDOWN_SEC} ago: `undefined` then. A refetch
 * that fails leaves the cached set in place for the tokens it can check.
 */
function keySetAfterRotation(context: IdTokenValidationContext, entry: CachedKeySet): CachedKeySet | undefined {
  const { settings, now } = context;
  const latest = cache.get(settings);
  if (latest !== undefined && latest !== entry && latest.fetchedAt >= entry.fetchedAt) {
    return carriedOn(context, latest);
  }
  const rotation = rotations.get(settings);
  let lastFetchAt = entry.fetchedAt;
  if (rotation !== undefined && rotation !== entry && rotation.fetchedAt >= entry.fetchedAt) {
    if (!rotation.failed) return carriedOn(context, rotation, true);
    lastFetchAt = rotation.fetchedAt;
  }
  return now - lastFetchAt < REFETCH_COOLDOWN_SEC ? undefined : fetchKeySet(context, undefined, true);
}

/**
 * Verifies `idToken` with `keys`, accepting only the configured algorithm. When
 * several keys of the set could have signed it (the token names no `kid`, or the set
 * repeats one), each is tried, as jose leaves to its caller: the token is good when
 * one of them verifies it.
 */
async function verifyWith(idToken: string, keys: KeySet, settings: IdTokenSettings): Promise<void> {
  const algorithms = [settings.signingAlg];
  try {
    await compactVerify(idToken, keys, { algorithms });
  } catch (error) {
    if (!(error instanceof errors.JWKSMultipleMatchingKeys)) throw error;
    for await (const key of error as errors.JWKSMultipleMatchingKeys & AsyncIterable<CryptoKey>) {
      try {
        await compactVerify(idToken, key, { algorithms });
        return;
      } catch {
        // Not this key: the next one.
      }
    }
    throw new errors.JWSSignatureVerificationFailed();
  }
}

function toValidationError(error: unknown): unknown {
  if (!(error instanceof errors.JOSEError)) return error;
  if (error instanceof errors.JOSEAlgNotAllowed) {
    return new IdTokenValidationError('alg', 'The ID token is signed with an algorithm other than idTokenSigningAlg');
  }
  if (error instanceof errors.JWKSInvalid) {
    return new IdTokenValidationError('signature', "The tenant's /.well-known/jwks.json is not a valid JSON Web Key Set");
  }
  if (error instanceof errors.JWKSNoMatchingKey) {
    return new IdTokenValidationError('signature', "No key of the tenant's /.well-known/jwks.json matches the ID token");
  }
  return new IdTokenValidationError('signature', 'The ID token signature is invalid');
}
