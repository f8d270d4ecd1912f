import { HttpResponse, http } from 'msw';
import { describe, expect, it } from 'vitest';
import {
  InsufficientScopeError,
  ManagementClient,
  type ManagementClientOptions,
  type OrganizationInvitation,
  PagingLimitError,
  RequestValidationError,
  ResponseValidationError,
} from '../../../src/management/index.js';
import { createFakeClock } from '../../helpers/clock.js';
import { jwtWithClaims } from '../../helpers/jwt.js';
import { API, DOMAIN, recordRequests, useMswServer } from '../../helpers/server.js';

const server = useMswServer();
const requests = recordRequests(server);

function client(options: Partial<ManagementClientOptions> = {}) {
  requests.length = 0;
  return new ManagementClient({ domain: DOMAIN, token: 'opaque-token', clock: createFakeClock(), ...options } as ManagementClientOptions);
}

function invitation(index: number): OrganizationInvitation {
  return {
    id: `uinv_${String(index).padStart(5, '0')}`,
    organization_id: 'org_1',
    inviter: { name: 'Ada' },
    invitee: { email: `user${index}@example.com` },
    invitation_url: `https://acme.example.com/login?invitation=${index}`,
    created_at: new Date(Date.UTC(2026, 0, 1) - index * 60_000).toISOString(),
    expires_at: new Date(Date.UTC(2026, 0, 8)).toISOString(),
    client_id: 'client_1',
    roles: ['rol_1'],
    ticket_id: `tkt_${index}`,
  };
}

/** An organization holding `count` invitations, paged and sorted like the API (newest first; `created_at:1` reverses). */
function serveInvitations(count: number, { maxPerPage = 100 } = {}) {
  const all = Array.from({ length: count }, (_, index) => invitation(index));
  server.use(
    http.get(`${API}/organizations/:id/invitations`, ({ request }) => {
      const url = new URL(request.url);
      const page = Number(url.searchParams.get('page') ?? 0);
      // A server (or proxy) may cap the page size below what was asked.
      const perPage = Math.min(maxPerPage, Number(url.searchParams.get('per_page') ?? 50));
      if ((page + 1) * perPage > 1000) {
        return HttpResponse.json(
          { statusCode: 400, error: 'Bad Request', message: 'too far', errorCode: 'invalid_paging' },
          { status: 400 },
        );
      }
      const ordered = url.searchParams.get('sort') === 'created_at:1' ? [...all].reverse() : all;
      const slice = ordered.slice(page * perPage, (page + 1) * perPage);
      return url.searchParams.get('include_totals') === 'true'
        ? HttpResponse.json({ start: page * perPage, limit: perPage, invitations: slice })
        : HttpResponse.json(slice);
    }),
  );
}

describe('organizations.invitations.list', () => {
  it('answers a plain array by default and sends only the given parameters', async () => {
    serveInvitations(3);
    const management = client();
    const list = await management.organizations.invitations.list('org_1');
    expect(list).toHaveLength(3);
    expect(list[0]?.invitee?.email).toBe('user0@example.com');
    expect(new URL(requests[0]!.url).search).toBe('');
    expect(requests[0]!.headers.get('authorization')).toBe('Bearer opaque-token');
  });

  it('answers { start, limit, invitations } with include_totals: true', async () => {
    serveInvitations(120);
    const page = await client().organizations.invitations.list('org_1', { include_totals: true, page: 2, per_page: 50 });
    expect(page).toMatchObject({ start: 100, limit: 50 });
    expect(page.invitations).toHaveLength(20);
    expect(Object.fromEntries(new URL(requests[0]!.url).searchParams)).toEqual({ include_totals: 'true', page: '2', per_page: '50' });
  });

  it('sends sort, fields and include_fields as given', async () => {
    serveInvitations(1);
    await client().organizations.invitations.list('org_1', { sort: 'created_at:1', fields: 'id,invitee', include_fields: false });
    expect(Object.fromEntries(new URL(requests[0]!.url).searchParams)).toEqual({
      sort: 'created_at:1',
      fields: 'id,invitee',
      include_fields: 'false',
    });
  });

  it('percent-encodes the organization id as one path segment', async () => {
    server.use(http.get(`${API}/*`, () => HttpResponse.json([])));
    await client().organizations.invitations.list('../a/b?c#d');
    expect(new URL(requests[0]!.url).pathname).toBe('/api/v2/organizations/..%2Fa%2Fb%3Fc%23d/invitations');
  });

  const accepted: [string, object][] = [
    ['page 0', { page: 0 }],
    ['per_page 1', { per_page: 1 }],
    ['per_page 100', { per_page: 100 }],
    ['the last page inside the window, (page + 1) * per_page = 1000', { page: 9, per_page: 100 }],
    ['page 19 with the default 50 per page', { page: 19 }],
    ['sort field:-1', { sort: 'expires_at:-1' }],
    ['sort by a member of an object field', { sort: 'invitee.email:1' }],
    ['sort by any member of metadata', { sort: 'app_metadata.plan.tier:-1' }],
    ['empty fields (all fields)', { fields: '' }],
  ];
  it.each(accepted)('accepts %s', async (_, params) => {
    serveInvitations(1);
    await client().organizations.invitations.list('org_1', params);
    expect(requests).toHaveLength(1);
  });

  const refused: [string, string, object, string][] = [
    ['an empty organization id', '', {}, 'organization id must not be empty'],
    ['an organization id of 51 characters', 'o'.repeat(51), {}, 'organization id must be at most 50 characters'],
    ['the id "."', '.', {}, 'cannot be used as an id'],
    ['the id ".."', '..', {}, 'cannot be used as an id'],
    ['page -1', 'org_1', { page: -1 }, 'page must be >= 0'],
    ['page 1.5', 'org_1', { page: 1.5 }, 'page must be an integer'],
    ['per_page 0', 'org_1', { per_page: 0 }, 'per_page must be between 1 and 100'],
    ['per_page 101', 'org_1', { per_page: 101 }, 'per_page must be between 1 and 100'],
    [
      'a page past the window, (page + 1) * per_page = 1100',
      'org_1',
      { page: 10, per_page: 100 },
      'Requesting page exceeds the allowed maximum of 1000 records',
    ],
    ['page 20 with the default 50 per page', 'org_1', { page: 20 }, 'Requesting page exceeds the allowed maximum of 1000 records'],
    ['a sort without an order', 'org_1', { sort: 'created_at' }, 'sort must have the form'],
    ['a sort order of 2', 'org_1', { sort: 'created_at:2' }, 'sort must have the form'],
    ['a sort by a member of a field without members', 'org_1', { sort: 'created_at.x:1' }, 'sort must have the form'],
    ['a sort by a member an object field lacks', 'org_1', { sort: 'invitee.emial:1' }, 'sort must have the form'],
    ['a sort by a member of a member', 'org_1', { sort: 'inviter.name.first:-1' }, 'sort must have the form'],
    ['an unknown field', 'org_1', { fields: 'id,password' }, 'fields must be a comma-separated list of invitation fields'],
    ['a non-boolean include_fields', 'org_1', { include_fields: 'yes' }, 'include_fields must be a boolean'],
    ['an unknown parameter', 'org_1', { perPage: 5 }, 'unknown key "perPage"'],
  ];
  it.each(refused)('refuses %s before sending anything', async (_, id, params, message) => {
    const management = client();
    const error = await management.organizations.invitations.list(id, params as never).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(RequestValidationError);
    expect((error as Error).message).toContain(message);
    expect(requests).toHaveLength(0);
  });

  it('names the broken parameter in the issues', async () => {
    const error = await client()
      .organizations.invitations.list('org_1', { per_page: 0, page: -2 })
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(RequestValidationError);
    expect((error as RequestValidationError).issues.map((issue) => issue.path.join('.'))).toEqual(['per_page', 'page']);
  });

  it('throws ResponseValidationError, carrying the body, when the body breaks the schema', async () => {
    const body = [{ id: 'uinv_1', inviter: { name: '' }, unexpected: true }];
    server.use(http.get(`${API}/organizations/:id/invitations`, () => HttpResponse.json(body)));
    const error = await client()
      .organizations.invitations.list('org_1')
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ResponseValidationError);
    expect((error as ResponseValidationError).body).toEqual(body);
    // The unknown property is kept (forward-compatible reading); only the known one of the wrong shape fails.
    expect((error as ResponseValidationError).issues.map((issue) => issue.code)).toEqual(['too_small']);
  });

  it.each([
    ['an http invitation_url', { invitation_url: 'http://acme.example.com/x' }],
    ['a malformed invitee email', { invitee: { email: 'nope' } }],
    ['an empty roles array', { roles: [] }],
    ['a non-ISO created_at', { created_at: 'yesterday' }],
    ['an inviter name of 301 characters', { inviter: { name: 'n'.repeat(301) } }],
  ])('rejects %s in a response', async (_, field) => {
    server.use(http.get(`${API}/organizations/:id/invitations`, () => HttpResponse.json([{ ...invitation(1), ...field }])));
    await expect(client().organizations.invitations.list('org_1')).rejects.toBeInstanceOf(ResponseValidationError);
  });

  it('passes bodies through unchecked with validateResponses: false', async () => {
    server.use(http.get(`${API}/organizations/:id/invitations`, () => HttpResponse.json([{ id: 1, extra: true }])));
    const list = await client({ validateResponses: false }).organizations.invitations.list('org_1');
    expect(list).toEqual([{ id: 1, extra: true }]);
  });

  it('refuses a JWT whose scope claim lacks read:organization_invitations, without sending', async () => {
    const token = jwtWithClaims({ scope: 'read:users read:organizations' });
    const error = await client({ token })
      .organizations.invitations.list('org_1')
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(InsufficientScopeError);
    expect(error).toMatchObject({ required: 'read:organization_invitations', granted: ['read:users', 'read:organizations'] });
    expect(requests).toHaveLength(0);
  });

  it('sends a JWT that holds the scope, and an opaque token as it is', async () => {
    serveInvitations(1);
    await client({ token: jwtWithClaims({ scope: 'read:organization_invitations' }) }).organizations.invitations.list('org_1');
    await client({ token: 'opaque' }).organizations.invitations.list('org_1');
    expect(requests).toHaveLength(1);
  });
});

describe('organizations.invitations.iterate', () => {
  async function collect(iterator: AsyncIterableIterator<OrganizationInvitation>) {
    const seen: OrganizationInvitation[] = [];
    try {
      for await (const item of iterator) seen.push(item);
      return { seen, error: undefined };
    } catch (error) {
      return { seen, error };
    }
  }

  it('asks every page with include_totals, to read which page the server served', async () => {
    serveInvitations(120);
    const { seen } = await collect(client().organizations.invitations.iterate('org_1'));
    expect(seen).toHaveLength(120);
    expect(requests.every((request) => new URL(request.url).searchParams.get('include_totals') === 'true')).toBe(true);
  });

  it('detects a server that caps per_page (its `limit` says 20) and throws ResponseValidationError after yielding 0 records', async () => {
    serveInvitations(95, { maxPerPage: 20 });
    const { seen, error } = await collect(client().organizations.invitations.iterate('org_1', { per_page: 50 }));
    expect(seen).toEqual([]);
    expect(error).toBeInstanceOf(ResponseValidationError);
    expect((error as ResponseValidationError).issues).toEqual([
      {
        code: 'custom',
        path: ['limit'],
        message:
          'the server answered limit 20 (not 50) for page 0 of 50 records: it does not page as asked, so records could be lost or repeated',
      },
    ]);
    expect((error as ResponseValidationError).progress).toEqual({ yielded: 0, page: 0, per_page: 50 });
    expect(requests).toHaveLength(1);
  });

  it('detects a server that sends more records than per_page and throws ResponseValidationError after yielding 50 records', async () => {
    const all = Array.from({ length: 300 }, (_, index) => invitation(index));
    server.use(
      http.get(`${API}/organizations/:id/invitations`, ({ request }) => {
        const page = Number(new URL(request.url).searchParams.get('page'));
        // A proxy that answers pages of 100 from the second page on, still saying `limit` 50.
        const size = page === 0 ? 50 : 100;
        return HttpResponse.json({ start: page * 50, limit: 50, invitations: all.slice(page * 50, page * 50 + size) });
      }),
    );
    const { seen, error } = await collect(client().organizations.invitations.iterate('org_1', { per_page: 50 }));
    expect(seen.map((record) => record.id)).toEqual(all.slice(0, 50).map((record) => record.id));
    expect(error).toBeInstanceOf(ResponseValidationError);
    expect((error as ResponseValidationError).message).toContain('the server sent 100 records for page 1 of 50 records');
    expect((error as ResponseValidationError).progress).toEqual({ yielded: 50, page: 1, per_page: 50 });
  });

  it('detects a server that answers another page than asked (its `start` says 0) and throws ResponseValidationError after yielding 50 records', async () => {
    const all = Array.from({ length: 50 }, (_, index) => invitation(index));
    server.use(http.get(`${API}/organizations/:id/invitations`, () => HttpResponse.json({ start: 0, limit: 50, invitations: all })));
    const { seen, error } = await collect(client().organizations.invitations.iterate('org_1', { per_page: 50, onLimit: 'stop' }));
    expect(seen.map((record) => record.id)).toEqual(all.map((record) => record.id));
    expect(error).toBeInstanceOf(ResponseValidationError);
    expect((error as ResponseValidationError).issues[0]).toMatchObject({
      path: ['start'],
      message: expect.stringContaining('start 0 (not 50)'),
    });
    expect((error as ResponseValidationError).progress).toEqual({ yielded: 50, page: 1, per_page: 50 });
    expect(requests).toHaveLength(2);
  });

  it('yields the first 1000 of 2,345 records, then throws PagingLimitError', async () => {
    serveInvitations(2345);
    const { seen, error } = await collect(client().organizations.invitations.iterate('org_1'));
    expect(seen).toHaveLength(1000);
    expect(new Set(seen.map((item) => item.id)).size).toBe(1000);
    expect(seen.at(-1)?.id).toBe('uinv_00999');
    expect(error).toBeInstanceOf(PagingLimitError);
    expect((error as PagingLimitError).reachable).toBe(1000);
    // 20 pages of 50, then one probe of the reversed order to learn whether more exist
    expect(requests).toHaveLength(21);
  });

  it("stops quietly at the window with onLimit: 'stop', without the probe", async () => {
    serveInvitations(2345);
    const { seen, error } = await collect(client().organizations.invitations.iterate('org_1', { onLimit: 'stop', per_page: 100 }));
    expect(seen).toHaveLength(1000);
    expect(error).toBeUndefined();
    expect(requests).toHaveLength(10);
  });

  it('ends without an error when the organization holds exactly 1000 records', async () => {
    serveInvitations(1000);
    const { seen, error } = await collect(client().organizations.invitations.iterate('org_1', { per_page: 100 }));
    expect(seen).toHaveLength(1000);
    expect(error).toBeUndefined();
  });

  it.each([
    ['an include list without id', { fields: 'invitee,expires_at' }, 'invitee,expires_at,id', undefined],
    ['an exclude list with id', { fields: 'id,roles', include_fields: false }, 'roles', 'false'],
    ['an exclude list of id alone', { fields: 'id', include_fields: false }, null, 'false'],
  ])('asks for ids with %s, to end cleanly at exactly 1000, and yields none', async (_, params, fields, includeFields) => {
    serveInvitations(1000);
    const { seen, error } = await collect(client().organizations.invitations.iterate('org_1', { per_page: 100, ...params }));
    expect(error).toBeUndefined();
    expect(seen).toHaveLength(1000);
    expect(seen.some((item) => 'id' in item)).toBe(false);
    const first = new URL(requests[0]!.url).searchParams;
    expect(first.get('fields')).toBe(fields);
    expect(first.get('include_fields')).toBe(includeFields ?? null);
  });

  it('reaches all 1000 records when per_page does not divide 1000', async () => {
    serveInvitations(2345);
    const { seen, error } = await collect(client().organizations.invitations.iterate('org_1', { per_page: 30 }));
    expect(seen.map((item) => item.id)).toEqual(Array.from({ length: 1000 }, (_, index) => invitation(index).id));
    expect(error).toBeInstanceOf(PagingLimitError);
    for (const request of requests.slice(0, -1)) {
      const params = new URL(request.url).searchParams;
      expect((Number(params.get('page')) + 1) * Number(params.get('per_page'))).toBeLessThanOrEqual(1000);
    }
  });

  it('stops at a short page without an extra request', async () => {
    serveInvitations(120);
    const { seen, error } = await collect(client().organizations.invitations.iterate('org_1'));
    expect(seen).toHaveLength(120);
    expect(error).toBeUndefined();
    expect(requests).toHaveLength(3);
  });

  it('is lazy: five records cost one request', async () => {
    serveInvitations(2345);
    const seen: OrganizationInvitation[] = [];
    for await (const item of client().organizations.invitations.iterate('org_1')) {
      seen.push(item);
      if (seen.length === 5) break;
    }
    expect(requests).toHaveLength(1);
  });

  it('checks its parameters when called, before any request', () => {
    const management = client();
    expect(() => management.organizations.invitations.iterate('org_1', { per_page: 500 })).toThrow(RequestValidationError);
    expect(() => management.organizations.invitations.iterate('org_1', { onLimit: 'ignore' as 'stop' })).toThrow(
      "onLimit must be 'throw' or 'stop'",
    );
    expect(requests).toHaveLength(0);
  });
});

describe('iterate, with a sort value nested too deep to serialize', () => {
  it('counts it as a tie in the check past the window: no RangeError from a 100,000-level value', async () => {
    const levels = 100_000;
    const record = (index: number, rank: string) => `{"id":"inv_${String(index).padStart(4, '0')}","app_metadata":{"rank":${rank}}}`;
    server.use(
      http.get(`${API}/organizations/org_1/invitations`, ({ request }) => {
        const query = new URL(request.url).searchParams;
        const page = Number(query.get('page'));
        const perPage = Number(query.get('per_page'));
        // The check past the window (reversed order) answers records that were all yielded, the first one's rank deep.
        const probe = query.get('sort') === 'app_metadata.rank:-1';
        const records = Array.from({ length: perPage }, (_, index) =>
          probe
            ? record(999 - index, index === 0 ? `${'['.repeat(levels)}${']'.repeat(levels)}` : '1')
            : record(page * perPage + index, '1'),
        );
        return new HttpResponse(`{"start":${page * perPage},"limit":${perPage},"invitations":[${records.join(',')}]}`, {
          headers: { 'content-type': 'application/json' },
        });
      }),
    );
    const management = new ManagementClient({ domain: DOMAIN, token: 'token-abc', retry: false });
    let yielded = 0;
    for await (const _ of management.organizations.invitations.iterate('org_1', { per_page: 100, sort: 'app_metadata.rank:1' })) yielded++;
    // The probe's first key cannot be compared, so it counts as a tie; its first record is the last yielded: nothing lies past the window.
    expect(yielded).toBe(1000);
  });
});

describe('iterate checks the organization id when it is called', () => {
  it.each(['.', '..', 'a\ud800b'])('iterate(%j) throws RequestValidationError before any next()', (id) => {
    const management = client();
    expect(() => management.organizations.invitations.iterate(id)).toThrow(RequestValidationError);
    expect(requests).toHaveLength(0);
  });
});
