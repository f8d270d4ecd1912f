/**
 * Soak (issue 9 §6): many calls at a fixed concurrency against the tenant emulator on
 * a loopback socket, with injected 429/503 faults and short-lived tokens. Checks that
 * no result is lost or duplicated, that token requests track the tokens' lifetimes,
 * that the heap after GC stays near where it started, and that the process exits by
 * itself. Prints the figures; exits non-zero when a check fails.
 *
 *   npm run soak                                   # 10 000 calls, concurrency 32
 *   SOAK_CALLS=50000 SOAK_CONCURRENCY=64 npm run soak
 *
 * Environment: SOAK_CALLS (10 000), SOAK_CONCURRENCY (32), SOAK_FAULT_RATE (0.05),
 * SOAK_TOKEN_LIFETIME_S (3), SOAK_HEAP_BOUND_MB (32), SOAK_SEED (1).
 */
import { ManagementClient, type OrganizationInvitation } from 'idplatform/management';
import { createTenantEmulator, SEED_IDS } from 'idplatform/testing';

const CALLS = Number(process.env.SOAK_CALLS ?? 10_000);
const CONCURRENCY = Number(process.env.SOAK_CONCURRENCY ?? 32);
const FAULT_RATE = Number(process.env.SOAK_FAULT_RATE ?? 0.05);
const TOKEN_LIFETIME_S = Number(process.env.SOAK_TOKEN_LIFETIME_S ?? 3);
const HEAP_BOUND_MB = Number(process.env.SOAK_HEAP_BOUND_MB ?? 32);
const WARMUP_CALLS = Math.min(500, Math.floor(CALLS / 10));

const gc = (globalThis as { gc?: () => void }).gc;
if (gc === undefined) throw new Error('run with node --expose-gc (npm run soak does)');

/** A small deterministic PRNG (mulberry32), so a run can be repeated. */
function random(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 2 ** 32;
  };
}

const emulator = createTenantEmulator({ tokenLifetimeSeconds: TOKEN_LIFETIME_S, rateLimit: { limit: 1_000_000_000, windowMs: 60_000 } });
const server = await emulator.listen();
let tokenRequests = 0;
const management = new ManagementClient({
  baseUrl: `${server.url}/api/v2`,
  ...emulator.credentials,
  retry: { maxRetries: 4 },
  // Counts token requests on the way out (the emulator's log keeps only the last 10 000 requests).
  fetch: (request, init) => {
    if (new URL(request.url).pathname === '/oauth/token') tokenRequests++;
    return fetch(request, init);
  },
});
const next = random(Number(process.env.SOAK_SEED ?? 1));

// What each kind of call must answer, read once before the soak.
const expected = {
  invitations: (await management.organizations.invitations.list(SEED_IDS.smallOrganization)).map(
    (invitation: OrganizationInvitation) => invitation.id ?? '?',
  ),
  actions: (await management.actions.modules.listActions(SEED_IDS.smallModule)).actions.map((action) => action.action_id ?? '?'),
};
const kinds = ['list', 'iterate', 'listActions', 'iterateActions', 'getMessageTypes', 'setMessageTypes'] as const;

async function call(kind: (typeof kinds)[number]): Promise<string[]> {
  switch (kind) {
    case 'list':
      return (await management.organizations.invitations.list('org_small')).map((invitation) => invitation.id ?? '?');
    case 'iterate': {
      const ids: string[] = [];
      for await (const invitation of management.organizations.invitations.iterate('org_small', { per_page: 2 }))
        ids.push(invitation.id ?? '?');
      return ids;
    }
    case 'listActions':
      return (await management.actions.modules.listActions('mod_small')).actions.map((action) => action.action_id ?? '?');
    case 'iterateActions': {
      const ids: string[] = [];
      for await (const action of management.actions.modules.iterateActions('mod_small', { per_page: 1 })) ids.push(action.action_id ?? '?');
      return ids;
    }
    case 'getMessageTypes':
      return [...(await management.guardian.phone.getMessageTypes()).message_types];
    default:
      return [...(await management.guardian.phone.setMessageTypes({ message_types: ['sms'] })).message_types];
  }
}

function expectedOf(kind: (typeof kinds)[number]): string[] {
  if (kind === 'list' || kind === 'iterate') return expected.invitations;
  if (kind === 'listActions' || kind === 'iterateActions') return expected.actions;
  return ['sms'];
}

const settled = new Uint8Array(CALLS); // how many times each call settled
let wrong = 0;
let failed = 0;
let faultsInjected = 0;
let started = 0;
let heapStart = 0;
let startedAt = 0;
const failures = new Map<string, number>();

async function worker(): Promise<void> {
  while (started < CALLS) {
    const index = started++;
    if (index === WARMUP_CALLS) {
      gc?.();
      heapStart = process.memoryUsage().heapUsed;
    }
    if (next() < FAULT_RATE) {
      faultsInjected++;
      emulator.faults.next(1, next() < 0.5 ? { status: 429, path: '/api/v2/*' } : { status: 503, path: '/api/v2/*' });
    }
    const kind = kinds[index % kinds.length] as (typeof kinds)[number];
    try {
      const ids = await call(kind);
      if (JSON.stringify(ids) !== JSON.stringify(expectedOf(kind))) wrong++;
    } catch (error) {
      failed++;
      const name = (error as Error).name;
      failures.set(name, (failures.get(name) ?? 0) + 1);
    } finally {
      settled[index] = (settled[index] ?? 0) + 1;
    }
  }
}

const tokenRequestsBefore = tokenRequests;
startedAt = performance.now();
await Promise.all(Array.from({ length: CONCURRENCY }, worker));
const elapsedMs = performance.now() - startedAt;
const soakTokenRequests = tokenRequests - tokenRequestsBefore;
await server.close();
gc();
const heapEnd = process.memoryUsage().heapUsed;

const lost = settled.filter((count) => count === 0).length;
const duplicated = settled.filter((count) => count > 1).length;
// The token is renewed a tenth of its life early (min(60 s, lifetime / 10)).
// How long the SDK reuses a token: its lifetime less min(a tenth, 60 s) and a second for `exp` rounding, at most half of it.
const lifetimeMs = TOKEN_LIFETIME_S * 1000;
const reuseMs = lifetimeMs - Math.min(Math.min(60_000, lifetimeMs / 10) + 1000, lifetimeMs / 2);
const lifetimes = elapsedMs / reuseMs;
const heapGrowthMb = (heapEnd - heapStart) / 2 ** 20;

const figures = {
  calls: CALLS,
  concurrency: CONCURRENCY,
  seconds: Number((elapsedMs / 1000).toFixed(1)),
  callsPerSecond: Math.round(CALLS / (elapsedMs / 1000)),
  faultsInjected,
  failed,
  failures: Object.fromEntries(failures),
  wrongResults: wrong,
  lost,
  duplicated,
  tokenRequests: soakTokenRequests,
  tokenLifetimesElapsed: Number(lifetimes.toFixed(1)),
  heapStartMb: Number((heapStart / 2 ** 20).toFixed(1)),
  heapEndMb: Number((heapEnd / 2 ** 20).toFixed(1)),
  heapGrowthMb: Number(heapGrowthMb.toFixed(1)),
};
console.log(JSON.stringify(figures, null, 2));

const problems = [
  lost > 0 && `${lost} calls never settled`,
  duplicated > 0 && `${duplicated} calls settled twice`,
  wrong > 0 && `${wrong} calls returned wrong or duplicated records`,
  failed > 0 && `${failed} calls failed`,
  // Within one renewal either side of the lifetimes elapsed (plus the first token).
  Math.abs(soakTokenRequests - Math.ceil(lifetimes)) > Math.max(2, lifetimes * 0.2) &&
    `${soakTokenRequests} token requests for ${lifetimes.toFixed(1)} token lifetimes`,
  heapGrowthMb > HEAP_BOUND_MB && `heap grew by ${heapGrowthMb.toFixed(1)} MB (bound ${HEAP_BOUND_MB} MB)`,
].filter(Boolean);
if (problems.length > 0) {
  console.error(`soak: FAILED: ${problems.join('; ')}`);
  process.exitCode = 1;
} else {
  console.log(`soak: OK: ${CALLS} calls, 0 lost, 0 duplicated, ${soakTokenRequests} token requests, heap +${heapGrowthMb.toFixed(1)} MB`);
}
// No process.exit: the process must end by itself (nothing left open).
