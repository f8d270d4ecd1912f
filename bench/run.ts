/**
 * Benchmarks of the SDK's own overhead, with no network: a custom `fetch` answers
 * from memory. Run with `npm run bench`. The machine is noisy: compare the
 * figures of one run as ratios (e.g. validated vs unvalidated), not across runs.
 */
import { ManagementClient } from 'idplatform/management';

const invitations = Array.from({ length: 100 }, (_, index) => ({
  id: `uinv_${index}`,
  organization_id: 'org_1',
  inviter: { name: 'Ada Lovelace' },
  invitee: { email: `user${index}@example.com` },
  invitation_url: `https://acme.example.com/login?invitation=${index}`,
  created_at: '2026-01-01T00:00:00.000Z',
  expires_at: '2026-01-08T00:00:00.000Z',
  client_id: 'client_1',
  roles: ['rol_1'],
  ticket_id: `tkt_${index}`,
}));
const pageBody = JSON.stringify(invitations);
const typesBody = JSON.stringify({ message_types: ['sms'] });
const tokenBody = JSON.stringify({ access_token: 'token', token_type: 'Bearer', expires_in: 86_400 });

const fetch = async (request: Request): Promise<Response> => {
  const { pathname } = new URL(request.url);
  const body = pathname === '/oauth/token' ? tokenBody : pathname.endsWith('/invitations') ? pageBody : typesBody;
  return new Response(body, { headers: { 'content-type': 'application/json' } });
};

const client = (validateResponses: boolean) =>
  new ManagementClient({ domain: 'bench.example.com', clientId: 'id', clientSecret: 'secret', fetch, validateResponses });

async function measure(name: string, run: () => Promise<unknown>, iterations: number): Promise<number> {
  for (let i = 0; i < Math.min(200, iterations); i++) await run();
  // This fetch answers without I/O, so the loop never yields to the event loop; one turn lets what
  // the SDK loads lazily on first use (zod's compiler, the retry loop) arrive, as it would with a network.
  await new Promise((resolve) => setTimeout(resolve, 50));
  const start = performance.now();
  for (let i = 0; i < iterations; i++) await run();
  const perCall = ((performance.now() - start) * 1000) / iterations;
  console.log(`${name.padEnd(58)} ${perCall.toFixed(1).padStart(8)} µs/call`);
  return perCall;
}

const validated = client(true);
const unvalidated = client(false);
const small = await measure('guardian.phone.getMessageTypes (tiny body)', () => validated.guardian.phone.getMessageTypes(), 5_000);
const withSchema = await measure(
  'invitations.list, 100 records, validated',
  () => validated.organizations.invitations.list('org_1', { per_page: 100 }),
  2_000,
);
const withoutSchema = await measure(
  'invitations.list, 100 records, validateResponses: false',
  () => unvalidated.organizations.invitations.list('org_1', { per_page: 100 }),
  2_000,
);
const rawTiny = await measure(
  'baseline: the fetch stub + JSON.parse alone, tiny body',
  async () => (await fetch(new Request('https://x/api/v2/guardian'))).json(),
  5_000,
);
const rawFetch = await measure(
  'baseline: the fetch stub + JSON.parse alone, 100 records',
  async () => (await fetch(new Request('https://x/api/v2/organizations/o/invitations'))).json(),
  2_000,
);
console.log(`\nvalidation cost of 100 invitations: ${(withSchema / withoutSchema).toFixed(2)}x the unvalidated call`);
console.log(
  `SDK overhead over a bare fetch+parse: ${(withoutSchema / rawFetch).toFixed(2)}x (100 records), ${(small / rawTiny).toFixed(2)}x (tiny body)`,
);
