import { describe, expectTypeOf, it } from 'vitest';
import type { AuthorizeUrlParams, Prompt, ResponseType, SamlUrlParams, WsfedUrlParams } from '../../src/auth/index.js';

/** Every space-separated list of the members of `T`, each at most once, in any order. */
type Orderings<T extends string, U extends string = T> = T extends unknown ? T | `${T} ${Orderings<Exclude<U, T>>}` : never;

describe('URL builder parameter types', () => {
  it('ResponseType is every order of code, token and id_token (a set, OAuth 2.0 Multiple Response Type Encoding Practices 5)', () => {
    expectTypeOf<ResponseType>().toEqualTypeOf<Orderings<'code' | 'token' | 'id_token'>>();
    expectTypeOf<AuthorizeUrlParams['response_type']>().toEqualTypeOf<ResponseType | undefined>();
  });

  it('Prompt is none alone, or every order of login, consent and select_account (OIDC Core 3.1.2.1)', () => {
    expectTypeOf<Prompt>().toEqualTypeOf<'none' | Orderings<'login' | 'consent' | 'select_account'>>();
    expectTypeOf<'none login'>().not.toExtend<Prompt>();
    expectTypeOf<AuthorizeUrlParams['prompt']>().toEqualTypeOf<Prompt | undefined>();
  });

  it('samlUrl and wsfedUrl take only their known parameters', () => {
    expectTypeOf<keyof SamlUrlParams>().toEqualTypeOf<'connection'>();
    expectTypeOf<keyof WsfedUrlParams>().toEqualTypeOf<'wctx' | 'wreply'>();
  });
});
