import { describe, expectTypeOf, it } from 'vitest';
import type {
  AuthenticationClient,
  PasswordlessStartResponse,
  SignUpResponse,
  TokenResponse,
  TokenResponseWithClaims,
  UserInfo,
} from '../../../src/auth/index.js';

declare const auth: AuthenticationClient;
declare const tokens: TokenResponse;
declare const user: UserInfo;

describe('Authentication API response types', () => {
  it('are named interfaces the grants return', () => {
    expectTypeOf(auth.oauth.passwordGrant({ username: 'a', password: 'b' })).resolves.toEqualTypeOf<TokenResponseWithClaims>();
    expectTypeOf(auth.oauth.clientCredentialsGrant({ audience: 'a' })).resolves.toEqualTypeOf<TokenResponse>();
    expectTypeOf(auth.userInfo.get('token')).resolves.toEqualTypeOf<UserInfo>();
    expectTypeOf(auth.database.signUp({ connection: 'c', email: 'a@b.c', password: 'p' })).resolves.toEqualTypeOf<SignUpResponse>();
    expectTypeOf(auth.passwordless.start({ connection: 'email', email: 'a@b.c' })).resolves.toEqualTypeOf<PasswordlessStartResponse>();
  });

  it('name the known members, with their types', () => {
    expectTypeOf(tokens.access_token).toEqualTypeOf<string>();
    expectTypeOf(tokens.expires_in).toEqualTypeOf<number | undefined>();
    expectTypeOf(user.sub).toEqualTypeOf<string>();
  });

  it('have no index signature, so a misspelt member does not compile', () => {
    // @ts-expect-error the member is expires_in
    tokens.expiresIn;
    // @ts-expect-error the member is access_token
    tokens.accessToken;
    // @ts-expect-error the claim is email_verified
    user.emailVerified;
    expectTypeOf<TokenResponse>().not.toHaveProperty('expiresIn');
  });
});
