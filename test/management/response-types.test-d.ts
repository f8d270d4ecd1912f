import { describe, expectTypeOf, it } from 'vitest';
import type {
  ActionModuleUsage,
  ActionModuleUsagePage,
  ManagementClient,
  OrganizationInvitation,
  OrganizationInvitationSort,
  PhoneMessageTypes,
} from '../../src/management/index.js';

declare const management: ManagementClient;
declare const invitation: OrganizationInvitation;
declare const usage: ActionModuleUsage;
const invitations = () => management.organizations.invitations;

describe('Management API response types', () => {
  it('are the named interfaces the methods return', () => {
    expectTypeOf(management.actions.modules.listActions('mod_1')).resolves.toEqualTypeOf<ActionModuleUsagePage>();
    expectTypeOf(management.guardian.phone.getMessageTypes()).resolves.toEqualTypeOf<PhoneMessageTypes>();
    expectTypeOf(invitations().iterate('org_1')).toEqualTypeOf<AsyncIterableIterator<OrganizationInvitation>>();
  });

  it('have no index signature, so a misspelt member does not compile', () => {
    // @ts-expect-error the member is expires_at
    invitation.expiresAt;
    // @ts-expect-error the member is action_name
    usage.actionName;
    // @ts-expect-error the member is message_types
    ({}) as PhoneMessageTypes satisfies { messageTypes: unknown };
    expectTypeOf(invitation.invitee).toEqualTypeOf<{ email: string } | undefined>();
  });
});

describe('sort of the invitation list', () => {
  it('accepts an invitation field (or a member of one) with 1 or -1', () => {
    expectTypeOf<'created_at:-1'>().toExtend<OrganizationInvitationSort>();
    expectTypeOf<'expires_at:1'>().toExtend<OrganizationInvitationSort>();
    expectTypeOf<'invitee.email:1'>().toExtend<OrganizationInvitationSort>();
    invitations().list('org_1', { sort: 'created_at:1' });
  });

  it('refuses other orders and unknown fields at compile time', () => {
    expectTypeOf<'created_at:2'>().not.toExtend<OrganizationInvitationSort>();
    expectTypeOf<'createdAt:1'>().not.toExtend<OrganizationInvitationSort>();
    expectTypeOf<string>().not.toExtend<OrganizationInvitationSort>();
    // @ts-expect-error the order is 1 or -1
    invitations().list('org_1', { sort: 'created_at:2' });
    // @ts-expect-error not an invitation field
    invitations().iterate('org_1', { sort: 'name:1' });
    // @ts-expect-error no order
    invitations().list('org_1', { sort: 'created_at' });
  });
});
