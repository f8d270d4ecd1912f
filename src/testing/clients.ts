// Types only: jose is loaded on the first assertion to verify, so importing the emulator loads none of it.
import type { CryptoKey, JSONWebKeySet, JWK, JWTVerifyGetKey } from 'jose';

/** The ways a client may authenticate at the emulator's token endpoint. */
export type EmulatedAuthMethod = 'client_secret_post' | 'client_secret_basic' | 'private_key_jwt';

/** A machine-to-machine client to register with `emulator.registerClient`. */
export interface ClientRegistration {
  readonly clientId: string;
  /** The secret for `client_secret_post`/`client_secret_basic`; one is generated when a secret method is allowed and none is given. */
  readonly clientSecret?: string;
  /** The public key that verifies the client's assertions (`private_key_jwt`): SPKI PEM text, a public JWK or a public `CryptoKey`. */
  readonly publicKey?: CryptoKey | JWK | string;
  /** Public keys (chosen by `kid`) that verify the client's assertions, instead of `publicKey`. */
  readonly jwks?: JSONWebKeySet;
  /** The Management API scopes granted to the client, e.g. `['read:organization_invitations']`. */
  readonly scopes: readonly string[];
  /**
   * The one method the client must use. When left out: `client_secret_post` and
   * `client_secret_basic` if the client has a secret, and `private_key_jwt` if it has a key.
   */
  readonly tokenEndpointAuthMethod?: EmulatedAuthMethod;
}

/** What a client sends to authenticate: its id, and the secret when it has one. */
export interface ClientCredentials {
  readonly clientId: string;
  readonly clientSecret?: string;
}

/** A client as the token endpoint sees it. */
export interface RegisteredClient {
  readonly clientId: string;
  readonly clientSecret: string | undefined;
  readonly scopes: readonly string[];
  readonly methods: ReadonlySet<EmulatedAuthMethod>;
  /** Resolves the key that verifies an assertion, from its protected header. */
  readonly assertionKey: JWTVerifyGetKey | undefined;
}

const PRIVATE_JWK_MEMBERS = ['d', 'p', 'q', 'dp', 'dq', 'qi', 'oth', 'k', 'priv'];

/** Checks a registration and prepares it for the token endpoint; throws `TypeError` naming the problem. */
export function registerClient(registration: ClientRegistration): RegisteredClient {
  const { clientId, publicKey, jwks, scopes, tokenEndpointAuthMethod: method } = registration;
  if (typeof clientId !== 'string' || clientId === '') throw new TypeError('clientId must be a non-empty string');
  if (!Array.isArray(scopes) || !scopes.every((scope) => typeof scope === 'string' && /^\S+$/.test(scope))) {
    throw new TypeError('scopes must be an array of scope names without spaces');
  }
  if (publicKey !== undefined && jwks !== undefined) throw new TypeError('pass publicKey or jwks, not both');
  const assertionKey = jwks !== undefined ? keySetResolver(jwks) : publicKey !== undefined ? keyResolver(publicKey) : undefined;
  const hasSecret = registration.clientSecret !== undefined;
  if (hasSecret && (typeof registration.clientSecret !== 'string' || registration.clientSecret === '')) {
    throw new TypeError('clientSecret must be a non-empty string');
  }
  const methods = new Set<EmulatedAuthMethod>();
  if (method !== undefined) {
    if (!['client_secret_post', 'client_secret_basic', 'private_key_jwt'].includes(method)) {
      throw new TypeError('tokenEndpointAuthMethod must be client_secret_post, client_secret_basic or private_key_jwt');
    }
    methods.add(method);
  } else {
    if (hasSecret || assertionKey === undefined) methods.add('client_secret_post').add('client_secret_basic');
    if (assertionKey !== undefined) methods.add('private_key_jwt');
  }
  if (methods.has('private_key_jwt') && assertionKey === undefined) throw new TypeError('private_key_jwt needs publicKey or jwks');
  const usesSecret = methods.has('client_secret_post') || methods.has('client_secret_basic');
  return {
    clientId,
    clientSecret: usesSecret ? (registration.clientSecret ?? randomSecret()) : undefined,
    scopes: [...scopes],
    methods,
    assertionKey,
  };
}

/** Resolves an assertion's key from a key set (by `kid` and `alg`, as jose's local key sets do). */
function keySetResolver(jwks: JSONWebKeySet): JWTVerifyGetKey {
  const { keys } = (jwks ?? {}) as { keys?: unknown };
  if (!Array.isArray(keys) || !keys.every((key) => typeof key === 'object' && key !== null && !Array.isArray(key))) {
    throw new TypeError('jwks must be a JSON Web Key Set: { keys: [ …public JWKs ] }');
  }
  let keySet: Promise<JWTVerifyGetKey> | undefined;
  return async (header, token) => {
    keySet ??= import('jose').then(({ createLocalJWKSet }) => createLocalJWKSet(jwks));
    return (await keySet)(header, token);
  };
}

function keyResolver(key: CryptoKey | JWK | string): JWTVerifyGetKey {
  if (typeof key === 'string') {
    if (key.includes('PRIVATE KEY')) throw new TypeError('publicKey must be the public key (SPKI PEM), not the private key');
    const byAlg = new Map<string, Promise<CryptoKey>>();
    return (header) => {
      const alg = header.alg ?? '';
      let imported = byAlg.get(alg);
      if (imported === undefined) {
        imported = import('jose').then(({ importSPKI }) => importSPKI(key, alg));
        byAlg.set(alg, imported);
      }
      return imported;
    };
  }
  if (!isJwk(key)) {
    if (key.type !== 'public') throw new TypeError('publicKey must be a public CryptoKey');
    return () => key;
  }
  const publicJwk: JWK = Object.fromEntries(Object.entries(key).filter(([member]) => !PRIVATE_JWK_MEMBERS.includes(member)));
  if (publicJwk.kty === 'oct') throw new TypeError('publicKey must be an asymmetric public key');
  return async (header) => {
    const { importJWK } = await import('jose');
    const imported = await importJWK(publicJwk, header.alg);
    if (imported instanceof Uint8Array) throw new TypeError('publicKey must be an asymmetric public key');
    return imported;
  };
}

/** 32 random bytes, in hex. */
function randomSecret(): string {
  return Array.from(crypto.getRandomValues(new Uint8Array(32)), (byte) => byte.toString(16).padStart(2, '0')).join('');
}

/** A JWK is a plain object with `kty`; a `CryptoKey` has an `algorithm` and `usages` instead. */
function isJwk(key: CryptoKey | JWK): key is JWK {
  return typeof (key as JWK).kty === 'string';
}
