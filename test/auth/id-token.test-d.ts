import { describe, expectTypeOf, it } from 'vitest';
import type {
  AuthenticationClient,
  AuthenticationClientOptions,
  IdTokenClaims,
  IdTokenSigningAlg,
  TokenResponseWithClaims,
} from '../../src/auth/index.js';

declare const auth: AuthenticationClient;

describe('ID token types', () => {
  it('the grants that may return an ID token resolve with its typed claims', () => {
    expectTypeOf(auth.oauth.authorizationCodeGrant).returns.resolves.toEqualTypeOf<TokenResponseWithClaims>();
    expectTypeOf(auth.oauth.refreshTokenGrant).returns.resolves.toEqualTypeOf<TokenResponseWithClaims>();
    expectTypeOf(auth.oauth.passwordGrant).returns.resolves.toEqualTypeOf<TokenResponseWithClaims>();
    expectTypeOf(auth.passwordless.login).returns.resolves.toEqualTypeOf<TokenResponseWithClaims>();
    expectTypeOf<TokenResponseWithClaims['claims']>().toEqualTypeOf<IdTokenClaims | undefined>();
  });

  it('registered claims are typed; others are unknown until checked', () => {
    expectTypeOf<IdTokenClaims['sub']>().toEqualTypeOf<string>();
    expectTypeOf<IdTokenClaims['exp']>().toEqualTypeOf<number>();
    expectTypeOf<IdTokenClaims['aud']>().toEqualTypeOf<string | readonly string[]>();
    expectTypeOf<IdTokenClaims['org_id']>().toEqualTypeOf<string | undefined>();
    expectTypeOf<IdTokenClaims['email']>().toEqualTypeOf<unknown>();
  });

  it('nonce, organization and max_age are grant parameters of the code flow', () => {
    auth.oauth.authorizationCodeGrant({ code: 'c', redirect_uri: 'https://app/cb', nonce: 'n', organization: 'org_1', max_age: 60 });
    // @ts-expect-error max_age is a number of seconds
    auth.oauth.authorizationCodeGrant({ code: 'c', redirect_uri: 'https://app/cb', max_age: '60' });
    // @ts-expect-error the refresh grant has no nonce: a refreshed ID token carries none to compare
    auth.oauth.refreshTokenGrant({ refresh_token: 'r', nonce: 'n' });
  });

  it('the options take the documented values only', () => {
    expectTypeOf<'RS256'>().toExtend<IdTokenSigningAlg>();
    expectTypeOf<'HS256'>().not.toExtend<IdTokenSigningAlg>();
    expectTypeOf<AuthenticationClientOptions['idTokenVerification']>().toEqualTypeOf<'signature' | 'claims' | undefined>();
    expectTypeOf<AuthenticationClientOptions['clockToleranceSec']>().toEqualTypeOf<number | undefined>();
  });
});
