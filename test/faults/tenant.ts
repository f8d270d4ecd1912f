import type { Clock } from 'idplatform';
import { ManagementClient, type ManagementClientOptions, type ResponseInfo } from 'idplatform/management';
import { type Behaviour, type FaultServer, json, type ReceivedRequest } from '../helpers/fault-server.js';

/**
 * A small well-behaved tenant for the fault server's fallback: the token endpoint and
 * the four Management operations over fixed data, echoing credentials in every error
 * (so the secret scan sees what a hostile or careless server could send back).
 */

/** A client secret that every encoding changes (`+`, `/`, `=`, space, `&`, `%`, non-ASCII). */
export const CLIENT_SECRET = 'p+q/r=s t&sec%ret-Ω-0123456789';
export const CLIENT_ID = 'fault-matrix-client';
export const ORG = 'org_1';
export const MODULE = 'mod_1';
export const RECORDS = 7;

/** Invitations `uinv_0` … `uinv_6`, in the server's order. */
export const invitations = Array.from({ length: RECORDS }, (_, index) => ({
  id: `uinv_${index}`,
  inviter: { name: 'Ada' },
  invitee: { email: `user${index}@example.com` },
  created_at: '2026-01-01T00:00:00.000Z',
}));
/** Actions `act_0` … `act_6`. */
export const actions = Array.from({ length: RECORDS }, (_, index) => ({ action_id: `act_${index}`, action_name: `Action ${index}` }));

/** The tenant's state: issued and revoked tokens, and the `expires_in` it grants. */
export interface TenantState {
  issued: string[];
  revoked: Set<string>;
  expiresIn: number | undefined;
}

export function newTenantState(): TenantState {
  return { issued: [], revoked: new Set(), expiresIn: 86_400 };
}

/** An error answer echoing the request's credentials (Authorization header and body). */
export function echoError(status: number, request: ReceivedRequest, extra: Record<string, string> = {}): Behaviour {
  const authorization = request.headers.authorization ?? '';
  const echo = `${authorization} ${request.body}`;
  if (request.url.startsWith('/oauth/')) {
    return json(
      status,
      { error: 'echo', error_description: `echo: ${echo}`, request: request.body },
      { 'x-echo': authorization, ...extra },
    );
  }
  return json(
    status,
    { statusCode: status, error: 'Echo', message: `echo: ${echo}`, errorCode: 'echo', headers: request.headers },
    {
      'x-echo': authorization,
      ...extra,
    },
  );
}

/** Answers like the platform, with fixed data. */
export function tenant(state: TenantState): Behaviour {
  return (context) => {
    const { request } = context;
    const url = new URL(request.url, 'http://127.0.0.1');
    if (url.pathname === '/oauth/token') {
      const token = `tok+/=${state.issued.length + 1}-${'abcdef'.repeat(4)}`;
      state.issued.push(token);
      const body: Record<string, unknown> = { access_token: token, token_type: 'Bearer' };
      if (state.expiresIn !== undefined) body.expires_in = state.expiresIn;
      return json(200, body)(context);
    }
    const token = (request.headers.authorization ?? '').replace(/^Bearer /, '');
    if (!state.issued.includes(token) || state.revoked.has(token)) return echoError(401, request)(context);
    const page = Number(url.searchParams.get('page') ?? 0);
    const perPage = Number(url.searchParams.get('per_page') ?? 50);
    const slice = <T>(records: readonly T[]) => records.slice(page * perPage, (page + 1) * perPage);
    switch (url.pathname) {
      case `/api/v2/organizations/${ORG}/invitations`:
        return json(200, slice(invitations))(context);
      case `/api/v2/actions/modules/${MODULE}/actions`:
        return json(200, { actions: slice(actions), total: RECORDS, page, per_page: perPage })(context);
      case '/api/v2/guardian/factors/phone/message-types':
        return json(200, { message_types: ['sms'] })(context);
      default:
        return echoError(404, request)(context);
    }
  };
}

/** A clock that never sleeps: it records each wait the SDK asks for and moves only when told. */
export function recordingClock(start = Math.floor(Date.now() / 1000) * 1000) {
  let time = start;
  const sleeps: number[] = [];
  const clock: Clock = {
    now: () => time,
    sleep: async (ms, signal) => {
      if (signal?.aborted) throw signal.reason;
      sleeps.push(ms);
    },
  };
  return {
    clock,
    sleeps,
    advance: (ms: number) => {
      time += ms;
    },
  };
}

/** What one cell observed. */
export interface Observation {
  readonly value?: unknown;
  readonly error?: unknown;
  readonly apiRequests: number;
  readonly tokenRequests: number;
  readonly sleeps: readonly number[];
}

/** Everything a call produced that could reach a log: errors and `onResponse` payloads. */
export const produced: unknown[] = [];

/** A client of the fault server, its `onResponse` payloads kept for the secret scan. */
export function matrixClient(
  server: FaultServer,
  clock: Clock,
  options: Partial<Pick<ManagementClientOptions, 'timeoutMs' | 'retry' | 'tokenEndpointAuthMethod'>> = {},
): ManagementClient {
  return new ManagementClient({
    baseUrl: `${server.url}/api/v2`,
    clientId: CLIENT_ID,
    clientSecret: CLIENT_SECRET,
    clock,
    retry: { maxRetries: 2, maxDelayMs: 60_000 },
    timeoutMs: 10_000,
    onResponse: (info: ResponseInfo) => {
      produced.push(info);
    },
    ...options,
  } as ManagementClientOptions);
}

/** Runs `call`, then counts what reached the server. */
export async function observe(server: FaultServer, sleeps: readonly number[], call: () => Promise<unknown>): Promise<Observation> {
  let value: unknown;
  let error: unknown;
  try {
    value = await call();
  } catch (caught) {
    error = caught;
    produced.push(caught);
  }
  return {
    value,
    error,
    apiRequests: server.requests.filter((request) => request.url.startsWith('/api/v2')).length,
    tokenRequests: server.requests.filter((request) => request.url.startsWith('/oauth/token')).length,
    sleeps: [...sleeps],
  };
}

/** Collects an async iterator. */
export async function collect<T>(records: AsyncIterable<T>): Promise<T[]> {
  const all: T[] = [];
  for await (const record of records) all.push(record);
  return all;
}
