import { exportJWK, exportPKCS8, generateKeyPair, jwtVerify } from 'jose';
import { HttpResponse, http } from 'msw';
import { describe, expect, it } from 'vitest';
import {
  AuthApiError,
  AuthenticationClient,
  ConfigurationError,
  RequestValidationError,
  ResponseValidationError,
} from '../../src/auth/index.js';
import { createFakeClock } from '../helpers/clock.js';
import { DOMAIN, ORIGIN, recordRequests, useMswServer } from '../helpers/server.js';

const server = useMswServer();
const requests = recordRequests(server);
// No id_token here: ID token validation has its own tests (id-token.test.ts).
const tokens = { access_token: 'at', token_type: 'Bearer', expires_in: 60, refresh_token: 'rt', scope: 'openid' };

function serveToken(body: object = tokens, status = 200) {
  server.use(http.post(`${ORIGIN}/oauth/token`, () => HttpResponse.json(body, { status })));
}
async function sentForm() {
  const request = requests.at(-1)!;
  return { form: Object.fromEntries(new URLSearchParams(await request.text())), headers: request.headers };
}
const client = (options: object = {}) => {
  requests.length = 0;
  return new AuthenticationClient({
    domain: DOMAIN,
    clientId: 'app',
    clientSecret: 'shh',
    clock: createFakeClock(Date.UTC(2026, 0, 1)),
    // No key set to load before a refresh grant: that has its own tests too (id-token.test.ts).
    idTokenVerification: 'claims',
    ...options,
  });
};

describe('oauth grants', () => {
  it('clientCredentialsGrant sends the grant with the secret in the body', async () => {
    serveToken();
    await expect(client().oauth.clientCredentialsGrant({ audience: 'https://api', organization: 'org_1' })).resolves.toEqual(tokens);
    const { form, headers } = await sentForm();
    expect(form).toEqual({
      grant_type: 'client_credentials',
      audience: 'https://api',
      organization: 'org_1',
      client_id: 'app',
      client_secret: 'shh',
    });
    expect(headers.get('content-type')).toContain('application/x-www-form-urlencoded');
  });

  it('clientCredentialsGrant refuses a public client before sending', async () => {
    const publicClient = client({ clientSecret: undefined });
    await expect(publicClient.oauth.clientCredentialsGrant({ audience: 'https://api' })).rejects.toBeInstanceOf(ConfigurationError);
    expect(requests).toHaveLength(0);
  });

  it('authorizationCodeGrant with PKCE works for a client id only', async () => {
    serveToken();
    const verifier = 'v'.repeat(43);
    await client({ clientSecret: undefined }).oauth.authorizationCodeGrant({
      code: 'c',
      redirect_uri: 'https://app/cb',
      code_verifier: verifier,
    });
    expect((await sentForm()).form).toEqual({
      grant_type: 'authorization_code',
      code: 'c',
      redirect_uri: 'https://app/cb',
      code_verifier: verifier,
      client_id: 'app',
    });
  });

  it('authorizationCodeGrant refuses a public client without a code_verifier, and a malformed verifier', async () => {
    const publicClient = client({ clientSecret: undefined });
    await expect(publicClient.oauth.authorizationCodeGrant({ code: 'c', redirect_uri: 'https://app/cb' })).rejects.toThrow('must use PKCE');
    await expect(
      publicClient.oauth.authorizationCodeGrant({ code: 'c', redirect_uri: 'https://app/cb', code_verifier: 'short' }),
    ).rejects.toThrow('code_verifier must be 43–128 characters');
    expect(requests).toHaveLength(0);
  });

  it.each([
    ['leading whitespace', ' https://app.example.com/cb'],
    ['a trailing newline', 'https://app.example.com/cb\n'],
    ['a fragment', 'https://app.example.com/cb#x'],
    ['a javascript: URL', 'javascript:alert(1)'],
    ['a relative URL', '/cb'],
  ])('authorizationCodeGrant refuses a redirect_uri with %s, as authorizeUrl does, before sending', async (_, redirect_uri) => {
    serveToken();
    const auth = client();
    expect(() => auth.authorizeUrl({ redirect_uri })).toThrow(RequestValidationError);
    await expect(auth.oauth.authorizationCodeGrant({ code: 'c', redirect_uri })).rejects.toBeInstanceOf(RequestValidationError);
    expect(requests).toHaveLength(0);
  });

  it('authorizationCodeGrant sends the redirect_uri exactly as given (RFC 6749, 4.1.3: identical to the authorize request’s)', async () => {
    serveToken();
    const redirect_uri = 'HTTPS://App.Example.com:443/cb/../cb?x=a%20b&y=%7E';
    const auth = client();
    expect(new URL(auth.authorizeUrl({ redirect_uri })).searchParams.get('redirect_uri')).toBe(redirect_uri);
    await auth.oauth.authorizationCodeGrant({ code: 'c', redirect_uri });
    expect((await sentForm()).form.redirect_uri).toBe(redirect_uri);
  });

  it('refreshTokenGrant and passwordGrant (plain and realm) send their grants', async () => {
    serveToken();
    const auth = client({ tokenEndpointAuthMethod: 'client_secret_basic' });
    await auth.oauth.refreshTokenGrant({ refresh_token: 'rt-1', scope: 'openid' });
    const refresh = await sentForm();
    expect(refresh.form).toEqual({ grant_type: 'refresh_token', refresh_token: 'rt-1', scope: 'openid' });
    expect(refresh.headers.get('authorization')).toBe(`Basic ${btoa('app:shh')}`);
    await auth.oauth.passwordGrant({ username: 'ada', password: 'pw' });
    expect((await sentForm()).form).toMatchObject({ grant_type: 'password', username: 'ada', password: 'pw' });
    await auth.oauth.passwordGrant({ username: 'ada', password: 'pw', realm: 'Username-Password' });
    expect((await sentForm()).form).toMatchObject({
      grant_type: 'http://auth0.com/oauth/grant-type/password-realm',
      realm: 'Username-Password',
    });
  });

  it('signs a fresh client assertion for each request with private_key_jwt', async () => {
    serveToken();
    const { privateKey, publicKey } = await generateKeyPair('ES256', { extractable: true });
    const auth = client({
      clientSecret: undefined,
      clientAssertionSigningKey: await exportPKCS8(privateKey),
      clientAssertionSigningAlg: 'ES256',
    });
    await auth.oauth.clientCredentialsGrant({ audience: 'https://api' });
    await auth.oauth.clientCredentialsGrant({ audience: 'https://api' });
    const assertions = await Promise.all(
      requests.map(async (request) => new URLSearchParams(await request.text()).get('client_assertion')!),
    );
    const claims = await Promise.all(
      assertions.map(
        async (jwt) => (await jwtVerify(jwt, publicKey, { audience: `${ORIGIN}/`, currentDate: new Date(Date.UTC(2026, 0, 1)) })).payload,
      ),
    );
    expect(claims.map((claim) => [claim.iss, claim.sub])).toEqual([
      ['app', 'app'],
      ['app', 'app'],
    ]);
    expect(claims[0]?.jti).not.toBe(claims[1]?.jti);
  });

  it('keeps each attempt’s own assertion out of its error, even for concurrent calls', async () => {
    let calls = 0;
    // The first answer waits until the second request has arrived: the two attempts overlap.
    let secondArrived: () => void = () => {};
    const overlapping = new Promise<void>((resolve) => {
      secondArrived = resolve;
    });
    server.use(
      http.post(`${ORIGIN}/oauth/token`, async ({ request }) => {
        const assertion = new URLSearchParams(await request.text()).get('client_assertion');
        if (++calls === 1) await overlapping;
        else secondArrived();
        return HttpResponse.json({ error: 'invalid_client', error_description: `bad assertion ${assertion}` }, { status: 401 });
      }),
    );
    const { privateKey } = await generateKeyPair('RS256', { extractable: true });
    const auth = client({ clientSecret: undefined, clientAssertionSigningKey: await exportPKCS8(privateKey) });
    const errors = await Promise.all(
      [1, 2].map(() => auth.oauth.clientCredentialsGrant({ audience: 'https://api' }).catch((caught: unknown) => caught)),
    );
    for (const error of errors) {
      expect((error as AuthApiError).errorDescription).toBe('bad assertion [REDACTED]');
      expect(JSON.stringify(error)).not.toMatch(/eyJ/);
    }
  });

  it('throws ConfigurationError on first use when the signing key cannot be imported', async () => {
    const broken = '-----BEGIN PRIVATE KEY-----\nbm90IGEga2V5\n-----END PRIVATE KEY-----';
    const auth = client({ clientSecret: undefined, clientAssertionSigningKey: broken });
    await expect(auth.oauth.clientCredentialsGrant({ audience: 'https://api' })).rejects.toThrow(ConfigurationError);
    expect(requests).toHaveLength(0);
  });

  it('throws ConfigurationError (not a jose TypeError) on first use for a key that cannot sign, and sends nothing', async () => {
    const { publicKey, privateKey } = await generateKeyPair('RS256');
    const keys = [
      { clientAssertionSigningKey: publicKey },
      { clientAssertionSigningKey: privateKey, clientAssertionSigningAlg: 'ES256' },
      {
        clientAssertionSigningKey: await exportPKCS8((await generateKeyPair('RS256', { extractable: true })).privateKey),
        clientAssertionSigningAlg: 'ES256',
      },
    ];
    for (const key of keys) {
      const auth = client({ clientSecret: undefined, ...key });
      await expect(auth.oauth.clientCredentialsGrant({ audience: 'https://api' })).rejects.toBeInstanceOf(ConfigurationError);
    }
    expect(requests).toHaveLength(0);
  });

  it('refuses a public JWK (no `d`) as the signing key in the constructor', async () => {
    const { publicKey } = await generateKeyPair('RS256', { extractable: true });
    const jwk = await exportJWK(publicKey);
    expect(() => client({ clientSecret: undefined, clientAssertionSigningKey: jwk })).toThrow(ConfigurationError);
    expect(() => client({ clientSecret: undefined, clientAssertionSigningKey: jwk })).toThrow('JWK without `d`');
  });

  it('sends the mTLS edge headers with tls_client_auth', async () => {
    serveToken();
    const pem = '-----BEGIN CERTIFICATE-----\nMIIB+/=\n-----END CERTIFICATE-----';
    const auth = client({
      clientSecret: undefined,
      mtls: { edgeHeaders: { cnameApiKey: 'cname-key', clientCertificate: pem, clientCertificateCaVerified: 'SUCCESS' } },
    });
    await auth.oauth.clientCredentialsGrant({ audience: 'https://api' });
    const { form, headers } = await sentForm();
    expect(form).toEqual({ grant_type: 'client_credentials', audience: 'https://api', client_id: 'app' });
    expect(headers.get('cname-api-key')).toBe('cname-key');
    expect(decodeURIComponent(headers.get('client-certificate')!)).toBe(pem);
    expect(headers.get('client-certificate')).not.toContain('\n');
    expect(headers.get('client-certificate-ca-verified')).toBe('SUCCESS');
  });

  it('throws AuthApiError with the server error and description, scrubbed of the secret', async () => {
    serveToken({ error: 'invalid_client', error_description: 'bad secret shh-shh' }, 401);
    const auth = client({ clientSecret: 'shh-shh' });
    const error = await auth.oauth.clientCredentialsGrant({ audience: 'https://api' }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(AuthApiError);
    expect(error).toMatchObject({ status: 401, error: 'invalid_client', errorDescription: 'bad secret [REDACTED]' });
  });

  it('retries a 429 after X-RateLimit-Reset, on the token endpoint too', async () => {
    let calls = 0;
    const reset = String(Date.UTC(2026, 0, 1) / 1000 + 3);
    server.use(
      http.post(`${ORIGIN}/oauth/token`, () =>
        ++calls === 1
          ? HttpResponse.json(
              { error: 'too_many_requests' },
              { status: 429, headers: { 'x-ratelimit-limit': '1', 'x-ratelimit-remaining': '0', 'x-ratelimit-reset': reset } },
            )
          : HttpResponse.json(tokens),
      ),
    );
    const clock = createFakeClock(Date.UTC(2026, 0, 1));
    await client({ clock }).oauth.refreshTokenGrant({ refresh_token: 'rt' });
    expect(calls).toBe(2);
    expect(clock.sleeps[0]).toBeGreaterThanOrEqual(3_000);
  });

  it('validates token responses', async () => {
    serveToken({ token_type: 'Bearer' });
    await expect(client().oauth.refreshTokenGrant({ refresh_token: 'rt' })).rejects.toBeInstanceOf(ResponseValidationError);
  });

  it('refuses missing parameters before sending', async () => {
    await expect(client().oauth.refreshTokenGrant({ refresh_token: '' })).rejects.toBeInstanceOf(RequestValidationError);
    await expect(client().oauth.authorizationCodeGrant({ code: 'c' } as never)).rejects.toThrow('redirect_uri');
    expect(requests).toHaveLength(0);
  });
});

describe('oauth.revokeRefreshToken', () => {
  it('posts the token with the client credentials and resolves on 200', async () => {
    server.use(http.post(`${ORIGIN}/oauth/revoke`, () => new HttpResponse(null, { status: 200 })));
    await expect(client().oauth.revokeRefreshToken({ token: 'rt-9' })).resolves.toBeUndefined();
    expect((await sentForm()).form).toEqual({ token: 'rt-9', token_type_hint: 'refresh_token', client_id: 'app', client_secret: 'shh' });
  });

  it('throws AuthApiError on refusal without echoing the token', async () => {
    server.use(
      http.post(`${ORIGIN}/oauth/revoke`, () =>
        HttpResponse.json({ error: 'invalid_request', error_description: 'token rt-secret-9 unknown' }, { status: 400 }),
      ),
    );
    const error = await client()
      .oauth.revokeRefreshToken({ token: 'rt-secret-9' })
      .catch((caught: unknown) => caught);
    expect(error).toMatchObject({ status: 400, error: 'invalid_request', errorDescription: 'token [REDACTED] unknown' });
  });
});

describe('a hostile body in an error', () => {
  it('is cut at 64 levels for a public client too, which has no secret to redact, so that logging the error cannot overflow the stack', async () => {
    const levels = 100_000;
    server.use(
      http.post(
        `${ORIGIN}/oauth/token`,
        () =>
          new HttpResponse(`{"error":"invalid_grant","deep":${'['.repeat(levels)}${']'.repeat(levels)}}`, {
            status: 400,
            headers: { 'content-type': 'application/json' },
          }),
      ),
    );
    const publicClient = client({ clientSecret: undefined });
    const error = await publicClient.oauth
      .authorizationCodeGrant({ code: 'c', redirect_uri: 'https://app.example/cb', code_verifier: 'v'.repeat(43) })
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(AuthApiError);
    expect((error as AuthApiError).error).toBe('invalid_grant');
    const logged = JSON.stringify(error);
    expect(logged).toContain('[nested too deep]');
    expect(logged.match(/\[/g)?.length).toBeLessThan(200);
  });

  // A 2xx answer that fails its schema, with an issued token where an error keeps it.
  const issued = 'eyJhbGciOiJSUzI1NiJ9.issued-access-token.sig';
  it.each([
    ['beside a member nested 20,000 levels deep', `${'['.repeat(20_000)}${']'.repeat(20_000)}`],
    ['beside more than 10,000 objects', `[${Array.from({ length: 10_001 }, () => '{}').join(',')}]`],
  ])('keeps no issued token in a ResponseValidationError %s', async (_, trace) => {
    server.use(
      http.post(
        `${ORIGIN}/oauth/token`,
        () =>
          new HttpResponse(`{"data":{"access_token":"${issued}","token_type":"Bearer"},"trace":${trace}}`, {
            headers: { 'content-type': 'application/json' },
          }),
      ),
    );
    const error = await client()
      .oauth.clientCredentialsGrant({ audience: 'https://api' })
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ResponseValidationError);
    expect(JSON.stringify(error)).not.toContain(issued);
    expect(JSON.stringify(error)).toContain('[REDACTED]');
  });
});
