import { beforeEach, describe, expect, it } from 'vitest';
import { PAGING_WINDOW_MESSAGE } from '../../src/core/paging.js';
import { ManagementClient } from '../../src/management/index.js';
import {
  type OrganizationInvitation,
  OrganizationInvitationPageSchema,
  OrganizationInvitationSchema,
} from '../../src/management/organizations/invitations.js';
import { createTenantEmulator, SEED_COUNTS, SEED_IDS } from '../../src/testing/index.js';
import { managementRequest, read } from '../helpers/emulator.js';

const emulator = createTenantEmulator();
const token = await emulator.createAccessToken();
beforeEach(() => emulator.reset());

async function list(query: string, organizationId: string = SEED_IDS.bigOrganization) {
  return read(await managementRequest(emulator, `/organizations/${organizationId}/invitations${query}`, { token }));
}

async function invitations(query: string, organizationId?: string): Promise<OrganizationInvitation[]> {
  const { status, body } = await list(query, organizationId);
  expect(status).toBe(200);
  return body as OrganizationInvitation[];
}

const badQuery = (message: string | RegExp) => ({
  status: 400,
  body: { statusCode: 400, error: 'Bad Request', message: expect.stringMatching(message), errorCode: 'invalid_query_string' },
});

/** A path validation error: tagged `invalid_uri`, as the emulator's other path errors. */
const badPath = (message: string | RegExp) => ({
  status: 400,
  body: { statusCode: 400, error: 'Bad Request', message: expect.stringMatching(message), errorCode: 'invalid_uri' },
});

describe('GET /organizations/{id}/invitations', () => {
  it('answers 50 invitations by default, newest first (sort created_at:-1), each valid by the SDK schema', async () => {
    const page = await invitations('');
    expect(page).toHaveLength(50);
    for (const invitation of page) expect(OrganizationInvitationSchema.safeParse(invitation).success).toBe(true);
    const times = page.map((invitation) => invitation.created_at ?? '');
    expect(times).toEqual([...times].sort().reverse());
  });

  it('answers { start, limit, invitations } with include_totals=true, and a plain array with false', async () => {
    const { body } = await list('?include_totals=true&page=3&per_page=20');
    expect(OrganizationInvitationPageSchema.parse(body)).toMatchObject({ start: 60, limit: 20 });
    expect((body as { invitations: unknown[] }).invitations).toHaveLength(20);
    expect(Object.keys(body as object)).toEqual(['start', 'limit', 'invitations']);
    expect(Array.isArray((await list('?include_totals=false')).body)).toBe(true);
  });

  describe('page and per_page (spec 4.1, 8)', () => {
    it('pages through the records without gaps or overlaps', async () => {
      const all = await invitations('?per_page=100&page=0');
      const halves = [...(await invitations('?per_page=50&page=0')), ...(await invitations('?per_page=50&page=1'))];
      expect(halves.map((invitation) => invitation.id)).toEqual(all.map((invitation) => invitation.id));
    });

    it('takes page 0 and refuses page -1 or a non-integer', async () => {
      expect((await list('?page=0')).status).toBe(200);
      expect(await list('?page=-1')).toMatchObject(badQuery(/^Query validation error: page must be an integer >= 0 \(got "-1"\)$/));
      expect(await list('?page=1.5')).toMatchObject(badQuery(/page must be an integer/));
      expect(await list('?page=abc')).toMatchObject(badQuery(/page must be an integer/));
      expect(await list('?page=')).toMatchObject(badQuery(/page must be an integer/));
    });

    it('takes per_page 1 and 100, refuses 0 and 101', async () => {
      expect(await invitations('?per_page=1')).toHaveLength(1);
      expect(await invitations('?per_page=100')).toHaveLength(100);
      expect(await list('?per_page=0')).toMatchObject(badQuery(/per_page must be an integer between 1 and 100 \(got "0"\)/));
      expect(await list('?per_page=101')).toMatchObject(badQuery(/per_page must be an integer between 1 and 100 \(got "101"\)/));
    });

    it.each([
      [9, 100, 200],
      [10, 100, 400],
      [19, 50, 200],
      [20, 50, 400],
      [999, 1, 200],
      [1000, 1, 400],
      [0, 100, 200],
    ])('page %i with per_page %i is %i (the 1000-record window)', async (page, perPage, status) => {
      const result = await list(`?page=${page}&per_page=${perPage}`);
      expect(result.status).toBe(status);
      if (status === 400) {
        expect(result.body).toEqual({ statusCode: 400, error: 'Bad Request', message: PAGING_WINDOW_MESSAGE, errorCode: 'invalid_paging' });
      }
    });

    it('answers the last reachable page in full, and an empty page past the end of a small organization', async () => {
      expect(await invitations('?page=9&per_page=100')).toHaveLength(100);
      expect(await invitations('?page=1&per_page=50', SEED_IDS.smallOrganization)).toEqual([]);
      expect(await invitations('', SEED_IDS.smallOrganization)).toHaveLength(SEED_COUNTS.smallOrganizationInvitations);
    });
  });

  describe('fields and include_fields', () => {
    it('includes only the listed fields, in the record order', async () => {
      const [first] = await invitations('?fields=invitee,id&per_page=1');
      expect(Object.keys(first ?? {})).toEqual(['id', 'invitee']);
    });

    it('excludes the listed fields with include_fields=false', async () => {
      const [first] = await invitations('?fields=invitation_url,ticket_id&include_fields=false&per_page=1');
      expect(first).not.toHaveProperty('invitation_url');
      expect(first).not.toHaveProperty('ticket_id');
      expect(first).toHaveProperty('id');
    });

    it('treats an empty list as all fields, and accepts spaces around names', async () => {
      const [all] = await invitations('?per_page=1');
      expect(await invitations('?fields=&per_page=1')).toEqual([all]);
      expect(Object.keys((await invitations('?fields=id,%20created_at&per_page=1'))[0] ?? {})).toEqual(['id', 'created_at']);
    });

    it('refuses unknown field names and a non-boolean include_fields', async () => {
      expect(await list('?fields=id,password')).toMatchObject(badQuery(/unknown: "password"/));
      expect(await list('?fields=id,,created_at')).toMatchObject(badQuery(/unknown: ""/));
      expect(await list('?include_fields=yes')).toMatchObject(badQuery(/include_fields must be true or false \(got "yes"\)/));
      expect(await list('?include_totals=1')).toMatchObject(badQuery(/include_totals must be true or false/));
    });
  });

  describe('sort', () => {
    it('sorts ascending and descending by created_at, strictly', async () => {
      const ascending = await invitations('?sort=created_at:1&per_page=100');
      const times = ascending.map((invitation) => invitation.created_at ?? '');
      expect(times).toEqual([...times].sort());
      expect(new Set(times).size).toBe(times.length);
      const [newest] = await invitations('?sort=created_at:-1&per_page=1');
      expect((newest?.created_at ?? '') > (times.at(-1) ?? '')).toBe(true);
    });

    it.each([
      ['an offset', '2026-01-01T09:00:00+10:00', '2026-01-01T00:30:00Z'],
      ['fractional seconds', '2026-01-01T00:00:00Z', '2026-01-01T00:00:00.500Z'],
    ])('sorts created_at by the instant, not the text, with %s', async (_, older, newer) => {
      emulator.data.organizations.add('org_times');
      emulator.data.invitations.add('org_times', { id: 'uinv_older', created_at: older }, { id: 'uinv_newer', created_at: newer });
      expect((await invitations('', 'org_times')).map((invitation) => invitation.id)).toEqual(['uinv_newer', 'uinv_older']);
      expect((await invitations('?sort=created_at:1', 'org_times')).map((invitation) => invitation.id)).toEqual([
        'uinv_older',
        'uinv_newer',
      ]);
    });

    it('sorts by other fields and dotted paths, with ties broken by id', async () => {
      const byEmail = await invitations('?sort=invitee.email:1&per_page=100');
      const emails = byEmail.map((invitation) => invitation.invitee?.email ?? '');
      expect(emails).toEqual([...emails].sort());
      const byInviter = await invitations('?sort=inviter.name:-1&per_page=100');
      const names = byInviter.map((invitation) => invitation.inviter?.name ?? '');
      expect(names).toEqual([...names].sort().reverse());
      for (let index = 1; index < byInviter.length; index++) {
        const [previous, current] = [byInviter[index - 1], byInviter[index]];
        if (previous?.inviter?.name === current?.inviter?.name) expect((previous?.id ?? '') > (current?.id ?? '')).toBe(true);
      }
    });

    it.each(['created_at', 'created_at:2', 'created_at:+1', ':1', 'created_at:-1,id:1'])('refuses sort=%s', async (sort) => {
      expect(await list(`?sort=${encodeURIComponent(sort)}`)).toMatchObject(badQuery(/sort must have the form field:1/));
    });

    it('refuses a sort field that is not an invitation field', async () => {
      expect(await list('?sort=password:1')).toMatchObject(badQuery(/sort field "password" is not an invitation field/));
    });

    it.each(['invitee.emial', 'created_at.x', 'inviter.name.first'])(
      'refuses sort=%s:1, a member the field does not have',
      async (field) => {
        expect(await list(`?sort=${field}:1`)).toMatchObject(
          badQuery(new RegExp(`sort field "${field.replace('.', '\\.')}" is not an invitation field`)),
        );
      },
    );

    it('sorts by a member of the free-form metadata', async () => {
      expect((await list('?sort=app_metadata.plan:1')).status).toBe(200);
    });
  });

  describe('the query string', () => {
    it('refuses unknown and repeated parameters, naming them', async () => {
      expect(await list('?q=x')).toMatchObject(badQuery(/unknown parameter "q" \(allowed: page, per_page/));
      expect(await list('?page=1&page=2')).toMatchObject(badQuery(/parameter "page" must be given once/));
    });

    it('reports every problem at once', async () => {
      expect(await list('?page=-1&per_page=0')).toMatchObject(badQuery(/page must be .*; per_page must be/));
    });
  });

  describe('the organization id (spec 4.1, 8)', () => {
    it('answers 404 for an unknown organization of 50 characters, and 400 for 51', async () => {
      expect(await list('', 'o'.repeat(50))).toEqual({
        status: 404,
        headers: expect.anything(),
        body: { statusCode: 404, error: 'Not Found', message: 'No organization found by that id', errorCode: 'inexistent_organization' },
      });
      expect(await list('', 'o'.repeat(51))).toMatchObject(badPath(/too long \(51 chars\), maximum 50/));
    });

    it('counts characters, not UTF-16 units: an id of 50 emoji is served, 51 refused', async () => {
      emulator.data.organizations.add('😀'.repeat(50));
      expect(await invitations('', encodeURIComponent('😀'.repeat(50)))).toEqual([]);
      expect(await list('', encodeURIComponent('😀'.repeat(51)))).toMatchObject(badPath(/too long \(51 chars\), maximum 50/));
    });

    it('checks the query before looking the organization up', async () => {
      expect((await list('?per_page=0', 'org_unknown')).status).toBe(400);
    });

    it('decodes a percent-encoded id exactly once', async () => {
      emulator.data.organizations.add('org/a b');
      emulator.data.organizations.add('org%2Fx');
      emulator.data.invitations.add('org/a b', { invitee: { email: 'slash@example.com' } });
      expect(await invitations('', encodeURIComponent('org/a b'))).toMatchObject([{ organization_id: 'org/a b' }]);
      expect(await invitations('', encodeURIComponent('org%2Fx'))).toEqual([]);
      expect((await list('', 'org%252Fy')).status).toBe(404);
    });
  });

  describe('what the store takes (spec 2.1)', () => {
    it('takes any address an email input takes, and the SDK reads it back', async () => {
      emulator.data.organizations.add('org_mail');
      const addresses = ['a&b@example.com', "o'brien@example.com", 'x!y@example.com', 'q#1@example.com', 'a@example.c'];
      for (const email of addresses) emulator.data.invitations.add('org_mail', { invitee: { email } });
      const page = (await list('?include_totals=true', 'org_mail')).body;
      expect(OrganizationInvitationPageSchema.safeParse(page).success).toBe(true);
      expect((page as { invitations: OrganizationInvitation[] }).invitations.map((invitation) => invitation.invitee?.email).sort()).toEqual(
        [...addresses].sort(),
      );
    });

    it('refuses an invitation_url with user info, as the SDK does (strict-https-uri)', () => {
      emulator.data.organizations.add('org_url');
      expect(() => emulator.data.invitations.add('org_url', { invitation_url: 'https://user:pw@app.example.com/login' })).toThrow(
        'invalid invitation',
      );
      expect(() => emulator.data.invitations.add('org_url', { invitation_url: 'https://my_app.example.com/login' })).not.toThrow();
    });

    it.each(['https://app.example.com/a b', 'https:app.example.com/login'])(
      'refuses the invitation_url %j, which the SDK refuses too (whitespace, no `//`)',
      (url) => {
        emulator.data.organizations.add('org_url');
        expect(() => emulator.data.invitations.add('org_url', { invitation_url: url })).toThrow('invalid invitation');
      },
    );

    it.each(['https://bücher.example/login?invitation=t1', 'https://app.example.com./login', 'HTTPS://app.example.com/login'])(
      'stores the invitation_url %j, and the SDK lists it',
      async (url) => {
        emulator.data.organizations.add('org_url');
        emulator.data.invitations.add('org_url', { invitation_url: url });
        const management = new ManagementClient({
          baseUrl: `${emulator.origin}/api/v2`,
          ...emulator.credentials,
          fetch: (input, init) => emulator.handle(new Request(input, init)),
        });
        const invitations = await management.organizations.invitations.list('org_url');
        expect(invitations.map((invitation) => invitation.invitation_url)).toEqual([url]);
      },
    );
  });
});
