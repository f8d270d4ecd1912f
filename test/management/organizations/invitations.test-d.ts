import { describe, expectTypeOf, it } from 'vitest';
import type { ManagementClient, OrganizationInvitation, OrganizationInvitationPage } from '../../../src/management/index.js';

declare const management: ManagementClient;
const invitations = () => management.organizations.invitations;

describe('organizations.invitations.list overloads', () => {
  it('returns an array without include_totals or with include_totals: false', () => {
    expectTypeOf(invitations().list('org_1')).resolves.toEqualTypeOf<OrganizationInvitation[]>();
    expectTypeOf(invitations().list('org_1', { page: 1 })).resolves.toEqualTypeOf<OrganizationInvitation[]>();
    expectTypeOf(invitations().list('org_1', { include_totals: false })).resolves.toEqualTypeOf<OrganizationInvitation[]>();
  });

  it('returns the page object with include_totals: true', () => {
    expectTypeOf(invitations().list('org_1', { include_totals: true })).resolves.toEqualTypeOf<OrganizationInvitationPage>();
    expectTypeOf<OrganizationInvitationPage['invitations']>().toEqualTypeOf<OrganizationInvitation[]>();
  });

  it('returns the union when include_totals is only known as a boolean', () => {
    const flag = Math.random() > 0.5;
    expectTypeOf(invitations().list('org_1', { include_totals: flag })).resolves.toEqualTypeOf<
      OrganizationInvitation[] | OrganizationInvitationPage
    >();
  });

  it('rejects unknown parameters and wrong types at compile time', () => {
    // @ts-expect-error per_page is a number
    invitations().list('org_1', { per_page: '10' });
    // @ts-expect-error unknown parameter
    invitations().list('org_1', { perPage: 10 });
  });

  it('iterates invitations', () => {
    expectTypeOf(invitations().iterate('org_1')).toEqualTypeOf<AsyncIterableIterator<OrganizationInvitation>>();
  });
});

describe('organizations.invitations sort', () => {
  it('names an invitation field, or a member of one that has members', () => {
    invitations().list('org_1', { sort: 'created_at:-1' });
    invitations().list('org_1', { sort: 'invitee.email:1' });
    invitations().list('org_1', { sort: 'app_metadata.plan:1' });
    // @ts-expect-error created_at has no members
    invitations().list('org_1', { sort: 'created_at.x:1' });
    // @ts-expect-error invitee has no member emial
    invitations().list('org_1', { sort: 'invitee.emial:1' });
  });
});

describe('guardian.phone.setMessageTypes', () => {
  it('takes a read-only list', () => {
    const both = ['sms', 'voice'] as const;
    management.guardian.phone.setMessageTypes({ message_types: both });
    const list: readonly ('sms' | 'voice')[] = ['sms'];
    management.guardian.phone.setMessageTypes({ message_types: list });
    // @ts-expect-error only sms and voice
    management.guardian.phone.setMessageTypes({ message_types: ['push'] });
  });
});
