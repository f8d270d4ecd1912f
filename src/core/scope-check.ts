import { InsufficientScopeError, type ScopeName } from './errors.js';
import { loadOnce } from './load-once.js';

/**
 * Checks a token's scopes against an operation's required scope; see
 * {@link createScopeCheck}. Synchronous for a token it has read before; a new
 * token is read once, asynchronously (the JWT decoder loads on first use).
 */
export type ScopeCheck = (token: string, required: ScopeName | undefined) => void | Promise<void>;

/** jose's `decodeJwt`, loaded with the first token: `idplatform/management` starts without jose. */
const loadDecoder = loadOnce(() => import('jose/jwt/decode').then((module) => module.decodeJwt));

/**
 * Makes a check that throws `InsufficientScopeError` before sending when the token
 * is a readable JWT whose `scope` claim lacks the required scope. Opaque tokens,
 * and JWTs without a `scope` claim, are sent as they are: the server has the last
 * word. The check remembers the last token it read, so a cached token is decoded once.
 */
export function createScopeCheck(): ScopeCheck {
  let lastToken: string | undefined;
  let lastScopes: readonly string[] | undefined;
  const check = (required: ScopeName) => {
    if (lastScopes && !lastScopes.includes(required)) throw new InsufficientScopeError(required, lastScopes);
  };
  return (token, required) => {
    if (required === undefined) return;
    if (token === lastToken) return check(required);
    return decodeScopes(token).then((scopes) => {
      lastToken = token;
      lastScopes = scopes;
      check(required);
    });
  };
}

async function decodeScopes(token: string): Promise<readonly string[] | undefined> {
  let decodeJwt: (token: string) => { scope?: unknown };
  try {
    decodeJwt = await loadDecoder();
  } catch {
    return undefined; // could not load: this call goes unchecked (the server decides), the next one tries again
  }
  try {
    const { scope } = decodeJwt(token);
    return typeof scope === 'string' ? scope.split(' ').filter(Boolean) : undefined;
  } catch {
    return undefined;
  }
}
