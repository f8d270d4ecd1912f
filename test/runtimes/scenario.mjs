/**
 * The runtime conformance scenario: one list of checks, written once against the
 * public API of the built package, that a JavaScript runtime passes when the SDK
 * works there. Each entry (`entries/*`) loads the package the way users of that
 * runtime do (`import`, `require`, a bundle) and hands its exports to
 * {@link runScenario}, which talks to a tenant emulator served by `listen()` from a
 * Node process (see `run.mjs`). Plain JavaScript, standard globals only.
 *
 * Before each run the runner resets the emulator and scripts one 429 (reset 1 s
 * ahead) for `GET /api/v2/organizations/org_empty/invitations` and two slow (2 s)
 * answers for `GET /api/v2/actions/modules/mod_small/actions`.
 */

/**
 * What the scenario needs from its runner.
 * @typedef {object} ScenarioConfig
 * @property {string} url The emulator's origin, e.g. `http://127.0.0.1:53124`.
 * @property {string} clientId The default client (`client_secret_post`).
 * @property {string} clientSecret Its secret (the emulator's fixed test secret).
 * @property {string} keyClientId A client registered for `private_key_jwt`.
 * @property {string} privateKeyPem Its PKCS#8 PEM private key (RS256), made by the runner for this run.
 * @property {string} ecKeyClientId Another `private_key_jwt` client, for ES256.
 * @property {Record<string, string>} ecPrivateJwk Its private key as a JWK (P-256).
 * @property {'node' | 'bun' | 'deno' | 'workerd' | 'browser'} runtime Where the scenario runs, which the `User-Agent` must name.
 */

/** The organization whose list the runner rate-limits once (see the module comment). */
export const RATE_LIMITED_ORGANIZATION = 'org_empty';

/** The module whose action list the runner slows down twice (2 s), for the timeout and abort checks. */
export const SLOW_MODULE = 'mod_small';

/**
 * Runs every check and reports each through `print`; never throws.
 * @param {Record<string, any>} sdk The exports of `idplatform` as the runtime loaded them.
 * @param {ScenarioConfig} config Where the emulator is and the credentials to use.
 * @param {(line: string) => void} print Where to write one line per check.
 * @returns {Promise<{ passed: number, failed: number, failures: string[] }>}
 */
export async function runScenario(sdk, config, print) {
  const { ManagementClient, AuthenticationClient, createPkcePair } = sdk;
  const baseUrl = `${config.url}/api/v2`;
  const audience = `${baseUrl}/`;
  const inBrowser = typeof globalThis.document !== 'undefined';
  // A browser may not hold a client secret (ManagementClient refuses one there): the page
  // gets its token as a backend would hand it one, from the token endpoint.
  let browserToken;
  const credentials = inBrowser
    ? {
        token: () =>
          (browserToken ??= fetchToken(config, audience).catch((error) => {
            browserToken = undefined;
            throw error;
          })),
      }
    : { clientId: config.clientId, clientSecret: config.clientSecret };
  const responses = [];
  const management = new ManagementClient({
    baseUrl,
    ...credentials,
    onResponse: (info) => responses.push({ ...info, at: Date.now() }),
  });
  const invitations = management.organizations.invitations;
  const results = { passed: 0, failed: 0, failures: [] };

  async function check(name, body) {
    try {
      await body();
      results.passed += 1;
      print(`ok   ${name}`);
    } catch (error) {
      results.failed += 1;
      const reason = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
      results.failures.push(`${name}: ${reason}`);
      print(`FAIL ${name}: ${reason}`);
    }
  }

  await check('management: list returns an array of invitations', async () => {
    const list = await invitations.list('org_small');
    expect(Array.isArray(list) && list.length === 5, `expected 5 invitations, got ${describe(list)}`);
    expect(
      list.every((invitation) => typeof invitation.id === 'string'),
      'every invitation has an id',
    );
  });

  await check('management: list with include_totals returns { start, limit, invitations }', async () => {
    const page = await invitations.list('org_small', { include_totals: true, per_page: 2, page: 1 });
    expect(page.start === 2 && page.limit === 2, `start/limit: ${describe({ start: page.start, limit: page.limit })}`);
    expect(page.invitations.length === 2, `expected 2 invitations, got ${page.invitations.length}`);
  });

  await check('management: iterate pages to the end (240 invitations, no duplicates)', async () => {
    const ids = new Set();
    for await (const invitation of invitations.iterate('org_medium', { per_page: 100 })) ids.add(invitation.id);
    expect(ids.size === 240, `expected 240 distinct invitations, got ${ids.size}`);
  });

  await check('management: iterate past the 1000-record window throws PagingLimitError after every reachable record', async () => {
    let count = 0;
    const error = await caught(async () => {
      for await (const _ of invitations.iterate('org_big', { per_page: 100 })) count += 1;
    });
    expect(error instanceof sdk.PagingLimitError, `expected PagingLimitError, got ${describe(error)}`);
    expect(count === 1000 && error.reachable === 1000, `yielded ${count}, reachable ${error.reachable}`);
  });

  await check('management: listActions returns a page with its total', async () => {
    const page = await management.actions.modules.listActions('mod_shared', { page: 0, per_page: 50 });
    expect(page.actions.length === 50 && page.total === 130, `got ${page.actions.length} actions, total ${page.total}`);
  });

  await check('management: iterateActions runs to the total', async () => {
    let count = 0;
    for await (const _ of management.actions.modules.iterateActions('mod_shared', { per_page: 40 })) count += 1;
    expect(count === 130, `expected 130 action versions, got ${count}`);
  });

  await check('management: getMessageTypes / setMessageTypes with a JSON body', async () => {
    const before = await management.guardian.phone.getMessageTypes();
    expect(sameList(before.message_types, ['sms']), `seeded types: ${describe(before)}`);
    const set = await management.guardian.phone.setMessageTypes({ message_types: ['voice'] });
    expect(sameList(set.message_types, ['voice']), `PUT answered ${describe(set)}`);
    const after = await management.guardian.phone.getMessageTypes();
    expect(sameList(after.message_types, ['voice']), `GET after PUT: ${describe(after)}`);
  });

  await check('management: setMessageTypes with a form body', async () => {
    const set = await management.guardian.phone.setMessageTypes({ message_types: ['sms', 'voice'] }, { encoding: 'form' });
    expect(sameList(set.message_types, ['sms', 'voice']), `PUT answered ${describe(set)}`);
    const after = await management.guardian.phone.getMessageTypes();
    expect(sameList(after.message_types, ['sms', 'voice']), `GET after PUT: ${describe(after)}`);
  });

  await check('management: a 429 is waited out until X-RateLimit-Reset, then the call succeeds', async () => {
    const from = responses.length;
    const list = await invitations.list(RATE_LIMITED_ORGANIZATION);
    expect(Array.isArray(list) && list.length === 0, `expected [], got ${describe(list)}`);
    const seen = responses.slice(from).filter((response) => response.path.includes(RATE_LIMITED_ORGANIZATION));
    const statuses = seen.map((response) => response.status);
    expect(sameList(statuses, [429, 200]), `expected statuses [429, 200], got ${describe(statuses)}`);
    const [limited, retried] = seen;
    expect(limited.rateLimit?.reset instanceof Date, 'the 429 carried rateLimit.reset');
    expect(retried.at >= limited.rateLimit.reset.getTime(), 'the retry was not sent before the reset');
  });

  const noRetry = new ManagementClient({ baseUrl, ...credentials, retry: false });

  await check('management: timeoutMs ends a slow call with TimeoutError', async () => {
    const error = await caught(() => noRetry.actions.modules.listActions(SLOW_MODULE, {}, { timeoutMs: 300 }));
    expect(error instanceof sdk.TimeoutError, `expected TimeoutError, got ${describe(error)}`);
  });

  await check('management: an AbortSignal ends a slow call with its reason', async () => {
    const controller = new AbortController();
    const reason = new Error('the caller gave up');
    setTimeout(() => controller.abort(reason), 100);
    const error = await caught(() => noRetry.actions.modules.listActions(SLOW_MODULE, {}, { signal: controller.signal }));
    expect(error === reason, `expected the abort reason, got ${describe(error)}`);
  });

  await check('management: a broken rule throws RequestValidationError and sends nothing', async () => {
    let requests = 0;
    const counted = new ManagementClient({
      baseUrl,
      ...credentials,
      fetch: (input, init) => {
        requests += 1;
        return fetch(input, init);
      },
    });
    const tooLarge = await caught(() => counted.organizations.invitations.list('org_small', { per_page: 500 }));
    const badType = await caught(() => counted.guardian.phone.setMessageTypes({ message_types: ['email'] }));
    for (const error of [tooLarge, badType]) {
      expect(error instanceof sdk.RequestValidationError, `expected RequestValidationError, got ${describe(error)}`);
      expect(Array.isArray(error.issues) && error.issues.length > 0, 'it lists the issues');
    }
    expect(requests === 0, `expected no request, ${requests} were sent`);
  });

  await check('management: an API error is a NotFoundError (ApiError) with its fields', async () => {
    const error = await caught(() => invitations.list('org_missing'));
    expect(error instanceof sdk.NotFoundError && error instanceof sdk.ApiError, `expected NotFoundError, got ${describe(error)}`);
    expect(
      error instanceof sdk.IdPlatformError && sdk.IdPlatformError.is(error) && sdk.NotFoundError.is(error),
      'it is an IdPlatformError (instanceof and IdPlatformError.is)',
    );
    const fields = { status: error.status, errorCode: error.errorCode, method: error.method, message: error.message };
    expect(error.status === 404 && error.errorCode === 'inexistent_organization' && error.method === 'GET', `fields: ${describe(fields)}`);
    expect(error.path.includes('org_missing') && error.message.length > 0, `path ${error.path}`);
    expect(typeof error.rateLimit?.limit === 'number' && error.rateLimit.reset instanceof Date, 'it carries rateLimit');
  });

  await check('management: the User-Agent names the SDK and the runtime (browsers send their own)', async () => {
    const userAgents = [];
    const observed = new ManagementClient({
      baseUrl,
      ...credentials,
      fetch: (input, init) => {
        userAgents.push((input instanceof Request ? input.headers : new Headers(init?.headers)).get('user-agent'));
        return fetch(input, init);
      },
    });
    await observed.guardian.phone.getMessageTypes();
    // Outside browsers the client's own token request goes through its fetch too.
    const requests = inBrowser ? 1 : 2;
    const expected = {
      node: /^idplatform\/\d+\.\d+\.\d+ node\/\d+\.\d+\.\d+$/,
      bun: /^idplatform\/\d+\.\d+\.\d+ bun\/\d+\.\d+\.\d+/,
      deno: /^idplatform\/\d+\.\d+\.\d+ deno\/\d+\.\d+\.\d+/,
      workerd: /^idplatform\/\d+\.\d+\.\d+ workerd$/,
    }[config.runtime];
    const fits = (userAgent) => (expected === undefined ? userAgent === null : expected.test(userAgent ?? ''));
    expect(userAgents.length === requests && userAgents.every(fits), `User-Agent in ${config.runtime}: ${describe(userAgents)}`);
  });

  if (inBrowser) {
    await check('management: a browser refuses a client secret and a signing key, and takes a token', async () => {
      for (const credential of [{ clientSecret: config.clientSecret }, { clientAssertionSigningKey: config.ecPrivateJwk }]) {
        const error = await caught(async () => new ManagementClient({ baseUrl, clientId: config.clientId, ...credential }));
        expect(error instanceof sdk.ConfigurationError, `expected ConfigurationError, got ${describe(error)}`);
      }
      const { message_types } = await management.guardian.phone.getMessageTypes();
      expect(Array.isArray(message_types), `got ${describe(message_types)}`);
    });
  } else {
    await check('management: client credentials with private_key_jwt (PKCS#8 PEM through WebCrypto)', async () => {
      const signed = new ManagementClient({ baseUrl, clientId: config.keyClientId, clientAssertionSigningKey: config.privateKeyPem });
      const { message_types } = await signed.guardian.phone.getMessageTypes();
      expect(Array.isArray(message_types), `got ${describe(message_types)}`);
    });

    await check('management: client credentials with private_key_jwt (ES256 private JWK through WebCrypto)', async () => {
      const signed = new ManagementClient({
        baseUrl,
        clientId: config.ecKeyClientId,
        clientAssertionSigningKey: config.ecPrivateJwk,
        clientAssertionSigningAlg: 'ES256',
      });
      const { message_types } = await signed.guardian.phone.getMessageTypes();
      expect(Array.isArray(message_types), `got ${describe(message_types)}`);
    });
  }

  await check('auth: createPkcePair makes an S256 pair', async () => {
    const pair = await createPkcePair();
    expect(pair.code_challenge_method === 'S256', `method ${pair.code_challenge_method}`);
    expect(/^[A-Za-z0-9._~-]{43,128}$/.test(pair.code_verifier), 'the verifier is 43–128 unreserved characters');
    const digest = await crypto.subtle.digest('SHA-256', new TextEncoder().encode(pair.code_verifier));
    expect(pair.code_challenge === base64url(new Uint8Array(digest)), 'the challenge is BASE64URL(SHA-256(verifier))');
  });

  const publicClient = new AuthenticationClient({ baseUrl: config.url, clientId: config.clientId });

  await check('auth: authorizeUrl builds the /authorize URL', async () => {
    const { code_challenge } = await createPkcePair();
    const url = new URL(publicClient.authorizeUrl({ redirect_uri: 'https://app.example/callback', code_challenge, state: 's-1' }));
    const params = Object.fromEntries(url.searchParams);
    expect(url.origin === config.url && url.pathname === '/authorize', `URL ${url.origin}${url.pathname}`);
    expect(
      params.client_id === config.clientId &&
        params.response_type === 'code' &&
        params.redirect_uri === 'https://app.example/callback' &&
        params.code_challenge === code_challenge &&
        params.code_challenge_method === 'S256' &&
        params.state === 's-1',
      `query ${describe(params)}`,
    );
  });

  let accessToken;
  if (inBrowser) {
    await check('auth: a browser refuses a client secret (public clients only), the token comes from the endpoint', async () => {
      const error = await caught(
        async () => new AuthenticationClient({ baseUrl: config.url, clientId: config.clientId, clientSecret: 'x' }),
      );
      expect(error instanceof sdk.ConfigurationError, `expected ConfigurationError, got ${describe(error)}`);
      accessToken = await fetchToken(config, audience);
    });
  } else {
    await check('auth: client-credentials grant', async () => {
      const confidential = new AuthenticationClient({ baseUrl: config.url, clientId: config.clientId, clientSecret: config.clientSecret });
      const token = await confidential.oauth.clientCredentialsGrant({ audience });
      expect(token.token_type === 'Bearer' && token.expires_in > 0, `token_type ${token.token_type}, expires_in ${token.expires_in}`);
      expect(typeof token.access_token === 'string' && token.access_token.split('.').length === 3, 'the access token is a JWT');
      accessToken = token.access_token;
    });
  }

  await check('auth: userInfo.get returns the subject of the token', async () => {
    expect(typeof accessToken === 'string', 'an access token from the step before');
    const info = await publicClient.userInfo.get(accessToken);
    expect(info.sub === `${config.clientId}@clients`, `sub ${describe(info.sub)}`);
  });

  print(`${results.passed} passed, ${results.failed} failed`);
  return results;
}

/** A client-credentials token from the emulator's token endpoint, fetched the way a backend would. */
async function fetchToken(config, audience) {
  const response = await fetch(`${config.url}/oauth/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({
      grant_type: 'client_credentials',
      client_id: config.clientId,
      client_secret: config.clientSecret,
      audience,
    }),
  });
  if (!response.ok) throw new Error(`token endpoint answered ${response.status}`);
  return (await response.json()).access_token;
}

function expect(condition, message) {
  if (!condition) throw new Error(message);
}

/** The error `body` throws (or rejects with), or `undefined` when it does not. */
async function caught(body) {
  try {
    await body();
    return undefined;
  } catch (error) {
    return error;
  }
}

function sameList(actual, expected) {
  return Array.isArray(actual) && actual.length === expected.length && actual.every((item, index) => item === expected[index]);
}

function describe(value) {
  if (value instanceof Error) return `${value.name}: ${value.message}`;
  try {
    return JSON.stringify(value);
  } catch {
    return String(value);
  }
}

function base64url(bytes) {
  let binary = '';
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return btoa(binary).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}
