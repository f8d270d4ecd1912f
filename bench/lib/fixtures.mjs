/**
 * The data the comparison benchmark serves: 50 organization invitations that are
 * valid by the platform's rules (emails, https URLs, ISO timestamps, roles, metadata), about 32 KB
 * of JSON with `include_totals=true`, and a long-lived client-credentials token.
 */

/** Organization id the benchmark lists invitations of. */
export const ORG_ID = 'org_W2dN5kQ7xYb8LmZ1';
/** Records per page: the API's default `per_page`. */
export const PER_PAGE = 50;
/** The tenant domain the SDKs are configured with; the fetch wrapper rewrites it to the loopback server. */
export const BENCH_DOMAIN = 'bench-tenant.example-tenant.com';
/** Client credentials of the benchmark's machine-to-machine application (not a real secret). */
export const CLIENT_ID = 'bench_client_1234567890abcdef';
export const CLIENT_SECRET = 'bench-client-secret-not-a-real-one';

const FIRST_NAMES = ['Ada', 'Grace', 'Alan', 'Barbara', 'Edsger', 'Frances', 'Donald', 'Margaret', 'Ken', 'Radia'];
const LAST_NAMES = ['Lovelace', 'Hopper', 'Turing', 'Liskov', 'Dijkstra', 'Allen', 'Knuth', 'Hamilton', 'Thompson', 'Perlman'];

/** One invitation record as the platform returns it (every field it has). */
function invitation(index) {
  const first = FIRST_NAMES[index % FIRST_NAMES.length];
  const last = LAST_NAMES[(index * 7) % LAST_NAMES.length];
  const created = new Date(Date.UTC(2026, 9, 1, 8, 0, 0) + index * 3_600_000 * 5 + index * 1_234);
  const expires = new Date(created.getTime() + 7 * 86_400_000);
  const ticket = `Tk${String(index).padStart(4, '0')}Qz8vB3nR5pL1xW7cY2`;
  return {
    id: `uinv_${((index + 1) * 2_654_435_761).toString(36).padStart(16, '0').slice(-16)}`,
    organization_id: ORG_ID,
    inviter: { name: `${FIRST_NAMES[(index + 3) % FIRST_NAMES.length]} ${LAST_NAMES[(index + 5) % LAST_NAMES.length]}` },
    invitee: { email: `${first.toLowerCase()}.${last.toLowerCase()}+${index}@example-${index % 7}.com` },
    invitation_url: `https://acme.example.com/invite?invitation=${ticket}&organization=${ORG_ID}`,
    created_at: created.toISOString(),
    expires_at: expires.toISOString(),
    client_id: 'AaBbCcDdEeFfGgHhIiJjKkLlMmNnOoPp',
    connection_id: `con_${(index % 3) + 1}a2B3c4D5e6F7g8H`,
    app_metadata: { plan: index % 3 === 0 ? 'enterprise' : 'team', seats: 10 + index },
    user_metadata: { locale: index % 2 ? 'en-GB' : 'fr-FR', department: 'Engineering' },
    roles: ['rol_Xy12Ab34Cd56Ef78', `rol_${String(index % 5).repeat(4)}Gh90Ij12Kl`],
    ticket_id: ticket,
  };
}

/** The 50 invitations. */
export const INVITATIONS = Array.from({ length: PER_PAGE }, (_, index) => invitation(index));

/** The list as `include_totals=true` returns it : what every variant requests. */
export const INVITATION_PAGE_BODY = JSON.stringify({ start: 0, limit: PER_PAGE, invitations: INVITATIONS });
/** The plain array form (`include_totals` false). */
export const INVITATION_LIST_BODY = JSON.stringify(INVITATIONS);

/** A client-credentials token response that stays valid for the whole run (one day). */
export const TOKEN_BODY = JSON.stringify({
  access_token: `eyJhbGciOiJSUzI1NiIsInR5cCI6IkpXVCJ9.${Buffer.from(JSON.stringify({ sub: `${CLIENT_ID}@clients`, scope: 'read:organization_invitations' })).toString('base64url')}.c2lnbmF0dXJl`,
  token_type: 'Bearer',
  expires_in: 86_400,
  scope: 'read:organization_invitations',
});
