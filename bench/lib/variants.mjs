/**
 * The five ways of listing the 50 invitations (one page, with totals) that the
 * comparison benchmark runs side by side, each a function that makes the call once
 * and resolves to the 50 records:
 *
 * - raw: `fetch` + `res.json()`, the floor of any client;
 * - kyAlone: a ky instance with the options the SDK's sender gives its own (prefix
 *   URL, `accept` and `user-agent` headers, no retry, no timeout, no thrown HTTP
 *   errors, redirects not followed), one bearer header and a fresh abort signal per
 *   call handed to fetch as the SDK hands it, the body read with `.text()` and
 *   `JSON.parse`: everything the SDK does below its own code, with none of it;
 * - auth0: auth0@7's `ManagementClient`, the reference SDK;
 * - validating / unvalidated: idplatform's `ManagementClient` (the built `dist/`,
 *   imported as `idplatform/management`) with and without response validation.
 *
 * Each variant's library is imported only when that variant is created, so a child
 * process measuring one variant loads only it.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { pathToFileURL } from 'node:url';
import { BENCH_DOMAIN, CLIENT_ID, CLIENT_SECRET, ORG_ID, PER_PAGE } from './fixtures.mjs';

/** Variant names, in the order the tables show them. */
export const VARIANT_NAMES = /** @type {const} */ (['raw', 'kyAlone', 'auth0', 'validating', 'unvalidated']);

/** Human labels of the variants. */
export const VARIANT_LABELS = {
  raw: 'raw fetch + res.json()',
  kyAlone: "ky alone (the SDK's ky options, .text() + JSON.parse)",
  auth0: 'auth0@7.1.0 ManagementClient',
  validating: 'idplatform, validating',
  unvalidated: 'idplatform, validateResponses: false',
};

/** The package root, whose node_modules hold the SDK's own dependencies (ky among them). */
const ROOT_URL = new URL('../../', import.meta.url);

/**
 * ky as the SDK gets it: resolved from the package root's node_modules (a dependency
 * of the SDK), not from the bench's own.
 */
async function importKy() {
  const requireFromRoot = createRequire(new URL('package.json', ROOT_URL));
  const { default: ky } = await import(pathToFileURL(requireFromRoot.resolve('ky')).href);
  return ky;
}

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
    case 'kyAlone': {
      const ky = await importKy();
      const token = await fetchBenchToken(port);
      const { version } = JSON.parse(readFileSync(new URL('package.json', ROOT_URL), 'utf8'));
      // The options of the SDK's sender (its `ky.create` call), with the user-agent it sends under Node.
      const http = ky.create({
        prefixUrl: `${origin}/api/v2`,
        headers: { accept: 'application/json', 'user-agent': `idplatform/${version} node/${process.versions.node}` },
        retry: 0,
        timeout: false,
        throwHttpErrors: false,
        redirect: 'manual',
      });
      const path = `organizations/${ORG_ID}/invitations?page=0&per_page=${PER_PAGE}&include_totals=true`;
      const headers = { authorization: `Bearer ${token}` };
      return async () => {
        // A fresh signal per call, given to fetch through ky's `fetch` option, as the SDK passes one per attempt.
        const { signal } = new AbortController();
        const response = await http(path, { headers, fetch: (input, init) => fetch(input, { ...init, signal }) });
        const text = await response.text();
        if (!response.ok) throw new Error(`ky alone: HTTP ${response.status}`);
        return JSON.parse(text).invitations;
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
