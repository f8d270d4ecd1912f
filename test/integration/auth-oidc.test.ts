/**
 * AuthenticationClient against a real OpenID Connect server (oidc-provider) on
 * 127.0.0.1: every client-authentication method of spec 5.2, the whole
 * authorization-code + PKCE flow, revocation and the server's error bodies. No mocks.
 */
import { decodeJwt } from 'jose';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { AuthApiError, AuthenticationClient, type Clock, createPkcePair, IdTokenValidationError } from '../../src/auth/index.js';
import { followLogin } from './follow-login.js';
import { API_AUDIENCE, DEFAULT_REDIRECT_URI, type OidcProviderServer, startOidcProvider, TEST_USER } from './oidc-server.js';

let op: OidcProviderServer;

beforeAll(async () => {
  op = await startOidcProvider();
});

afterAll(async () => {
  await op?.close();
});

/** Awaits `promise`, expecting it to reject with an `AuthApiError`, and returns that error. */
async function authApiError(promise: Promise<unknown>): Promise<AuthApiError> {
  const error = await promise.then(
    () => undefined,
    (reason: unknown) => reason,
  );
  expect(error).toBeInstanceOf(AuthApiError);
  return error as AuthApiError;
}

describe('client credentials grant, one client per authentication method', () => {
  const expectApiToken = (accessToken: string, clientId: string) => {
    const claims = decodeJwt(accessToken);
    expect(claims).toMatchObject({ aud: API_AUDIENCE, iss: op.issuer, client_id: clientId, sub: clientId });
  };

  it('client_secret_post', async () => {
    const { clientId, clientSecret } = op.clients.secretPost;
    const auth = new AuthenticationClient({ baseUrl: op.origin, clientId, clientSecret });
    const token = await auth.oauth.clientCredentialsGrant({ audience: API_AUDIENCE, scope: 'read:things' });
    expect(token).toMatchObject({ token_type: 'Bearer', expires_in: 600, scope: 'read:things' });
    expectApiToken(token.access_token, clientId);
  });

  it('client_secret_basic, with a client id holding ":", space, "/", "+" and "%"', async () => {
    const { clientId, clientSecret } = op.clients.secretBasic;
    const auth = new AuthenticationClient({ baseUrl: op.origin, clientId, clientSecret, tokenEndpointAuthMethod: 'client_secret_basic' });
    const token = await auth.oauth.clientCredentialsGrant({ audience: API_AUDIENCE });
    expectApiToken(token.access_token, clientId);
  });

  it('private_key_jwt, the key given as PKCS#8 PEM', async () => {
    const { clientId, clientAssertionSigningKey } = op.clients.privateKeyJwt;
    expect(clientAssertionSigningKey).toMatch(/^-----BEGIN PRIVATE KEY-----/);
    const auth = new AuthenticationClient({ baseUrl: op.origin, clientId, clientAssertionSigningKey });
    const first = await auth.oauth.clientCredentialsGrant({ audience: API_AUDIENCE });
    expectApiToken(first.access_token, clientId);
    // The server refuses a replayed assertion (jti): a second call proves each one is fresh.
    const second = await auth.oauth.clientCredentialsGrant({ audience: API_AUDIENCE });
    expectApiToken(second.access_token, clientId);
  });

  it('tls_client_auth, the certificate forwarded in the edge headers', async () => {
    const { clientId, certificatePem } = op.clients.mtls;
    const auth = new AuthenticationClient({
      baseUrl: op.origin,
      clientId,
      mtls: {
        edgeHeaders: { cnameApiKey: 'test-cname-api-key', clientCertificate: certificatePem, clientCertificateCaVerified: 'SUCCESS' },
      },
    });
    const token = await auth.oauth.clientCredentialsGrant({ audience: API_AUDIENCE });
    expectApiToken(token.access_token, clientId);
  });

  it('an unknown audience is the server’s invalid_target', async () => {
    const auth = new AuthenticationClient({ baseUrl: op.origin, ...op.clients.secretPost });
    const error = await authApiError(auth.oauth.clientCredentialsGrant({ audience: 'https://unknown.example.test/' }));
    expect(error).toMatchObject({
      status: 400,
      error: 'invalid_target',
      errorDescription: 'unknown audience https://unknown.example.test/',
    });
  });
});

describe('errors of the real server', () => {
  it('a bad secret is AuthApiError 401 invalid_client with the server’s description (Post)', async () => {
    const auth = new AuthenticationClient({ baseUrl: op.origin, clientId: op.clients.secretPost.clientId, clientSecret: 'wrong-secret' });
    const error = await authApiError(auth.oauth.clientCredentialsGrant({ audience: API_AUDIENCE }));
    expect(error).toMatchObject({ status: 401, error: 'invalid_client', errorDescription: 'client authentication failed' });
    expect(error.message).toBe('invalid_client: client authentication failed');
    expect(JSON.stringify(error)).not.toContain('wrong-secret');
  });

  it('a bad secret is AuthApiError 401 invalid_client (Basic), with WWW-Authenticate', async () => {
    const auth = new AuthenticationClient({
      baseUrl: op.origin,
      clientId: op.clients.secretBasic.clientId,
      clientSecret: 'wrong-secret',
      tokenEndpointAuthMethod: 'client_secret_basic',
    });
    const error = await authApiError(auth.oauth.clientCredentialsGrant({ audience: API_AUDIENCE }));
    expect(error).toMatchObject({ status: 401, error: 'invalid_client', errorDescription: 'client authentication failed' });
    expect(error.headers['www-authenticate']).toMatch(/^Basic /);
  });

  it('tls_client_auth with a certificate of another subject is invalid_client', async () => {
    const { clientId } = op.clients.mtls;
    const auth = new AuthenticationClient({
      baseUrl: op.origin,
      clientId: op.clients.secretPost.clientId,
      mtls: {
        edgeHeaders: { cnameApiKey: 'k', clientCertificate: op.clients.mtls.certificatePem, clientCertificateCaVerified: 'SUCCESS' },
      },
    });
    expect(clientId).not.toBe(op.clients.secretPost.clientId);
    const error = await authApiError(auth.oauth.clientCredentialsGrant({ audience: API_AUDIENCE }));
    expect(error).toMatchObject({ status: 401, error: 'invalid_client' });
  });
});

describe('authorization code + PKCE, public client (client id only)', () => {
  it('authorize → login/consent → code → tokens → userinfo → refresh → revoke', async () => {
    const auth = new AuthenticationClient({ baseUrl: op.origin, clientId: op.clients.public.clientId });
    const { code_verifier, code_challenge } = await createPkcePair();
    const state = crypto.randomUUID();
    const nonce = crypto.randomUUID();
    const url = auth.authorizeUrl({
      redirect_uri: DEFAULT_REDIRECT_URI,
      code_challenge,
      state,
      nonce,
      scope: 'openid profile offline_access',
    });
    expect(new URL(url).origin + new URL(url).pathname).toBe(`${op.origin}/authorize`);

    const callback = await followLogin(url, DEFAULT_REDIRECT_URI);
    expect(callback.searchParams.get('error')).toBeNull();
    expect(callback.searchParams.get('state')).toBe(state);
    expect(callback.searchParams.get('iss')).toBe(op.issuer);
    const code = callback.searchParams.get('code') ?? '';
    expect(code).not.toBe('');

    const tokens = await auth.oauth.authorizationCodeGrant({ code, redirect_uri: DEFAULT_REDIRECT_URI, code_verifier, nonce });
    expect(tokens.token_type).toBe('Bearer');
    expect(tokens.refresh_token).toEqual(expect.any(String));
    // Validated (signature against the provider's /.well-known/jwks.json included) before the call resolved.
    expect(tokens.claims).toMatchObject({ sub: TEST_USER, nonce, aud: op.clients.public.clientId, iss: op.issuer });
    expect(decodeJwt(tokens.id_token ?? '')).toEqual(tokens.claims);

    const profile = await auth.userInfo.get(tokens.access_token);
    expect(profile).toMatchObject({ sub: TEST_USER, name: 'Test User' });

    // Public clients get rotating refresh tokens: always keep the newest.
    const refreshed = await auth.oauth.refreshTokenGrant({ refresh_token: tokens.refresh_token ?? '' });
    expect(refreshed.access_token).not.toBe(tokens.access_token);
    const refreshToken = refreshed.refresh_token ?? '';
    expect(refreshToken).not.toBe('');
    expect((await auth.userInfo.get(refreshed.access_token)).sub).toBe(TEST_USER);

    await expect(auth.oauth.revokeRefreshToken({ token: refreshToken })).resolves.toBeUndefined();
    const revoked = await authApiError(auth.oauth.refreshTokenGrant({ refresh_token: refreshToken }));
    expect(revoked).toMatchObject({ status: 400, error: 'invalid_grant', errorDescription: 'grant request is invalid' });
    // Revoking the refresh token revoked the grant: its access token is refused at /userinfo.
    const userinfo = await authApiError(auth.userInfo.get(refreshed.access_token));
    expect(userinfo).toMatchObject({ status: 401, error: 'invalid_token' });
  });

  it('a code is single-use: replaying it is invalid_grant and revokes the tokens it gave', async () => {
    const auth = new AuthenticationClient({ baseUrl: op.origin, clientId: op.clients.public.clientId });
    const { code_verifier, code_challenge } = await createPkcePair();
    const callback = await followLogin(auth.authorizeUrl({ redirect_uri: DEFAULT_REDIRECT_URI, code_challenge }), DEFAULT_REDIRECT_URI);
    const grant = { code: callback.searchParams.get('code') ?? '', redirect_uri: DEFAULT_REDIRECT_URI, code_verifier };
    const tokens = await auth.oauth.authorizationCodeGrant(grant);
    const replayed = await authApiError(auth.oauth.authorizationCodeGrant(grant));
    expect(replayed).toMatchObject({ status: 400, error: 'invalid_grant' });
    expect(await authApiError(auth.userInfo.get(tokens.access_token))).toMatchObject({ status: 401, error: 'invalid_token' });
  });

  it('a wrong code_verifier is invalid_grant', async () => {
    const auth = new AuthenticationClient({ baseUrl: op.origin, clientId: op.clients.public.clientId });
    const { code_challenge } = await createPkcePair();
    const other = await createPkcePair();
    const callback = await followLogin(auth.authorizeUrl({ redirect_uri: DEFAULT_REDIRECT_URI, code_challenge }), DEFAULT_REDIRECT_URI);
    const code = callback.searchParams.get('code') ?? '';
    const error = await authApiError(
      auth.oauth.authorizationCodeGrant({ code, redirect_uri: DEFAULT_REDIRECT_URI, code_verifier: other.code_verifier }),
    );
    expect(error).toMatchObject({ status: 400, error: 'invalid_grant' });
  });

  it('an audience on /authorize yields a JWT access token for that API', async () => {
    const auth = new AuthenticationClient({ baseUrl: op.origin, clientId: op.clients.public.clientId });
    const { code_verifier, code_challenge } = await createPkcePair();
    const url = auth.authorizeUrl({
      redirect_uri: DEFAULT_REDIRECT_URI,
      code_challenge,
      audience: API_AUDIENCE,
      scope: 'openid read:things',
    });
    const code = (await followLogin(url, DEFAULT_REDIRECT_URI)).searchParams.get('code') ?? '';
    const tokens = await auth.oauth.authorizationCodeGrant({ code, redirect_uri: DEFAULT_REDIRECT_URI, code_verifier });
    expect(decodeJwt(tokens.access_token)).toMatchObject({ aud: API_AUDIENCE, sub: TEST_USER, scope: 'read:things' });
  });
});

describe('confidential client (client_secret_post): code grant and revocation with id and secret', () => {
  it('revokes its refresh token', async () => {
    const auth = new AuthenticationClient({ baseUrl: op.origin, ...op.clients.secretPost });
    const { code_verifier, code_challenge } = await createPkcePair();
    const url = auth.authorizeUrl({ redirect_uri: DEFAULT_REDIRECT_URI, code_challenge, scope: 'openid' });
    const code = (await followLogin(url, DEFAULT_REDIRECT_URI)).searchParams.get('code') ?? '';
    const tokens = await auth.oauth.authorizationCodeGrant({ code, redirect_uri: DEFAULT_REDIRECT_URI, code_verifier });
    const refreshToken = tokens.refresh_token ?? '';
    expect(refreshToken).not.toBe('');
    await auth.oauth.revokeRefreshToken({ token: refreshToken });
    const error = await authApiError(auth.oauth.refreshTokenGrant({ refresh_token: refreshToken }));
    expect(error).toMatchObject({ status: 400, error: 'invalid_grant' });
  });
});

describe('ID token validation against the provider’s tokens (OIDC Core 3.1.3.7)', () => {
  const nonce = 'nonce-of-this-login';

  /** Logs TEST_USER in with `nonce` (and `max_age`, when given) and returns the code grant's parameters. */
  async function loginCode(auth: AuthenticationClient, extra: { max_age?: number } = {}) {
    const { code_verifier, code_challenge } = await createPkcePair();
    const url = auth.authorizeUrl({ redirect_uri: DEFAULT_REDIRECT_URI, code_challenge, nonce, scope: 'openid', ...extra });
    const code = (await followLogin(url, DEFAULT_REDIRECT_URI)).searchParams.get('code') ?? '';
    return { code, redirect_uri: DEFAULT_REDIRECT_URI, code_verifier };
  }

  /** Awaits `promise`, expecting it to reject with an `IdTokenValidationError`, and returns that error. */
  async function idTokenError(promise: Promise<unknown>): Promise<IdTokenValidationError> {
    const error = await promise.then(
      () => undefined,
      (reason: unknown) => reason,
    );
    expect(error).toBeInstanceOf(IdTokenValidationError);
    return error as IdTokenValidationError;
  }

  const publicClient = (options: { clock?: Clock } = {}) =>
    new AuthenticationClient({ baseUrl: op.origin, clientId: op.clients.public.clientId, ...options });

  afterEach(() => op.rewriteIdTokens(undefined));

  it('a wrong nonce', async () => {
    const auth = publicClient();
    const error = await idTokenError(auth.oauth.authorizationCodeGrant({ ...(await loginCode(auth)), nonce: 'another-nonce' }));
    expect(error).toMatchObject({ claim: 'nonce', message: "The ID token's nonce differs from the one given to the grant" });
  });

  it('a wrong audience', async () => {
    op.rewriteIdTokens({ claims: (claims) => ({ ...claims, aud: 'some-other-client' }) });
    const auth = publicClient();
    const error = await idTokenError(auth.oauth.authorizationCodeGrant({ ...(await loginCode(auth)), nonce }));
    expect(error.claim).toBe('aud');
    expect(error.message).toContain(op.clients.public.clientId);
  });

  it('expired: the client’s clock is two hours past the provider’s (ID tokens live one hour)', async () => {
    const twoHours = 2 * 3600 * 1000;
    const late: Clock = { now: () => Date.now() + twoHours, sleep: (ms) => new Promise((resolve) => setTimeout(resolve, ms)) };
    const auth = publicClient({ clock: late });
    const error = await idTokenError(auth.oauth.authorizationCodeGrant({ ...(await loginCode(auth)), nonce }));
    expect(error.claim).toBe('exp');
  });

  it('a wrong issuer', async () => {
    op.rewriteIdTokens({ claims: (claims) => ({ ...claims, iss: 'https://impostor.example.test/' }) });
    const auth = publicClient();
    const error = await idTokenError(auth.oauth.authorizationCodeGrant({ ...(await loginCode(auth)), nonce }));
    expect(error).toMatchObject({ claim: 'iss' });
    expect(error.message).toContain(op.issuer);
  });

  it('a bad signature (a key the provider’s JWKS does not hold) with verification on, the Node default', async () => {
    op.rewriteIdTokens({ signWithForeignKey: true });
    const auth = publicClient();
    const grant = { ...(await loginCode(auth)), nonce };
    const error = await idTokenError(auth.oauth.authorizationCodeGrant(grant));
    expect(error).toMatchObject({ claim: 'signature', message: 'The ID token signature is invalid' });
  });

  it('the same forged token passes with idTokenVerification: "claims" (what browsers default to)', async () => {
    op.rewriteIdTokens({ signWithForeignKey: true });
    const auth = new AuthenticationClient({ baseUrl: op.origin, clientId: op.clients.public.clientId, idTokenVerification: 'claims' });
    const tokens = await auth.oauth.authorizationCodeGrant({ ...(await loginCode(auth)), nonce });
    expect(tokens.claims).toMatchObject({ sub: TEST_USER, nonce });
  });

  it('a re-signed token with the provider’s own key and unchanged claims passes: the checks above failed for their reason only', async () => {
    op.rewriteIdTokens({});
    const auth = publicClient();
    const tokens = await auth.oauth.authorizationCodeGrant({ ...(await loginCode(auth, { max_age: 600 })), nonce, max_age: 600 });
    expect(tokens.claims).toMatchObject({ sub: TEST_USER, nonce, iss: op.issuer, aud: op.clients.public.clientId });
    expect(tokens.claims?.auth_time).toEqual(expect.any(Number));
  });
});

describe('logoutUrl', () => {
  it('is accepted by the end_session endpoint', async () => {
    const auth = new AuthenticationClient({ baseUrl: op.origin, clientId: op.clients.public.clientId });
    const url = auth.logoutUrl();
    expect(url).toBe(`${op.origin}/v2/logout?client_id=${op.clients.public.clientId}`);
    const response = await fetch(url, { redirect: 'manual', signal: AbortSignal.timeout(10_000) });
    await response.body?.cancel();
    expect([200, 302, 303]).toContain(response.status);
  });
});
