import { describe, expectTypeOf, it } from 'vitest';
import { allScopes, SCOPE_CATALOGUE, type Scope } from '../../src/management/index.js';

declare function needsScope(scope: Scope): void;

describe('Scope', () => {
  it('accepts the scopes of the catalogue', () => {
    expectTypeOf<'read:organization_invitations'>().toExtend<Scope>();
    expectTypeOf<'update:guardian_factors'>().toExtend<Scope>();
    expectTypeOf<'create:user_tickets'>().toExtend<Scope>();
    expectTypeOf(needsScope).toBeCallableWith('read:actions');
  });

  it('rejects verbs and resources the catalogue does not pair', () => {
    expectTypeOf<'write:users'>().not.toExtend<Scope>();
    expectTypeOf<'update:organization_invitations'>().not.toExtend<Scope>();
    expectTypeOf<'read:users_app_metadata'>().not.toExtend<Scope>();
    expectTypeOf<string>().not.toExtend<Scope>();
    // @ts-expect-error `write` is not a verb of the catalogue
    needsScope('write:users');
    // @ts-expect-error organization invitations are created, read and deleted, never updated
    needsScope('update:organization_invitations');
  });

  it('is a union of string literals, not string', () => {
    expectTypeOf<Scope>().toExtend<string>();
    expectTypeOf<Scope>().not.toEqualTypeOf<string>();
    expectTypeOf<Extract<Scope, `${string}:organization_invitations`>>().toEqualTypeOf<
      'create:organization_invitations' | 'read:organization_invitations' | 'delete:organization_invitations'
    >();
  });

  it('types allScopes() and the catalogue from the same data', () => {
    expectTypeOf(allScopes).returns.toEqualTypeOf<Scope[]>();
    expectTypeOf(SCOPE_CATALOGUE.guardian_factors).toEqualTypeOf<readonly ['read', 'update']>();
  });
});
