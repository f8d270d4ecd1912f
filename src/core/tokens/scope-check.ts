import { InsufficientScopeError, type ScopeName } from '../errors.js';
import { loadOnce } from '../load-once.js';

/** Checks a token's scopes against an operation's: synchronous for the token read last, else async (the JWT decoder loads on first use). */
export type ScopeCheck = (token: string, required: ScopeName | undefined) => void | Promise<void>;

/** jose's `decodeJwt`, loaded with the first token: `idplatform/management` starts without jose. */
const loadDecoder = loadOnce(() => import('jose/jwt/decode').then((module) => module.decodeJwt));

/** A {@link ScopeCheck} that throws `InsufficientScopeError` before sending when a readable JWT's `scope` lacks the one required. */
export function createScopeCheck(): ScopeCheck {
  let lastToken: string | undefined;
  let lastScopes: readonly string[] | undefined;
  const check = (required: ScopeName, scopes: readonly string[] | undefined) => {
    // A copy: the error's `granted` is the caller's to change, not the cache's.
    if (scopes && !scopes.includes(required)) throw new InsufficientScopeError(required, [...scopes]);
  };
  return (token, required) => {
    if (required === undefined) return;
    if (token === lastToken) return check(required, lastScopes);
    return decodeScopes(token).then((scopes) => {
      if (scopes === NOT_LOADED) return; // this call goes unchecked (the server decides); the next one tries again
      lastToken = token;
      lastScopes = scopes;
      check(required, scopes);
    });
  };
}

/** What {@link decodeScopes} answers when the JWT decoder could not be loaded. */
const NOT_LOADED = Symbol('the decoder could not be loaded');

async function decodeScopes(token: string): Promise<readonly string[] | undefined | typeof NOT_LOADED> {
  const decodeJwt = await loadDecoder().catch(() => undefined);
  if (decodeJwt === undefined) return NOT_LOADED;
  try {
    const { scope } = decodeJwt(token);
    return typeof scope === 'string' ? scope.split(' ').filter(Boolean) : undefined;
  } catch {
    return undefined;
  }
}
