import {
  ManagementClient,
  OrganizationInvitationPageSchema,
  OrganizationInvitationSchema,
  ResponseValidationError,
} from 'idplatform/management';
import { HttpResponse, http } from 'msw';
import { describe, expect, it } from 'vitest';
import { API, DOMAIN, useMswServer } from '../helpers/server.js';

/** DESIGN "Responses are read forward-compatibly": added properties and enum values are kept; wrong types still fail. */

const server = useMswServer();
const management = () => new ManagementClient({ domain: DOMAIN, token: 'static-token', retry: false });
const INVITATIONS = `${API}/organizations/org_1/invitations`;
const MODULE_ACTIONS = `${API}/actions/modules/mod_1/actions`;
const MESSAGE_TYPES = `${API}/guardian/factors/phone/message-types`;

const invitation = {
  id: 'uinv_1',
  inviter: { name: 'Ada', avatar: 'https://example.com/a.png' },
  invitee: { email: 'grace@example.com', locale: 'en' },
  created_at: '2026-01-01T00:00:00.000Z',
  delivery_status: 'sent',
};

describe('responses are read forward-compatibly', () => {
  it('keeps a property the platform adds to an invitation, in list and iterate', async () => {
    // As the platform answers: the page object when include_totals is asked for (the iterator asks), else the array.
    server.use(
      http.get(INVITATIONS, ({ request }) =>
        new URL(request.url).searchParams.get('include_totals') === 'true'
          ? HttpResponse.json({ start: 0, limit: 50, invitations: [invitation], added_later: true })
          : HttpResponse.json([invitation]),
      ),
    );
    const [listed] = await management().organizations.invitations.list('org_1');
    expect(listed).toEqual(invitation);
    const iterated = [];
    for await (const record of management().organizations.invitations.iterate('org_1', { onLimit: 'stop' })) iterated.push(record);
    expect(iterated).toEqual([invitation]);
  });

  it('keeps a property added to the include_totals page', async () => {
    server.use(http.get(INVITATIONS, () => HttpResponse.json({ start: 0, limit: 50, invitations: [invitation], total: 1 })));
    expect(await management().organizations.invitations.list('org_1', { include_totals: true })).toEqual({
      start: 0,
      limit: 50,
      invitations: [invitation],
      total: 1,
    });
  });

  it('keeps a message type the platform adds later', async () => {
    server.use(http.get(MESSAGE_TYPES, () => HttpResponse.json({ message_types: ['sms', 'whatsapp'], default: 'sms' })));
    expect(await management().guardian.phone.getMessageTypes()).toEqual({ message_types: ['sms', 'whatsapp'], default: 'sms' });
  });

  it('still fails on a known property of the wrong type', async () => {
    server.use(http.get(INVITATIONS, () => HttpResponse.json([{ ...invitation, inviter: { name: 42 } }])));
    await expect(management().organizations.invitations.list('org_1')).rejects.toBeInstanceOf(ResponseValidationError);
    server.use(http.get(MESSAGE_TYPES, () => HttpResponse.json({ message_types: ['sms', 7] })));
    await expect(management().guardian.phone.getMessageTypes()).rejects.toBeInstanceOf(ResponseValidationError);
  });

  it('keeps requests strict: an unknown message type is refused before sending', async () => {
    const error = await management()
      .guardian.phone.setMessageTypes({ message_types: ['whatsapp' as 'sms'] })
      .catch((caught: unknown) => caught);
    expect(error).toMatchObject({ name: 'RequestValidationError' });
  });

  it('keeps the members of free-form metadata, in what the exported schemas parse too', async () => {
    const withMetadata = { ...invitation, app_metadata: { plan: 'pro', nested: { a: 1 } }, user_metadata: { locale: 'de' } };
    expect(OrganizationInvitationSchema.parse(withMetadata)).toEqual(withMetadata);
    const page = { start: 0, limit: 50, invitations: [withMetadata] };
    expect(OrganizationInvitationPageSchema.parse(page)).toEqual(page);
    server.use(http.get(`${INVITATIONS}/uinv_1`, () => HttpResponse.json(withMetadata)));
    const fetched = await management().request({
      method: 'GET',
      path: 'organizations/org_1/invitations/uinv_1',
      schema: OrganizationInvitationSchema,
    });
    expect(fetched.app_metadata).toEqual({ plan: 'pro', nested: { a: 1 } });
    expect(fetched.user_metadata).toEqual({ locale: 'de' });
  });

  it('reads page objects without the members that only echo the request', async () => {
    server.use(http.get(MODULE_ACTIONS, () => HttpResponse.json({ actions: [{ action_id: 'act_1' }] })));
    expect(await management().actions.modules.listActions('mod_1')).toEqual({ actions: [{ action_id: 'act_1' }] });
    server.use(http.get(INVITATIONS, () => HttpResponse.json({ invitations: [invitation] })));
    expect(await management().organizations.invitations.list('org_1', { include_totals: true })).toEqual({ invitations: [invitation] });
    // The content itself stays required.
    server.use(http.get(MODULE_ACTIONS, () => HttpResponse.json({ total: 1, page: 0, per_page: 50 })));
    await expect(management().actions.modules.listActions('mod_1')).rejects.toBeInstanceOf(ResponseValidationError);
  });
});
