/**
 * The official `auth0` Node SDK (7.1.0, a dependency of test/migration only)
 * against our tenant emulator, through its `fetch` option: the code users have
 * today runs unchanged against the emulator while they migrate, and both SDKs see
 * the same tenant. Covers the four operations and the error mapping of
 * docs/migrating-from-node-auth0.md. Nothing leaves the process.
 */
import { ManagementClient as Auth0ManagementClient, Management as auth0, ManagementError } from 'auth0';
import { ManagementClient, NotFoundError } from 'idplatform/management';
import { createTenantEmulator, SEED_IDS, type TenantEmulator } from 'idplatform/testing';
import { beforeEach, describe, expect, it } from 'vitest';

let emulator: TenantEmulator;
let theirs: Auth0ManagementClient;
let ours: ManagementClient;

/** What a test of yours would write: the official SDK, with the emulator as its `fetch`. */
function auth0Against(tenant: TenantEmulator): Auth0ManagementClient {
  return new Auth0ManagementClient({
    domain: tenant.domain,
    ...tenant.credentials,
    fetch: (input: string | URL | Request, init?: RequestInit) => tenant.handle(new Request(input, init)),
  });
}

beforeEach(() => {
  emulator = createTenantEmulator();
  theirs = auth0Against(emulator);
  ours = new ManagementClient({
    domain: emulator.domain,
    ...emulator.credentials,
    fetch: (input, init) => emulator.handle(new Request(input, init)),
  });
});

describe('the official auth0 SDK against the emulator', () => {
  it('organizations.invitations.list: the same records as ours, page by page', async () => {
    const page = await theirs.organizations.invitations.list(SEED_IDS.smallOrganization, { page: 0, per_page: 3 });
    const firstPage = page.data.map((invitation) => invitation.id);
    expect(firstPage).toHaveLength(3);
    const all: string[] = [];
    for await (const invitation of page) all.push(invitation.id ?? '');
    const mine = await ours.organizations.invitations.list(SEED_IDS.smallOrganization);
    expect(all).toEqual(mine.map((invitation) => invitation.id));
    expect(all.slice(0, 3)).toEqual(firstPage);
  });

  it('actions.modules.listActions: the module’s action versions', async () => {
    const page = await theirs.actions.modules.listActions(SEED_IDS.smallModule, { page: 0, per_page: 50 });
    const mine = await ours.actions.modules.listActions(SEED_IDS.smallModule);
    expect(page.data.map((action) => action.action_id)).toEqual(mine.actions.map((action) => action.action_id));
    expect(page.data).toHaveLength(3);
  });

  it('guardian.factors.phone.getMessageTypes / setMessageTypes: one tenant for both SDKs', async () => {
    await expect(theirs.guardian.factors.phone.getMessageTypes()).resolves.toEqual({ message_types: ['sms'] });
    await expect(theirs.guardian.factors.phone.setMessageTypes({ message_types: ['sms', 'voice'] })).resolves.toEqual({
      message_types: ['sms', 'voice'],
    });
    await expect(ours.guardian.phone.getMessageTypes()).resolves.toEqual({ message_types: ['sms', 'voice'] });
  });

  it('one client-credentials token, fetched through the same fetch, serves every call', async () => {
    await theirs.guardian.factors.phone.getMessageTypes();
    await theirs.organizations.invitations.list(SEED_IDS.smallOrganization);
    const paths = emulator.requests.map((request) => `${request.method} ${request.path}`);
    expect(paths.filter((path) => path === 'POST /oauth/token')).toHaveLength(1);
    expect(paths).toContain('GET /api/v2/guardian/factors/phone/message-types');
  });

  it('a 404 is their Management.NotFoundError (statusCode) where ours is NotFoundError (status)', async () => {
    const theirError = await theirs.organizations.invitations.list('org_unknown').catch((error: unknown) => error);
    expect(theirError).toBeInstanceOf(auth0.NotFoundError);
    expect(theirError).toBeInstanceOf(ManagementError);
    expect(theirError).toMatchObject({ statusCode: 404 });
    const ourError = await ours.organizations.invitations.list('org_unknown').catch((error: unknown) => error);
    expect(ourError).toBeInstanceOf(NotFoundError);
    expect(ourError).toMatchObject({
      status: 404,
      errorCode: (theirError as ManagementError & { body: { errorCode: string } }).body.errorCode,
    });
  });
});
