import { describe, expect, it, vi } from 'vitest';

let loads = 0;
vi.mock('jose/jwt/decode', async (importOriginal) => {
  loads++;
  if (loads === 1) throw new Error('chunk failed to load (offline)');
  return importOriginal();
});

import { InsufficientScopeError } from '../../../src/core/errors.js';
import { createScopeCheck } from '../../../src/core/tokens/scope-check.js';
import { jwtWithClaims } from '../../helpers/jwt.js';

describe('scope check after the JWT decoder failed to load', () => {
  it('tries again on the next call with the same token', async () => {
    const check = createScopeCheck();
    const token = jwtWithClaims({ scope: 'read:users' });
    await check(token, 'read:organization_invitations'); // decoder failed: unchecked, as documented
    await expect(Promise.resolve().then(() => check(token, 'read:organization_invitations'))).rejects.toBeInstanceOf(
      InsufficientScopeError,
    );
  });

  it('control: the decoder does load on a retry (a different token is checked)', async () => {
    const check = createScopeCheck();
    await expect(
      Promise.resolve().then(() => check(jwtWithClaims({ scope: 'read:users', n: 2 }), 'read:organization_invitations')),
    ).rejects.toBeInstanceOf(InsufficientScopeError);
  });
});
