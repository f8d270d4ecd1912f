import { HttpResponse, http } from 'msw';
import { describe, expect, it } from 'vitest';
import { z as classic } from 'zod';
import * as z from 'zod/mini';
import {
  encodePath,
  ManagementClient,
  NotFoundError,
  RateLimitError,
  RequestValidationError,
  ResponseValidationError,
} from '../../src/management/index.js';
import { createFakeClock } from '../helpers/clock.js';
import { API, DOMAIN, recordRequests, tokenEndpoint, useMswServer } from '../helpers/server.js';

const server = useMswServer();
const requests = recordRequests(server);
const apiRequests = () => requests.filter((request) => new URL(request.url).pathname.startsWith('/api/v2/'));

function client(options: { validateResponses?: boolean; clock?: ReturnType<typeof createFakeClock> } = {}) {
  requests.length = 0;
  server.use(tokenEndpoint('token-1'));
  return new ManagementClient({ domain: DOMAIN, clientId: 'm2m', clientSecret: 'secret', ...options });
}

const RoleSchema = z.object({ id: z.string(), name: z.string() });

describe('management.request()', () => {
  it('sends a JSON body with the bearer token and returns the body unchecked without a schema', async () => {
    const management = client();
    server.use(
      http.post(`${API}/roles`, async ({ request }) =>
        HttpResponse.json({ id: 'rol_1', ...((await request.json()) as object) }, { status: 201 }),
      ),
    );
    const role = await management.request({ method: 'POST', path: 'roles', body: { name: 'editor' } });
    expect(role).toEqual({ id: 'rol_1', name: 'editor' });
    const [sent] = apiRequests();
    expect(sent?.headers.get('authorization')).toBe('Bearer token-1');
    expect(sent?.headers.get('content-type')).toContain('application/json');
    expect(await sent?.json()).toEqual({ name: 'editor' });
  });

  it('builds the query, accepts one leading slash and encodes ids with encodePath', async () => {
    const management = client();
    server.use(http.get(`${API}/roles/:id/users`, () => HttpResponse.json([])));
    await management.request({
      method: 'GET',
      path: `/${encodePath`roles/${'a/b'}/users`}`,
      query: { page: 2, include_totals: false, q: undefined },
    });
    const url = new URL(apiRequests()[0]?.url ?? '');
    expect(url.pathname).toBe('/api/v2/roles/a%2Fb/users');
    expect(url.search).toBe('?page=2&include_totals=false');
  });

  it('checks the body against the schema when one is given', async () => {
    const management = client();
    server.use(http.get(`${API}/roles/rol_1`, () => HttpResponse.json({ id: 'rol_1', name: 7 })));
    await expect(management.request({ method: 'GET', path: 'roles/rol_1', schema: RoleSchema })).rejects.toBeInstanceOf(
      ResponseValidationError,
    );
  });

  it('takes a classic zod schema too', async () => {
    const management = client();
    server.use(http.get(`${API}/roles/rol_1`, () => HttpResponse.json({ id: 'rol_1', name: 7 })));
    const RoleClassic = classic.object({ id: classic.string(), name: classic.string() });
    await expect(management.request({ method: 'GET', path: 'roles/rol_1', schema: RoleClassic })).rejects.toBeInstanceOf(
      ResponseValidationError,
    );
  });

  it("returns what the caller's schema parses the body to (its own safeParse: transforms apply, unknown members follow the schema)", async () => {
    const management = client();
    server.use(http.get(`${API}/roles/rol_1`, () => HttpResponse.json({ id: 'rol_1', name: 'editor', extra: true })));
    const Upper = z.object({
      id: z.string(),
      name: z.pipe(
        z.string(),
        z.transform((name: string) => name.toUpperCase()),
      ),
    });
    await expect(management.request({ method: 'GET', path: 'roles/rol_1', schema: Upper })).resolves.toEqual({
      id: 'rol_1',
      name: 'EDITOR',
    });
    const Classic = classic.object({ id: classic.string() }).transform((role) => role.id);
    await expect(management.request({ method: 'GET', path: 'roles/rol_1', schema: Classic })).resolves.toBe('rol_1');
  });

  it('returns the body unchecked with validateResponses: false', async () => {
    const management = client({ validateResponses: false });
    server.use(http.get(`${API}/roles/rol_1`, () => HttpResponse.json({ id: 'rol_1', name: 7 })));
    await expect(management.request({ method: 'GET', path: 'roles/rol_1', schema: RoleSchema })).resolves.toEqual({ id: 'rol_1', name: 7 });
  });

  it('maps errors and retries 429 like the built-in methods', async () => {
    const clock = createFakeClock();
    const management = client({ clock });
    let calls = 0;
    server.use(
      http.delete(`${API}/roles/rol_1`, () =>
        ++calls === 1
          ? HttpResponse.json(
              { statusCode: 429, error: 'Too Many Requests', message: 'slow down' },
              { status: 429, headers: { 'retry-after': '1' } },
            )
          : HttpResponse.json({ statusCode: 404, error: 'Not Found', message: 'The role does not exist' }, { status: 404 }),
      ),
    );
    const error = await management.request({ method: 'DELETE', path: 'roles/rol_1' }).catch((caught: unknown) => caught);
    expect(calls).toBe(2);
    expect(error).toBeInstanceOf(NotFoundError);
    expect(error).toMatchObject({ status: 404, method: 'DELETE', path: '/roles/rol_1' });
    expect(RateLimitError.is(error)).toBe(false);
  });

  const refused: [string, Record<string, unknown>, string][] = [
    ['an unknown method', { method: 'TRACE', path: 'roles' }, 'method must be one of GET, POST, PUT, PATCH, DELETE'],
    ['a missing path', { method: 'GET' }, 'path is required'],
    ['an empty path', { method: 'GET', path: '' }, 'path must be a path below the base URL'],
    ['an absolute URL', { method: 'GET', path: 'https://evil.example/x' }, 'no scheme or host'],
    ['a protocol-relative URL', { method: 'GET', path: '//evil.example/x' }, 'no scheme or host'],
    ['a ".." segment', { method: 'GET', path: 'roles/../../oauth/token' }, 'no "." or ".." segments'],
    ['an encoded ".." segment', { method: 'GET', path: 'roles/%2E%2E/x' }, 'no "." or ".." segments'],
    ['a backslash', { method: 'GET', path: 'roles\\..\\x' }, 'path must be a path below the base URL'],
    // URL parsers drop tabs, CRs and LFs: each of these would otherwise reach `/api/v2/../x` → `/x`.
    ['a ".." split by a tab', { method: 'GET', path: 'roles/.\t./.\t./x' }, 'no backslash, control character'],
    ['a ".." split by a CR or LF', { method: 'GET', path: 'roles/.\r./.\n./x' }, 'no backslash, control character'],
    ['another control character', { method: 'GET', path: 'roles/\u0000x' }, 'no backslash, control character'],
    ['a query in the path', { method: 'GET', path: 'roles?page=1' }, 'use query'],
    // URL parsers strip whitespace at the end of a URL: `roles/.. ` reaches `/api/` with the token.
    ['a ".." segment ended by a space', { method: 'GET', path: 'roles/.. ' }, 'trailing whitespace'],
    ['an encoded ".." ended by a space', { method: 'GET', path: '%2e%2e ' }, 'trailing whitespace'],
    ['a lone surrogate (sent as U+FFFD)', { method: 'DELETE', path: 'roles/rol_\ud800' }, 'lone surrogate'],
    [
      'a null query value',
      { method: 'GET', path: 'roles', query: { page: null } },
      'query values must be strings, finite numbers or booleans',
    ],
    ['an array query value', { method: 'GET', path: 'roles', query: { ids: ['a', 'b'] } }, 'query values must be strings'],
    ['a NaN query value', { method: 'GET', path: 'roles', query: { page: Number.NaN } }, 'query values must be strings'],
    ['a GET with a body', { method: 'GET', path: 'roles', body: {} }, 'a GET request cannot have a body'],
    ['a schema that is not one', { method: 'GET', path: 'roles', schema: {} }, 'schema must be a zod schema'],
    // A misnamed member would otherwise be dropped: a PUT sent without its body, a GET without its query.
    ['a body given as `json`', { method: 'PUT', path: 'roles/rol_1', json: { name: 'editor' } }, 'json'],
    ['a query given as `params`', { method: 'GET', path: 'roles', params: { per_page: 5 } }, 'params'],
  ];
  // JSON writes these as `{}` or as nothing: the request would go out without its data.
  const opaqueBodies: [string, unknown][] = [
    ['URLSearchParams', new URLSearchParams({ name: 'editor' })],
    [
      'FormData',
      (() => {
        const form = new FormData();
        form.set('name', 'editor');
        return form;
      })(),
    ],
    ['Map', new Map([['name', 'editor']])],
    ['Set', new Set(['editor'])],
    ['Blob', new Blob(['{"name":"editor"}'])],
    ['Uint8Array', new Uint8Array([1, 2])],
    ['function', () => ({ name: 'editor' })],
    ['toJSON answering undefined', { toJSON: () => undefined }],
  ];
  it.each(opaqueBodies)('refuses a %s body before sending', async (_, body) => {
    const management = client();
    const error = await management.request({ method: 'POST', path: 'roles', body }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(RequestValidationError);
    expect((error as Error).message).toContain('body must be a value JSON can carry');
    expect(requests).toHaveLength(0);
  });

  it('sends a class instance, a Date and nested values as JSON writes them', async () => {
    const management = client();
    server.use(http.post(`${API}/roles`, async ({ request }) => HttpResponse.json(await request.json())));
    class Role {
      constructor(readonly name: string) {}
    }
    expect(await management.request({ method: 'POST', path: 'roles', body: new Role('editor') })).toEqual({ name: 'editor' });
    const at = new Date(Date.UTC(2026, 0, 1));
    expect(await management.request({ method: 'POST', path: 'roles', body: { at, list: [1, 'two', null] } })).toEqual({
      at: '2026-01-01T00:00:00.000Z',
      list: [1, 'two', null],
    });
  });

  it('parses with a schema whose checks are asynchronous (through its safeParseAsync)', async () => {
    const management = client();
    server.use(http.get(`${API}/roles/rol_1`, () => HttpResponse.json({ id: 'rol_1', name: 'editor' })));
    const accepting = classic.object({ id: classic.string(), name: classic.string() }).refine(async (role) => role.name !== '');
    expect(await management.request({ method: 'GET', path: 'roles/rol_1', schema: accepting })).toEqual({ id: 'rol_1', name: 'editor' });
    const refusing = classic.object({ id: classic.string() }).refine(async () => false, 'not this one');
    const error = await management.request({ method: 'GET', path: 'roles/rol_1', schema: refusing }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ResponseValidationError);
    expect((error as ResponseValidationError).issues[0]?.message).toBe('not this one');
  });

  it('reports a schema that throws as ResponseValidationError, not as its own error', async () => {
    const management = client();
    server.use(http.get(`${API}/roles/rol_1`, () => HttpResponse.json({ id: 'rol_1' })));
    const broken = {
      safeParse: () => {
        throw new TypeError('broken schema');
      },
    };
    const error = await management
      .request({ method: 'GET', path: 'roles/rol_1', schema: broken as never })
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ResponseValidationError);
    expect((error as ResponseValidationError).issues[0]?.message).toBe('the schema could not check the body: broken schema');
  });

  it.each(refused)('refuses %s before sending', async (_, request, message) => {
    const management = client();
    const error = await management.request(request as never).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(RequestValidationError);
    expect((error as Error).message).toContain(message);
    expect(requests).toHaveLength(0);
  });
});
