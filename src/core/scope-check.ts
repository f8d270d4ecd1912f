import { decodeJwt } from 'jose/jwt/decode';
import { InsufficientScopeError, type ScopeName } from './errors.js';

/** Checks a token's scopes against an operation's required scope; see {@link createScopeCheck}. */
export type ScopeCheck = (token: string, required: ScopeName | undefined) => void;

/**
 * Makes a check that throws `InsufficientScopeError` before sending when the token
 * is a readable JWT whose `scope` claim lacks the required scope. Opaque tokens,
 * and JWTs without a `scope` claim, are sent as they are: the server has the last
 * word. The check remembers the last token it decoded, so a cached token is decoded once.
 */
export function createScopeCheck(): ScopeCheck {
  let lastToken: string | undefined;
  let lastScopes: readonly string[] | undefined;
  return (token, required) => {
    if (required === undefined) return;
    if (token !== lastToken) {
      lastToken = token;
      lastScopes = decodeScopes(token);
    }
    if (lastScopes && !lastScopes.includes(required)) throw new InsufficientScopeError(required, lastScopes);
  };
}

function decodeScopes(token: string): readonly string[] | undefined {
  try {
    const { scope } = decodeJwt(token);
    return typeof scope === 'string' ? scope.split(' ').filter(Boolean) : undefined;
  } catch {
    return undefined;
  }
}
