import { readFileSync, writeFileSync } from 'node:fs';
import { IdPlatformError, type ManagementClient } from 'idplatform/management';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  type Behaviour,
  dribble,
  type FaultServer,
  json,
  neverAnswer,
  resetBeforeHeaders,
  resetMidBody,
  startFaultServer,
  text,
} from '../helpers/fault-server.js';
import { basicCredentials, leakedSecrets } from '../helpers/secret-scan.js';
import {
  actions,
  CLIENT_ID,
  CLIENT_SECRET,
  collect,
  echoError,
  invitations,
  MODULE,
  matrixClient,
  newTenantState,
  type Observation,
  ORG,
  observe,
  produced,
  recordingClock,
  type TenantState,
  tenant,
} from './tenant.js';

/**
 * The fault matrix of issue 9, on a real socket: every Management operation and the
 * token endpoint against a node:http server on 127.0.0.1 that misbehaves in each
 * way a production server, proxy or network can. Each cell asserts its outcome;
 * the table of outcomes is docs/reliability.md (regenerate: UPDATE_RELIABILITY_DOC=1).
 */

interface Operation {
  readonly name: string;
  readonly method: 'GET' | 'PUT';
  /** The path prefix the operation's requests start with. */
  readonly path: string;
  readonly call: (client: ManagementClient) => Promise<unknown>;
  /** The well-formed answer, for asserting values. */
  readonly expected: unknown;
  /** A well-formed 2xx body with one property added, and with a known property mistyped. */
  readonly added: unknown;
  readonly mistyped: unknown;
}

const INVITATIONS_PATH = `/api/v2/organizations/${ORG}/invitations`;
const ACTIONS_PATH = `/api/v2/actions/modules/${MODULE}/actions`;
const PHONE_PATH = '/api/v2/guardian/factors/phone/message-types';
const actionsPage = { actions, total: actions.length, page: 0, per_page: 50 };

const operations: Operation[] = [
  {
    name: 'invitations.list',
    method: 'GET',
    path: INVITATIONS_PATH,
    call: (client) => client.organizations.invitations.list(ORG),
    expected: invitations,
    added: invitations.map((record) => ({ ...record, delivery: 'sent' })),
    mistyped: [{ ...invitations[0], inviter: 'not-an-object' }],
  },
  {
    name: 'invitations.iterate',
    method: 'GET',
    path: INVITATIONS_PATH,
    call: (client) => collect(client.organizations.invitations.iterate(ORG, { onLimit: 'stop' })),
    expected: invitations,
    added: invitations.map((record) => ({ ...record, delivery: 'sent' })),
    mistyped: [{ ...invitations[0], created_at: 42 }],
  },
  {
    name: 'modules.listActions',
    method: 'GET',
    path: ACTIONS_PATH,
    call: (client) => client.actions.modules.listActions(MODULE),
    expected: actionsPage,
    added: { ...actionsPage, next: 'cursor' },
    mistyped: { ...actionsPage, total: 'seven' },
  },
  {
    name: 'modules.iterateActions',
    method: 'GET',
    path: ACTIONS_PATH,
    call: (client) => collect(client.actions.modules.iterateActions(MODULE)),
    expected: actions,
    added: { ...actionsPage, next: 'cursor' },
    mistyped: { ...actionsPage, actions: 'none' },
  },
  {
    name: 'phone.getMessageTypes',
    method: 'GET',
    path: PHONE_PATH,
    call: (client) => client.guardian.phone.getMessageTypes(),
    expected: { message_types: ['sms'] },
    added: { message_types: ['sms', 'whatsapp'], default: 'sms' },
    mistyped: { message_types: 'sms' },
  },
  {
    name: 'phone.setMessageTypes (PUT)',
    method: 'PUT',
    path: PHONE_PATH,
    call: (client) => client.guardian.phone.setMessageTypes({ message_types: ['sms'] }),
    expected: { message_types: ['sms'] },
    added: { message_types: ['sms'], changed_at: '2026-01-01T00:00:00Z' },
    mistyped: { message_types: [7] },
  },
];

/** What a cell saw: enough to assert, and to write down. */
interface Cell {
  readonly name: string;
  /** The stated outcome, in words, for the doc. */
  readonly expected: string;
  readonly clientOptions?: Parameters<typeof matrixClient>[2];
  /** Scripts the server for one operation. */
  readonly script: (server: FaultServer, operation: Operation, context: { nowSeconds: number }) => void;
  readonly check: (observation: Observation, operation: Operation) => void;
}

const apiError = (name: string, status?: number) => (observation: Observation) => {
  expect(observation.error).toBeInstanceOf(IdPlatformError);
  expect((observation.error as Error).name).toBe(name);
  if (status !== undefined) expect((observation.error as { status?: number }).status).toBe(status);
};
const valueAfter = (apiRequests: number) => (observation: Observation, operation: Operation) => {
  expect(observation.error).toBeUndefined();
  expect(observation.value).toEqual(operation.expected);
  expect(observation.apiRequests).toBe(apiRequests);
};
const rateLimited = (headers: (nowSeconds: number) => Record<string, string>): Cell['script'] => {
  return (server, operation, { nowSeconds }) =>
    server.next(operation.path, ({ request, ...rest }) => echoError(429, request, headers(nowSeconds))({ request, ...rest }));
};
const always = (behaviour: Behaviour, count = 10): Behaviour[] => Array.from({ length: count }, () => behaviour);
const echoing =
  (status: number, extra: Record<string, string> = {}): Behaviour =>
  (context) =>
    echoError(status, context.request, extra)(context);

/** Headers announcing a 1 GiB body, one byte of it, then nothing. */
const startBodyAndStall: Behaviour = ({ res }) => {
  res.writeHead(200, { 'content-type': 'application/json', 'content-length': String(2 ** 30) });
  res.write('[');
};

const DAY_SECONDS = 86_400;

const cells: Cell[] = [
  {
    name: '429 with X-RateLimit-Reset',
    expected: 'waits until the reset (never earlier), retries, value',
    script: rateLimited((now) => ({ 'x-ratelimit-limit': '10', 'x-ratelimit-remaining': '0', 'x-ratelimit-reset': String(now + 5) })),
    check: (observation, operation) => {
      valueAfter(2)(observation, operation);
      expect(observation.sleeps[0]).toBeGreaterThanOrEqual(5000);
      expect(observation.sleeps[0]).toBeLessThan(5250);
    },
  },
  {
    name: '429 with Retry-After',
    expected: 'waits Retry-After, retries, value',
    script: rateLimited(() => ({ 'retry-after': '3' })),
    check: (observation, operation) => {
      valueAfter(2)(observation, operation);
      expect(observation.sleeps).toEqual([3000]);
    },
  },
  {
    name: '429 with neither',
    expected: 'exponential backoff (250–500 ms), retries, value',
    script: rateLimited(() => ({})),
    check: (observation, operation) => {
      valueAfter(2)(observation, operation);
      expect(observation.sleeps[0]).toBeGreaterThanOrEqual(250);
      expect(observation.sleeps[0]).toBeLessThanOrEqual(500);
    },
  },
  {
    name: '429 with reset in the past',
    expected: 'retries at once (jitter only), value',
    script: rateLimited((now) => ({ 'x-ratelimit-reset': String(now - 60) })),
    check: (observation, operation) => {
      valueAfter(2)(observation, operation);
      expect(observation.sleeps[0]).toBeLessThan(250);
    },
  },
  {
    name: '429 with reset beyond maxDelayMs',
    expected: 'RateLimitError at once with rateLimit.reset; no sleep',
    script: rateLimited((now) => ({ 'x-ratelimit-limit': '10', 'x-ratelimit-remaining': '0', 'x-ratelimit-reset': String(now + 120) })),
    check: (observation) => {
      apiError('RateLimitError', 429)(observation);
      expect(observation.apiRequests).toBe(1);
      expect(observation.sleeps).toEqual([]);
      expect((observation.error as { rateLimit?: { reset: Date } }).rateLimit?.reset).toBeInstanceOf(Date);
    },
  },
  {
    name: '429 with reset beyond the timer limit (30 days)',
    expected: 'RateLimitError at once, even with maxDelayMs = 2^31−1',
    clientOptions: { retry: { maxRetries: 2, maxDelayMs: 2 ** 31 - 1 } },
    script: rateLimited((now) => ({ 'x-ratelimit-reset': String(now + 30 * DAY_SECONDS) })),
    check: (observation) => {
      apiError('RateLimitError', 429)(observation);
      expect(observation.apiRequests).toBe(1);
      expect(observation.sleeps).toEqual([]);
    },
  },
  {
    name: '429 storm longer than maxRetries',
    expected: 'RateLimitError after 1 + maxRetries (2) attempts',
    script: (server, operation, { nowSeconds }) =>
      server.next(operation.path, ...always(echoing(429, { 'x-ratelimit-reset': String(nowSeconds - 1) }))),
    check: (observation) => {
      apiError('RateLimitError', 429)(observation);
      expect(observation.apiRequests).toBe(3);
    },
  },
  {
    name: '500',
    expected: 'ServerError, not retried',
    script: (server, operation) => server.next(operation.path, echoing(500)),
    check: (observation) => {
      apiError('ServerError', 500)(observation);
      expect(observation.apiRequests).toBe(1);
    },
  },
  ...[502, 503, 504].map(
    (status): Cell => ({
      name: `${status} once`,
      expected: 'retried (GET and PUT are idempotent), value',
      script: (server, operation) => server.next(operation.path, echoing(status)),
      check: valueAfter(2),
    }),
  ),
  {
    name: '503 storm',
    expected: 'ServerError after 1 + maxRetries attempts',
    script: (server, operation) => server.next(operation.path, ...always(echoing(503))),
    check: (observation) => {
      apiError('ServerError', 503)(observation);
      expect(observation.apiRequests).toBe(3);
    },
  },
  {
    name: 'connection reset before headers',
    expected: 'NetworkError, retried (idempotent), value',
    script: (server, operation) => server.next(operation.path, resetBeforeHeaders),
    check: valueAfter(2),
  },
  {
    name: 'connection reset mid-body',
    expected: 'NetworkError, retried (idempotent), value',
    script: (server, operation) => server.next(operation.path, resetMidBody),
    check: valueAfter(2),
  },
  {
    name: 'accepts and never answers',
    expected: 'TimeoutError after timeoutMs, retried, value',
    clientOptions: { timeoutMs: 750 },
    script: (server, operation) => server.next(operation.path, neverAnswer),
    check: valueAfter(2),
  },
  {
    name: 'slow dribbling body',
    expected: 'TimeoutError (the timeout covers the body), retried, value',
    clientOptions: { timeoutMs: 750 },
    script: (server, operation) => server.next(operation.path, dribble),
    check: valueAfter(2),
  },
  {
    name: 'never answers, every attempt',
    expected: 'TimeoutError after 1 + maxRetries attempts',
    clientOptions: { timeoutMs: 500 },
    script: (server, operation) => server.next(operation.path, neverAnswer, neverAnswer, neverAnswer),
    check: (observation) => {
      apiError('TimeoutError')(observation);
      expect(observation.apiRequests).toBe(3);
    },
  },
  {
    name: 'truncated JSON',
    expected: 'ResponseValidationError, not retried',
    script: (server, operation) => server.next(operation.path, text(200, '[{"id":"uinv_0","inviter":{"na', 'application/json')),
    check: (observation) => {
      apiError('ResponseValidationError')(observation);
      expect(observation.apiRequests).toBe(1);
    },
  },
  {
    name: 'HTML page with 502, every attempt',
    expected: 'ServerError (status 502, short message), after retries',
    script: (server, operation) =>
      server.next(operation.path, ...always(text(502, `<html><body>${'<p>Bad gateway</p>'.repeat(500)}</body></html>`, 'text/html'))),
    check: (observation) => {
      apiError('ServerError', 502)(observation);
      expect(observation.apiRequests).toBe(3);
      expect((observation.error as Error).message.length).toBeLessThanOrEqual(200);
    },
  },
  {
    name: 'empty 200',
    expected: 'ResponseValidationError',
    script: (server, operation) => server.next(operation.path, text(200, '', 'application/json')),
    check: apiError('ResponseValidationError'),
  },
  {
    name: 'JSON with a wrong content-type',
    expected: 'value (JSON is read whatever the content-type says)',
    script: (server, operation) =>
      server.next(
        operation.path,
        text(200, JSON.stringify(operation.name === 'modules.iterateActions' ? actionsPage : operation.expected), 'text/plain'),
      ),
    check: valueAfter(1),
  },
  {
    name: '2xx with an added property',
    expected: 'value, the property kept',
    script: (server, operation) => server.next(operation.path, json(200, operation.added)),
    check: (observation, operation) => {
      expect(observation.error).toBeUndefined();
      const added = operation.added as { actions?: unknown };
      const expected = operation.name === 'modules.iterateActions' ? added.actions : operation.added;
      expect(observation.value).toEqual(expected);
    },
  },
  {
    name: '2xx with a known property of the wrong type',
    expected: 'ResponseValidationError',
    script: (server, operation) => server.next(operation.path, json(200, operation.mistyped)),
    check: apiError('ResponseValidationError'),
  },
  {
    name: 'body announced as 1 GiB (Content-Length), never finished, every attempt',
    expected: "bounded by the attempt's timeout: TimeoutError after 1 + maxRetries attempts",
    clientOptions: { timeoutMs: 500 },
    script: (server, operation) => server.next(operation.path, ...always(startBodyAndStall, 3)),
    check: (observation) => {
      apiError('TimeoutError')(observation);
      expect((observation.error as Error).message).toContain('timed out after 500 ms');
      expect(observation.apiRequests).toBe(3);
    },
  },
  {
    name: 'deeply nested JSON (100 000 levels)',
    expected: 'ResponseValidationError, no stack overflow; the body it carries cut at 64 levels',
    script: (server, operation) =>
      server.next(operation.path, text(200, `${'['.repeat(100_000)}${']'.repeat(100_000)}`, 'application/json')),
    check: (observation) => {
      apiError('ResponseValidationError')(observation);
      // What a logger does with the error: serialize it whole.
      const logged = JSON.stringify(observation.error);
      expect(logged).toContain('[nested too deep]');
      expect(logged.match(/\[/g)?.length).toBeLessThan(200);
    },
  },
  {
    name: '401 every time (token refused)',
    expected: 'UnauthorizedError; the request replayed once with a fresh token',
    script: (server, operation) => server.next(operation.path, ...always(echoing(401))),
    check: (observation) => {
      apiError('UnauthorizedError', 401)(observation);
      expect(observation.apiRequests).toBe(2);
      expect(observation.tokenRequests).toBe(2);
    },
  },
];

/** Cells of the token endpoint (exercised through `getMessageTypes`, twice, with both secret methods). */
interface TokenCell {
  readonly name: string;
  readonly expected: string;
  readonly script: (server: FaultServer, state: TenantState, context: { nowSeconds: number }) => void;
  readonly check: (observation: Observation, state: TenantState) => void;
}

const tokenError = (causeName: string, tokenRequests: number) => (observation: Observation) => {
  apiError('TokenRequestError')(observation);
  expect((observation.error as Error).cause).toMatchObject({ name: causeName });
  expect(observation.tokenRequests).toBe(tokenRequests);
  expect(observation.apiRequests).toBe(0);
};
const twoCalls = (tokenRequests: number) => (observation: Observation) => {
  expect(observation.error).toBeUndefined();
  expect(observation.value).toEqual([{ message_types: ['sms'] }, { message_types: ['sms'] }]);
  expect(observation.tokenRequests).toBe(tokenRequests);
};

const tokenCells: TokenCell[] = [
  {
    name: 'token endpoint down (connection reset)',
    expected: 'TokenRequestError (cause NetworkError); POST not retried',
    script: (server) => server.next('/oauth/token', ...always(resetBeforeHeaders)),
    check: tokenError('NetworkError', 1),
  },
  {
    name: 'token endpoint 401 invalid_client',
    expected: 'TokenRequestError (cause AuthApiError 401)',
    script: (server) => server.next('/oauth/token', echoing(401)),
    check: tokenError('AuthApiError', 1),
  },
  {
    name: 'token endpoint 503',
    expected: 'TokenRequestError (cause AuthApiError 503); POST not retried',
    script: (server) => server.next('/oauth/token', echoing(503)),
    check: tokenError('AuthApiError', 1),
  },
  {
    name: 'token endpoint 429 with reset',
    expected: 'waits for the reset, retries the token request, value',
    script: (server, _state, { nowSeconds }) => server.next('/oauth/token', echoing(429, { 'x-ratelimit-reset': String(nowSeconds + 2) })),
    check: twoCalls(2),
  },
  {
    name: 'malformed token response',
    expected: 'TokenRequestError (cause ResponseValidationError)',
    script: (server) => server.next('/oauth/token', (context) => json(200, { access_token: 42, echo: context.request.body })(context)),
    check: tokenError('ResponseValidationError', 1),
  },
  {
    name: 'expires_in missing',
    expected: 'value; token kept for the default hour (1 token request for 2 calls)',
    script: (_server, state) => {
      state.expiresIn = undefined;
    },
    check: twoCalls(1),
  },
  {
    name: 'expires_in 0',
    expected: 'value; token not cached (1 token request per call)',
    script: (_server, state) => {
      state.expiresIn = 0;
    },
    check: twoCalls(2),
  },
  {
    name: 'expires_in negative',
    expected: 'TokenRequestError (cause ResponseValidationError)',
    script: (_server, state) => {
      state.expiresIn = -60;
    },
    check: tokenError('ResponseValidationError', 1),
  },
  {
    name: 'expires_in huge (1e12 s)',
    expected: 'value; token cached (1 token request for 2 calls)',
    script: (_server, state) => {
      state.expiresIn = 1e12;
    },
    check: twoCalls(1),
  },
];

const METHODS = ['client_secret_post', 'client_secret_basic'] as const;

/** Outcomes for the doc: cell → column → outcome. */
const outcomes = new Map<string, Map<string, string>>();
const expectations = new Map<string, string>();

function record(cell: string, expected: string, column: string, observation: Observation) {
  expectations.set(cell, expected);
  const row = outcomes.get(cell) ?? new Map<string, string>();
  outcomes.set(cell, row);
  const what = observation.error === undefined ? 'value' : (observation.error as Error).name;
  row.set(column, `${what} (${observation.apiRequests}+${observation.tokenRequests})`);
}

let server: FaultServer;
let state: TenantState;
/** Every token the tenant issued over the whole run (the state is reset per test). */
const allIssuedTokens: string[] = [];
let scanned = 0;
beforeAll(async () => {
  state = newTenantState();
  server = await startFaultServer((context) => tenant(state)(context));
});
beforeEach(() => {
  server.reset();
  allIssuedTokens.push(...state.issued);
  state.issued.length = 0;
  state.revoked.clear();
  state.expiresIn = 86_400;
});
afterAll(() => server.close());

describe('fault matrix: Management operations', () => {
  for (const cell of cells) {
    describe(cell.name, () => {
      for (const operation of operations) {
        it(`${operation.name}: ${cell.expected}`, async () => {
          const { clock, sleeps } = recordingClock();
          const client = matrixClient(server, clock, cell.clientOptions);
          cell.script(server, operation, { nowSeconds: Math.floor(clock.now() / 1000) });
          const observation = await observe(server, sleeps, () => operation.call(client));
          record(cell.name, cell.expected, operation.name, observation);
          cell.check(observation, operation);
        });
      }
    });
  }
});

describe('fault matrix: token endpoint', () => {
  for (const cell of tokenCells) {
    for (const method of METHODS) {
      it(`${cell.name} (${method}): ${cell.expected}`, async () => {
        const { clock, sleeps } = recordingClock();
        const client = matrixClient(server, clock, { tokenEndpointAuthMethod: method });
        cell.script(server, state, { nowSeconds: Math.floor(clock.now() / 1000) });
        const observation = await observe(server, sleeps, async () => {
          const first = await client.guardian.phone.getMessageTypes();
          return [first, await client.guardian.phone.getMessageTypes()];
        });
        record(`token: ${cell.name}`, cell.expected, method, observation);
        cell.check(observation, state);
      });
    }
  }
});

describe('fault matrix: tokens during iteration', () => {
  it('a token that expires mid-iteration is renewed; every record once, in order', async () => {
    const { clock, sleeps, advance } = recordingClock();
    state.expiresIn = 10;
    const client = matrixClient(server, clock);
    const observation = await observe(server, sleeps, async () => {
      const seen: unknown[] = [];
      for await (const record of client.organizations.invitations.iterate(ORG, { per_page: 2, onLimit: 'stop' })) {
        seen.push(record);
        if (seen.length === 3) advance(20_000); // the token's 10 s are over before page 2
      }
      return seen;
    });
    record('token expires mid-iteration (per_page 2)', 'renewed; every record once, in order', 'invitations.iterate', observation);
    expect(observation.value).toEqual(invitations);
    expect(observation.tokenRequests).toBe(2);
  });

  it('a token the server revokes mid-iteration is replayed once with a fresh one; every record once', async () => {
    const { clock, sleeps } = recordingClock();
    const client = matrixClient(server, clock);
    const observation = await observe(server, sleeps, async () => {
      const seen: unknown[] = [];
      for await (const record of client.actions.modules.iterateActions(MODULE, { per_page: 2 })) {
        seen.push(record);
        if (seen.length === 3) for (const token of state.issued) state.revoked.add(token);
      }
      return seen;
    });
    record(
      'token revoked mid-iteration (per_page 2)',
      '401 replayed once with a new token; every record once',
      'modules.iterateActions',
      observation,
    );
    expect(observation.value).toEqual(actions);
    expect(observation.tokenRequests).toBe(2);
    expect(observation.apiRequests).toBe(5); // 4 pages + the one replay
  });
});

describe('secret scan over everything the matrix produced', () => {
  it('finds no secret, token or Basic credential in any error or onResponse payload, in any rendering', () => {
    const secrets = [CLIENT_SECRET, basicCredentials(CLIENT_ID, CLIENT_SECRET), ...allIssuedTokens];
    const hits = produced.flatMap((item) => leakedSecrets(item, secrets));
    expect(produced.length).toBeGreaterThan(100);
    expect(hits).toEqual([]);
    scanned = produced.length;
  });
});

describe('docs/reliability.md', () => {
  it('holds the matrix this run produced', () => {
    const generated = renderMatrix();
    const path = new URL('../../docs/reliability.md', import.meta.url);
    const current = readFileSync(path, 'utf8');
    const start = current.indexOf(BEGIN);
    const end = current.indexOf(END);
    expect(start, 'docs/reliability.md lacks the generated-matrix markers').toBeGreaterThanOrEqual(0);
    const updated = `${current.slice(0, start)}${generated}${current.slice(end + END.length)}`;
    if (process.env.UPDATE_RELIABILITY_DOC === '1') writeFileSync(path, updated);
    else
      expect(updated, 'docs/reliability.md is stale: run UPDATE_RELIABILITY_DOC=1 npx vitest run test/faults/matrix.test.ts').toBe(current);
  });
});

const BEGIN = '<!-- fault-matrix:begin (generated by test/faults/matrix.test.ts) -->';
const END = '<!-- fault-matrix:end -->';

function renderMatrix(): string {
  const operationColumns = operations.map((operation) => operation.name);
  const lines: string[] = [BEGIN, ''];
  let count = 0;
  const table = (title: string, columns: readonly string[], rows: [string, Map<string, string>][]) => {
    lines.push(`### ${title}`, '', `| cell | stated outcome | ${columns.join(' | ')} |`, `|---|---|${columns.map(() => '---').join('|')}|`);
    for (const [cell, row] of rows) {
      lines.push(`| ${cell} | ${expectations.get(cell)} | ${columns.map((column) => row.get(column) ?? '—').join(' | ')} |`);
      count += row.size;
    }
    lines.push('');
  };
  const entries = [...outcomes.entries()];
  table(
    'Management operations',
    operationColumns,
    entries.filter(([cell]) => cells.some((known) => known.name === cell)),
  );
  table(
    'Token endpoint (two `getMessageTypes` calls on a cold client)',
    METHODS,
    entries.filter(([cell]) => cell.startsWith('token: ')),
  );
  table(
    'Tokens during iteration',
    ['invitations.iterate', 'modules.iterateActions'],
    entries.filter(([cell]) => cell.includes('mid-iteration')),
  );
  lines.push(
    `**${count} cells**, each a test with its outcome asserted; each entry is the outcome and (API requests + token requests).`,
    `The secret scan rendered **${scanned}** errors and \`onResponse\` payloads (message, stack, String, JSON, util.inspect, cause chain): **0 hits**.`,
    '',
    END,
  );
  return lines.join('\n');
}
