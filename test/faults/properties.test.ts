import fc from 'fast-check';
import { AuthenticationClient } from 'idplatform/auth';
import { IdPlatformError, ManagementClient, type ManagementClientOptions } from 'idplatform/management';
import { afterAll, describe, expect, it } from 'vitest';
import { leakedSecrets } from '../helpers/secret-scan.js';
import { recordingClock } from './tenant.js';

/**
 * Property-based tests (issue 9 §3) with fast-check. The seed is fixed (FC_SEED,
 * default below) so CI is repeatable; FC_RUNS raises the runs per property
 * (default 100), e.g. `FC_RUNS=5000 npx vitest run test/faults/properties.test.ts`.
 */
const SEED = Number(process.env.FC_SEED ?? 20_261_123);
const RUNS = Number(process.env.FC_RUNS ?? 100);
fc.configureGlobal({ seed: SEED, numRuns: RUNS, endOnFailure: true });

const BASE = 'https://tenant.test/api/v2';
const TOKEN = 'static-bearer-token-secret-0123456789';
const CLIENT_SECRET = 'p+q/r=s t&sec%ret-Ω-property';

// ── Arbitraries ───────────────────────────────────────────────────────────────

const hostilePiece = fc.constantFrom(
  '/',
  '..',
  '.',
  '%',
  '%2F',
  '?',
  '#',
  '&',
  '=',
  '+',
  ' ',
  '\r\n',
  '\n',
  '\0',
  '\ud800',
  '\udc00',
  '😀',
  'é',
  '\u202e',
);
/** Strings made of hostile pieces and arbitrary text, now and then 100 000 characters long. */
const hostileString = fc.oneof(
  {
    weight: 5,
    arbitrary: fc
      .array(fc.oneof(hostilePiece, fc.string({ unit: 'binary', maxLength: 8 })), { maxLength: 8 })
      .map((parts) => parts.join('')),
  },
  { weight: 1, arbitrary: fc.string({ unit: 'grapheme', maxLength: 60 }) },
  { weight: 1, arbitrary: fc.constantFrom('a'.repeat(100_000), `${'\ud83d\ude00'.repeat(50_000)}`, '', '.', '..') },
);
const hostileNumber = fc.oneof(
  fc.integer({ min: -5, max: 1200 }),
  fc.double(),
  fc.constantFrom(Number.NaN, Number.POSITIVE_INFINITY, Number.NEGATIVE_INFINITY, -1, 0.5, 1e21, 2 ** 53, -0),
);
/** Any value a JavaScript caller could pass, including objects with `__proto__` keys. */
const anyValue = fc.oneof(
  hostileString,
  hostileNumber,
  fc.boolean(),
  fc.constantFrom(null, undefined, [], {}, () => 'x', Symbol('s'), 10n, JSON.parse('{"__proto__":{"polluted":true}}')),
  fc.anything({ maxDepth: 2, withNullPrototype: true, withObjectString: true }),
);
const paramValue = fc.oneof(
  { weight: 3, arbitrary: anyValue },
  { weight: 2, arbitrary: fc.constantFrom('created_at:1', 'id,created_at', 'sms', true, false, 0, 1, 5, 50, 100) },
);
const paramKeys = [
  'page',
  'per_page',
  'fields',
  'include_fields',
  'include_totals',
  'sort',
  'onLimit',
  '__proto__',
  'constructor',
  'extra',
];
const params = fc.oneof(fc.dictionary(fc.constantFrom(...paramKeys), paramValue, { maxKeys: 5 }), anyValue, fc.constant(undefined));

// ── Harness ───────────────────────────────────────────────────────────────────

/** Errors the properties produced, for the secret scan. */
const produced: unknown[] = [];

/** A 200 answer with a JSON body. */
function jsonResponse(body: unknown): Response {
  return new Response(JSON.stringify(body), { status: 200, statusText: 'OK', headers: { 'content-type': 'application/json' } });
}

function recordingClient(options: Partial<ManagementClientOptions> = {}) {
  const sent: Request[] = [];
  const bodies: string[] = [];
  const fetch = async (request: Request) => {
    sent.push(request);
    bodies.push(await request.clone().text());
    const path = new URL(request.url).pathname;
    if (path.endsWith('/actions')) return jsonResponse({ actions: [], total: 0, page: 0, per_page: 50 });
    if (path.includes('message-types')) return jsonResponse({ message_types: ['sms'] });
    if (new URL(request.url).searchParams.get('include_totals') === 'true') return jsonResponse({ start: 0, limit: 50, invitations: [] });
    return jsonResponse([]);
  };
  const client = new ManagementClient({ baseUrl: BASE, token: TOKEN, retry: false, fetch, ...options } as ManagementClientOptions);
  return { client, sent, bodies };
}

/** Runs `call`: it settles with a value, or throws an `IdPlatformError` after sending nothing. */
async function settle(call: () => Promise<unknown>, sent: readonly Request[]): Promise<'sent' | 'refused'> {
  try {
    await call();
    return 'sent';
  } catch (error) {
    produced.push(error);
    expect(error, String(error)).toBeInstanceOf(IdPlatformError);
    expect(sent).toHaveLength(0); // refused before anything left
    return 'refused';
  }
}

/** The query a params object should produce: defined members, as strings. */
function expectQueryMatches(url: URL, given: unknown, ignore: readonly string[] = []) {
  if (typeof given !== 'object' || given === null) return;
  for (const [name, value] of Object.entries(given)) {
    if (value === undefined || ignore.includes(name) || (name === 'fields' && value === '')) continue;
    expect(url.searchParams.getAll(name)).toEqual([String(value)]);
  }
}

const segmentOf = (url: URL, index: number) => decodeURIComponent(url.pathname.split('/')[index] ?? '');

// ── Properties ────────────────────────────────────────────────────────────────

describe('properties: arbitrary parameters (issue 9 §3)', () => {
  it('invitations.list: a valid request whose URL decodes back to the values, or IdPlatformError and nothing sent', async () => {
    await fc.assert(
      fc.asyncProperty(fc.oneof(hostileString, anyValue), params, async (id, given) => {
        const { client, sent } = recordingClient();
        const outcome = await settle(() => client.organizations.invitations.list(id as string, given as never), sent);
        if (outcome === 'refused') {
          expect(sent).toHaveLength(0);
          return;
        }
        expect(sent).toHaveLength(1);
        const url = new URL((sent[0] as Request).url);
        expect(segmentOf(url, 4)).toBe(id);
        expect(url.pathname).toBe(`/api/v2/organizations/${encodeURIComponent(id as string)}/invitations`);
        expectQueryMatches(url, given);
      }),
    );
  });

  it('invitations.iterate: the same for the first page', async () => {
    await fc.assert(
      fc.asyncProperty(fc.oneof(hostileString, anyValue), params, async (id, given) => {
        const { client, sent } = recordingClient();
        const outcome = await settle(async () => {
          for await (const _ of client.organizations.invitations.iterate(id as string, given as never)) break;
        }, sent);
        if (outcome === 'refused') {
          expect(sent).toHaveLength(0);
          return;
        }
        const url = new URL((sent[0] as Request).url);
        expect(segmentOf(url, 4)).toBe(id);
        expectQueryMatches(url, given, ['onLimit', 'fields', 'per_page']);
      }),
    );
  });

  it('modules.listActions and iterateActions: the same', async () => {
    await fc.assert(
      fc.asyncProperty(fc.oneof(hostileString, anyValue), params, fc.boolean(), async (id, given, iterate) => {
        const { client, sent } = recordingClient();
        const outcome = await settle(async () => {
          if (!iterate) return client.actions.modules.listActions(id as string, given as never);
          for await (const _ of client.actions.modules.iterateActions(id as string, given as never)) break;
        }, sent);
        if (outcome === 'refused') {
          expect(sent).toHaveLength(0);
          return;
        }
        const url = new URL((sent[0] as Request).url);
        expect(segmentOf(url, 5)).toBe(id);
        expect(url.pathname).toBe(`/api/v2/actions/modules/${encodeURIComponent(id as string)}/actions`);
        if (!iterate) expectQueryMatches(url, given);
      }),
    );
  });

  it('phone.setMessageTypes: a strict body sent as given (JSON or form), or IdPlatformError and nothing sent', async () => {
    const messageTypes = fc.oneof(fc.array(fc.oneof(fc.constantFrom('sms', 'voice'), anyValue), { maxLength: 4 }), anyValue);
    const encoding = fc.oneof(fc.constantFrom('json', 'form', undefined), anyValue);
    await fc.assert(
      fc.asyncProperty(messageTypes, encoding, async (types, enc) => {
        const { client, sent, bodies } = recordingClient();
        const outcome = await settle(
          () => client.guardian.phone.setMessageTypes({ message_types: types } as never, { encoding: enc } as never),
          sent,
        );
        if (outcome === 'refused') {
          expect(sent).toHaveLength(0);
          return;
        }
        const body = bodies[0] as string;
        const typesSent =
          enc === 'form' ? new URLSearchParams(body).getAll('message_types').filter(Boolean) : JSON.parse(body).message_types;
        expect(typesSent).toEqual(types);
      }),
    );
  });

  it('request options: headers sent exactly as given (names lower-cased), or IdPlatformError and nothing sent', async () => {
    const headerName = fc.oneof(
      fc.constantFrom('x-trace', 'X-Trace', 'Authorization', 'authorization', 'x a', 'x\r\ny', ''),
      fc.string({ maxLength: 12 }),
    );
    const headers = fc.oneof(fc.dictionary(headerName, fc.oneof(hostileString, anyValue), { maxKeys: 3 }), anyValue);
    const timeoutMs = fc.oneof(fc.constant(undefined), hostileNumber, anyValue);
    await fc.assert(
      fc.asyncProperty(headers, timeoutMs, async (given, timeout) => {
        const { client, sent } = recordingClient();
        const outcome = await settle(() => client.guardian.phone.getMessageTypes({ headers: given, timeoutMs: timeout } as never), sent);
        if (outcome === 'refused') {
          expect(sent).toHaveLength(0);
          return;
        }
        const request = sent[0] as Request;
        expect(request.headers.get('authorization')).toBe(`Bearer ${TOKEN}`); // never merged with a caller's
        if (typeof given === 'object' && given !== null) {
          for (const [name, value] of Object.entries(given)) {
            if (name.toLowerCase() === 'authorization') continue;
            const last = Object.entries(given)
              .filter(([other]) => other.toLowerCase() === name.toLowerCase())
              .at(-1)?.[1];
            expect(request.headers.get(name)).toBe(String(last ?? value).trim());
          }
        }
      }),
    );
  });
});

describe('properties: auth URL builders', () => {
  const auth = new AuthenticationClient({ baseUrl: 'https://tenant.test', clientId: 'app', clientSecret: CLIENT_SECRET });
  const optional = fc.oneof(fc.constant(undefined), hostileString, anyValue);

  it('authorizeUrl: every value decodes back exactly, or IdPlatformError', () => {
    fc.assert(
      fc.property(optional, optional, optional, optional, (state, nonce, organization, connection) => {
        const given = { redirect_uri: 'https://app.example.com/callback', state, nonce, organization, connection };
        let href: string;
        try {
          href = auth.authorizeUrl(given as never);
        } catch (error) {
          produced.push(error);
          expect(error).toBeInstanceOf(IdPlatformError);
          return;
        }
        const url = new URL(href);
        expect(url.origin + url.pathname).toBe('https://tenant.test/authorize');
        for (const [name, value] of Object.entries(given)) if (value !== undefined) expect(url.searchParams.get(name)).toBe(value);
      }),
    );
  });

  it('logoutUrl, samlUrl, wsfedUrl: the same', () => {
    fc.assert(
      fc.property(optional, optional, optional, (returnTo, connection, wctx) => {
        for (const [build, name, value] of [
          [() => auth.logoutUrl({ returnTo } as never), 'returnTo', returnTo],
          [() => auth.samlUrl({ connection } as never), 'connection', connection],
          [() => auth.wsfedUrl({ wctx } as never), 'wctx', wctx],
        ] as const) {
          let href: string;
          try {
            href = build();
          } catch (error) {
            produced.push(error);
            expect(error).toBeInstanceOf(IdPlatformError);
            continue;
          }
          const url = new URL(href);
          expect(url.origin).toBe('https://tenant.test');
          if (value !== undefined) expect(url.searchParams.get(name)).toBe(value);
        }
      }),
    );
  });
});

describe('properties: arbitrary server answers', () => {
  const status = fc.integer({ min: 200, max: 599 });
  const headerValue = fc.oneof(
    fc.string({ maxLength: 20 }).filter((value) => /^[\x20-\x7e]*$/.test(value)),
    fc.constantFrom('0', '-1', '1e400', 'NaN', 'Tue, 01 Jan 2030 00:00:00 GMT'),
  );
  const headers = fc.dictionary(
    fc.constantFrom(
      'content-type',
      'x-ratelimit-limit',
      'x-ratelimit-remaining',
      'x-ratelimit-reset',
      'retry-after',
      'content-length',
      'x-other',
    ),
    headerValue,
    { maxKeys: 4 },
  );
  const body = fc.oneof(
    fc.string({ maxLength: 200 }),
    fc.json({ maxDepth: 4 }),
    fc.constantFrom(
      '',
      '[',
      '{"message_types":["sms"]}',
      '[{"id":"x"}]',
      '{"actions":[],"total":0,"page":0,"per_page":50}',
      'null',
      '{"access_token":"t","token_type":"Bearer"}',
    ),
    fc.constant('ECHO'),
  );
  const answer = fc.record({ status, headers, body });
  const operation = fc.constantFrom('list', 'iterate', 'listActions', 'iterateActions', 'get', 'set');

  async function call(client: ManagementClient, name: string): Promise<unknown> {
    switch (name) {
      case 'list':
        return client.organizations.invitations.list('org_1');
      case 'iterate': {
        const all = [];
        for await (const record of client.organizations.invitations.iterate('org_1')) all.push(record);
        return all;
      }
      case 'listActions':
        return client.actions.modules.listActions('mod_1');
      case 'iterateActions': {
        const all = [];
        for await (const record of client.actions.modules.iterateActions('mod_1')) all.push(record);
        return all;
      }
      case 'get':
        return client.guardian.phone.getMessageTypes();
      default:
        return client.guardian.phone.setMessageTypes({ message_types: ['sms'] }, { encoding: 'form' });
    }
  }

  it('whatever the token endpoint and the API answer, the call settles with a value or an IdPlatformError', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(answer, { minLength: 1, maxLength: 6 }), operation, fc.boolean(), async (answers, name, basic) => {
        let index = 0;
        const fetch = async (request: Request) => {
          const next = answers[index++ % answers.length] as (typeof answers)[number];
          const echo = `${request.headers.get('authorization') ?? ''} ${await request.text()}`;
          const text = next.body === 'ECHO' ? JSON.stringify({ error: echo, error_description: echo, message: echo }) : next.body;
          const nullBody = [204, 205, 304].includes(next.status);
          const responseHeaders = new Headers(next.headers);
          responseHeaders.delete('content-length');
          return new Response(nullBody ? null : text, { status: next.status, headers: responseHeaders });
        };
        const { clock } = recordingClock();
        const client = new ManagementClient({
          baseUrl: BASE,
          clientId: 'client-1',
          clientSecret: CLIENT_SECRET,
          tokenEndpointAuthMethod: basic ? 'client_secret_basic' : 'client_secret_post',
          retry: { maxRetries: 2 },
          clock,
          fetch,
        });
        try {
          await call(client, name);
        } catch (error) {
          produced.push(error);
          expect(error, String(error)).toBeInstanceOf(IdPlatformError);
        }
      }),
    );
  });
});

describe('secret scan over every error the properties produced', () => {
  afterAll(() => {
    produced.length = 0;
  });
  it('holds no token, client secret or Basic credential in any rendering', () => {
    const basic = btoa(`client-1:${new URLSearchParams([['', CLIENT_SECRET]]).toString().slice(1)}`);
    const hits = produced.flatMap((error) => leakedSecrets(error, [TOKEN, CLIENT_SECRET, basic, 't-token-from-body']));
    expect(produced.length).toBeGreaterThan(0);
    expect(hits).toEqual([]);
  });
});
