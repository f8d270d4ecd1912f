/**
 * The four ways of listing the 50 invitations that the comparison benchmark runs
 * side by side: raw `fetch` + `res.json()`, auth0@7's `ManagementClient`, and
 * idplatform's `ManagementClient` (built `dist/`, imported as `idplatform/management`)
 * with and without response validation. Each variant's SDK is imported only when
 * that variant is created, so a child process measuring one variant loads only it.
 */
import { BENCH_DOMAIN, CLIENT_ID, CLIENT_SECRET, ORG_ID, PER_PAGE } from './fixtures.mjs';

/** Variant names, in the order the tables show them. */
export const VARIANT_NAMES = /** @type {const} */ (['raw', 'auth0', 'validating', 'unvalidated']);

/** Human labels of the variants. */
export const VARIANT_LABELS = {
  raw: 'raw fetch + res.json()',
  auth0: 'auth0@7.1.0 ManagementClient',
  validating: 'idplatform, validating',
  unvalidated: 'idplatform, validateResponses: false',
};

/**
 * A `fetch` that sends `https://{BENCH_DOMAIN}/…` to the loopback server instead.
 * auth0@7 builds `https://{domain}/api/v2` itself, so it and the raw variant go
 * through this wrapper; it only swaps the origin of a string or URL.
 */
export function createLoopbackFetch(origin) {
  const tenant = `https://${BENCH_DOMAIN}`;
  const rewrite = (url) => (url.startsWith(tenant) ? origin + url.slice(tenant.length) : url);
  return (input, init) => {
    if (typeof input === 'string') return fetch(rewrite(input), init);
    if (input instanceof URL) return fetch(rewrite(input.href), init);
    return fetch(new Request(rewrite(input.url), input), init);
  };
}

/** A client-credentials token from the loopback server, for the variants that send it themselves. */
export async function fetchBenchToken(port) {
  const tokenResponse = await createLoopbackFetch(`http://127.0.0.1:${port}`)(`https://${BENCH_DOMAIN}/oauth/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      grant_type: 'client_credentials',
      client_id: CLIENT_ID,
      client_secret: CLIENT_SECRET,
      audience: `https://${BENCH_DOMAIN}/api/v2/`,
    }),
  });
  const { access_token: token } = await tokenResponse.json();
  return token;
}

/** Creates the named variant: a function that lists the invitations once and resolves to the 50 records. */
export async function createVariant(name, port) {
  const origin = `http://127.0.0.1:${port}`;
  const loopbackFetch = createLoopbackFetch(origin);
  switch (name) {
    case 'raw': {
      const token = await fetchBenchToken(port);
      const url = `https://${BENCH_DOMAIN}/api/v2/organizations/${ORG_ID}/invitations?page=0&per_page=${PER_PAGE}&include_totals=true`;
      const init = { headers: { authorization: `Bearer ${token}`, accept: 'application/json' } };
      return async () => {
        const response = await loopbackFetch(url, init);
        if (!response.ok) throw new Error(`raw fetch: HTTP ${response.status}`);
        return (await response.json()).invitations;
      };
    }
    case 'auth0': {
      const { ManagementClient } = await import('auth0');
      const client = new ManagementClient({ domain: BENCH_DOMAIN, clientId: CLIENT_ID, clientSecret: CLIENT_SECRET, fetch: loopbackFetch });
      return async () => (await client.organizations.invitations.list(ORG_ID, { per_page: PER_PAGE, include_totals: true })).data;
    }
    case 'validating':
    case 'unvalidated': {
      const { ManagementClient } = await import('idplatform/management');
      const client = new ManagementClient({
        baseUrl: `${origin}/api/v2`,
        clientId: CLIENT_ID,
        clientSecret: CLIENT_SECRET,
        validateResponses: name === 'validating',
      });
      return async () => (await client.organizations.invitations.list(ORG_ID, { per_page: PER_PAGE, include_totals: true })).invitations;
    }
    default:
      throw new Error(`unknown variant ${name}`);
  }
}

/** Calls a variant once and checks that it returned the 50 records (so no variant measures an error path). */
export async function checkVariant(name, call) {
  const records = await call();
  if (!Array.isArray(records) || records.length !== PER_PAGE || typeof records[0]?.invitee?.email !== 'string') {
    throw new Error(`variant ${name} did not return the ${PER_PAGE} invitations`);
  }
}
