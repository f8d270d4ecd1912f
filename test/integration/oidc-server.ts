/**
 * A real OpenID Connect server (`oidc-provider`, certified) on 127.0.0.1, configured
 * with the platform's paths and one client per client-authentication method of spec 5.2.
 * Used by the integration tests; nothing here is mocked.
 *
 * ```ts
 * const op = await startOidcProvider();
 * const auth = new AuthenticationClient({ baseUrl: op.origin, ...op.clients.secretPost });
 * await op.close();
 * ```
 */
import { X509Certificate } from 'node:crypto';
import { readFileSync } from 'node:fs';
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import { decodeJwt, exportJWK, exportPKCS8, generateKeyPair, type JWTPayload, SignJWT } from 'jose';
import type { Adapter, AdapterPayload, Configuration, KoaContextWithOIDC, default as Provider } from 'oidc-provider';

/** The user the scripted login signs in, whatever the request. */
export const TEST_USER = 'user-123';
/** The one API (resource server) the provider knows; `audience` must be this. */
export const API_AUDIENCE = 'https://api.example.test/';
/** Redirect URI registered for the confidential and the public client (never dereferenced by the Node tests). */
export const DEFAULT_REDIRECT_URI = 'http://127.0.0.1:3000/callback';

/**
 * A self-signed, test-only client certificate (`O=Test, CN=mtls-client`) for
 * `tls_client_auth`. Only the certificate is committed: the edge headers carry the
 * certificate, never its key, and the server trusts it without a handshake.
 */
export const MTLS_CLIENT_CERT_PEM = readFileSync(new URL('./fixtures/mtls-client.crt', import.meta.url), 'utf8');
const MTLS_CLIENT_SUBJECT_DN = 'CN=mtls-client,O=Test';

/** The registered clients and their credentials. */
export interface TestClients {
  readonly secretPost: { readonly clientId: string; readonly clientSecret: string };
  /** Its id holds `:`, space, `/`, `+` and `%`: only RFC 6749 §2.3.1 encoding gets it through Basic. */
  readonly secretBasic: { readonly clientId: string; readonly clientSecret: string };
  /** `clientAssertionSigningKey` is a PKCS#8 PEM generated at start-up; the server knows the public JWK only. */
  readonly privateKeyJwt: { readonly clientId: string; readonly clientAssertionSigningKey: string };
  /** Client id only, PKCE required. */
  readonly public: { readonly clientId: string };
  readonly mtls: { readonly clientId: string; readonly certificatePem: string };
}

/** A running provider. */
export interface OidcProviderServer {
  /** `http://127.0.0.1:PORT/` (with the trailing slash, as the platform's issuers have). */
  readonly issuer: string;
  /** `http://127.0.0.1:PORT`: the SDK's `baseUrl`. */
  readonly origin: string;
  readonly clients: TestClients;
  readonly provider: Provider;
  /**
   * Makes the token endpoint answer ID tokens as a misconfigured or hostile server
   * would: each issued `id_token` is re-signed, with the provider's own key (kid
   * `op-rs256`) unless `signWithForeignKey`, after `rewrite` changed its claims.
   * `undefined` restores the provider's own tokens.
   */
  rewriteIdTokens(rewrite: IdTokenRewrite | undefined): void;
  /** Stops the server, dropping keep-alive connections. */
  close(): Promise<void>;
}

/** How {@link OidcProviderServer.rewriteIdTokens} changes the ID tokens the provider issues. */
export interface IdTokenRewrite {
  /** The claims to put in instead (return a changed copy). */
  readonly claims?: (claims: JWTPayload) => JWTPayload;
  /** Sign with a key the provider's JWKS does not hold (same kid): a forged token. */
  readonly signWithForeignKey?: boolean;
}

export interface StartOidcProviderOptions {
  /** Extra redirect URIs of the public client (e.g. the SPA page served by the browser test). */
  readonly publicRedirectUris?: readonly string[];
}

type ProviderModule = typeof import('oidc-provider');

/**
 * oidc-provider v9 prints "Unsupported runtime. Use Node.js v22.x LTS" with console.warn
 * when imported on Node 20; it works on Node >= 20.18. Filter that one line during the import.
 */
async function importProviderQuietly(): Promise<ProviderModule> {
  const warn = console.warn;
  console.warn = (...args: unknown[]) => {
    if (typeof args[0] === 'string' && args[0].includes('Unsupported runtime')) return;
    warn(...args);
  };
  try {
    return await import('oidc-provider');
  } finally {
    console.warn = warn;
  }
}

/** A Map-backed adapter (passing one silences the built-in MemoryAdapter's development warning). */
function createAdapterFactory(): (model: string) => Adapter {
  const store = new Map<string, { payload: AdapterPayload; expiresAt: number | undefined }>();
  const keysOfGrant = new Map<string, Set<string>>();
  const sessionIdOfUid = new Map<string, string>();
  const read = (key: string): AdapterPayload | undefined => {
    const entry = store.get(key);
    if (entry?.expiresAt !== undefined && entry.expiresAt <= Date.now()) {
      store.delete(key);
      return undefined;
    }
    return entry?.payload;
  };
  return (model) => {
    const keyOf = (id: string) => `${model}:${id}`;
    return {
      async upsert(id, payload, expiresIn) {
        const key = keyOf(id);
        if (model === 'Session' && payload.uid) sessionIdOfUid.set(payload.uid, id);
        if (payload.grantId) {
          const keys = keysOfGrant.get(payload.grantId) ?? new Set<string>();
          keys.add(key);
          keysOfGrant.set(payload.grantId, keys);
        }
        store.set(key, { payload, expiresAt: expiresIn ? Date.now() + expiresIn * 1000 : undefined });
      },
      async find(id) {
        return read(keyOf(id));
      },
      async findByUid(uid) {
        const id = sessionIdOfUid.get(uid);
        return id === undefined ? undefined : read(keyOf(id));
      },
      async findByUserCode() {
        return undefined;
      },
      async consume(id) {
        const payload = read(keyOf(id));
        if (payload) payload.consumed = Math.floor(Date.now() / 1000);
      },
      async destroy(id) {
        store.delete(keyOf(id));
      },
      async revokeByGrantId(grantId) {
        for (const key of keysOfGrant.get(grantId) ?? []) store.delete(key);
        keysOfGrant.delete(grantId);
      },
    };
  };
}

/** `O=Test\nCN=mtls-client` and `CN=mtls-client,O=Test` compare equal. */
function normalizeDn(dn: string): string {
  return dn
    .split(/[\n,]/)
    .map((rdn) => rdn.trim())
    .filter(Boolean)
    .sort()
    .join(',');
}

/** The certificate our edge forwards, URL-encoded, in `client-certificate`. */
function forwardedCertificate(ctx: KoaContextWithOIDC): X509Certificate | undefined {
  const header = ctx.get('client-certificate');
  return header ? new X509Certificate(decodeURIComponent(header)) : undefined;
}

function text(value: unknown): string | undefined {
  return typeof value === 'string' && value !== '' ? value : undefined;
}

/** Starts the provider on 127.0.0.1 and a random port. */
export async function startOidcProvider(options: StartOidcProviderOptions = {}): Promise<OidcProviderServer> {
  const { default: Provider, errors } = await importProviderQuietly();

  // The port must be in the issuer before the Provider exists: listen first, attach the handler after.
  let handler: http.RequestListener = (_req, res) => {
    res.statusCode = 503;
    res.end();
  };
  const server = http.createServer((req, res) => handler(req, res));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const origin = `http://127.0.0.1:${port}`;
  const issuer = `${origin}/`;

  const providerKey = await generateKeyPair('RS256', { extractable: true });
  const providerJwk = { ...(await exportJWK(providerKey.privateKey)), kid: 'op-rs256', alg: 'RS256', use: 'sig' };
  const clientKey = await generateKeyPair('RS256', { extractable: true });
  const clientPublicJwk = { ...(await exportJWK(clientKey.publicKey)), kid: 'client-key-1', alg: 'RS256', use: 'sig' };

  const clients: TestClients = {
    secretPost: { clientId: 'post-client', clientSecret: `post-secret-${crypto.randomUUID()}` },
    secretBasic: { clientId: 'basic:client id/+%', clientSecret: `basic:secret+/%-${crypto.randomUUID()}` },
    privateKeyJwt: { clientId: 'pkj-client', clientAssertionSigningKey: await exportPKCS8(clientKey.privateKey) },
    public: { clientId: 'public-spa' },
    mtls: { clientId: 'mtls-client', certificatePem: MTLS_CLIENT_CERT_PEM },
  };
  const clientCredentials = ['client_credentials'];
  const codeGrants = ['authorization_code', 'refresh_token'];
  const machineOnly = { grant_types: clientCredentials, redirect_uris: [], response_types: [] };

  const configuration: Configuration = {
    // Our own adapter, keys and cookie keys: no development-only warnings.
    adapter: createAdapterFactory(),
    jwks: { keys: [providerJwk] },
    cookies: { keys: ['test-cookie-key-1'] },
    routes: {
      authorization: '/authorize',
      token: '/oauth/token',
      userinfo: '/userinfo',
      revocation: '/oauth/revoke',
      end_session: '/v2/logout',
      jwks: '/.well-known/jwks.json',
    },
    clientAuthMethods: ['client_secret_basic', 'client_secret_post', 'private_key_jwt', 'none', 'tls_client_auth'],
    clients: [
      {
        client_id: clients.secretPost.clientId,
        client_secret: clients.secretPost.clientSecret,
        token_endpoint_auth_method: 'client_secret_post',
        grant_types: [...codeGrants, ...clientCredentials],
        redirect_uris: [DEFAULT_REDIRECT_URI],
        response_types: ['code'],
      },
      {
        client_id: clients.secretBasic.clientId,
        client_secret: clients.secretBasic.clientSecret,
        token_endpoint_auth_method: 'client_secret_basic',
        ...machineOnly,
      },
      {
        client_id: clients.privateKeyJwt.clientId,
        token_endpoint_auth_method: 'private_key_jwt',
        token_endpoint_auth_signing_alg: 'RS256',
        jwks: { keys: [clientPublicJwk] },
        ...machineOnly,
      },
      {
        client_id: clients.public.clientId,
        token_endpoint_auth_method: 'none',
        application_type: 'web',
        grant_types: codeGrants,
        redirect_uris: [DEFAULT_REDIRECT_URI, ...(options.publicRedirectUris ?? [])],
        response_types: ['code'],
      },
      {
        client_id: clients.mtls.clientId,
        token_endpoint_auth_method: 'tls_client_auth',
        tls_client_auth_subject_dn: MTLS_CLIENT_SUBJECT_DN,
        ...machineOnly,
      },
    ],

    async findAccount(_ctx, sub) {
      return {
        accountId: sub,
        async claims() {
          return { sub, email: `${sub}@example.test`, email_verified: true, name: 'Test User' };
        },
      };
    },
    claims: { openid: ['sub'], email: ['email', 'email_verified'], profile: ['name'] },
    scopes: ['openid', 'offline_access', 'email', 'profile'],

    // Login and consent are scripted by the middleware below.
    interactions: { url: (_ctx, interaction) => `/interaction/${interaction.uid}` },
    // A refresh token for every client allowed the grant (the default also needs offline_access + prompt=consent).
    issueRefreshToken: async (_ctx, client) => client.grantTypeAllowed('refresh_token'),
    expiresWithSession: async () => false,
    // CORS on token, userinfo and revocation for any origin (the SPA is on another 127.0.0.1 port).
    clientBasedCORS: () => true,
    pkce: { required: (_ctx, client) => client.clientAuthMethod === 'none' },
    ttl: {
      // Functions, so that the resource server's accessTokenTTL still wins.
      AccessToken: (_ctx, token) => token.resourceServer?.accessTokenTTL ?? 3600,
      AuthorizationCode: 60,
      ClientCredentials: (_ctx, token) => token.resourceServer?.accessTokenTTL ?? 600,
      IdToken: 3600,
      RefreshToken: 14 * 24 * 3600,
      Interaction: 600,
      Session: 3600,
      Grant: 3600,
    },
    renderError(ctx, out) {
      ctx.type = 'json';
      ctx.body = out;
    },
    // The platform's `audience` (Auth0 style) maps to the RFC 8707 resource.
    extraParams: ['audience'],
    features: {
      devInteractions: { enabled: false },
      clientCredentials: { enabled: true },
      userinfo: { enabled: true },
      revocation: {
        enabled: true,
        allowedPolicy: async (_ctx, client, token) => token.clientId === client.clientId,
      },
      rpInitiatedLogout: {
        enabled: true,
        logoutSource: async (ctx, form) => {
          ctx.body = `<!DOCTYPE html><body>${form}<script>document.forms[0].submit()</script></body>`;
        },
        postLogoutSuccessSource: async (ctx) => {
          ctx.body = 'logged out';
        },
      },
      resourceIndicators: {
        enabled: true,
        // `audience` is in ctx.oidc.params at /authorize (extraParams) and only in the raw body at /oauth/token.
        defaultResource: async (ctx, _client, oneOf) =>
          oneOf ?? text(ctx.oidc.params?.audience) ?? text(ctx.oidc.body?.audience) ?? undefined,
        useGrantedResource: async () => true,
        getResourceServerInfo: async (_ctx, resourceIndicator) => {
          if (resourceIndicator !== API_AUDIENCE) throw new errors.InvalidTarget(`unknown audience ${resourceIndicator}`);
          return {
            scope: 'read:things write:things',
            audience: resourceIndicator,
            accessTokenTTL: 600,
            accessTokenFormat: 'jwt',
            jwt: { sign: { alg: 'RS256' } },
          };
        },
      },
      mTLS: {
        enabled: true,
        tlsClientAuth: true,
        certificateBoundAccessTokens: false,
        getCertificate: (ctx) => forwardedCertificate(ctx),
        certificateAuthorized: () => true,
        certificateSubjectMatches: (ctx, property, expected) => {
          const certificate = forwardedCertificate(ctx);
          return (
            property === 'tls_client_auth_subject_dn' &&
            certificate !== undefined &&
            normalizeDn(certificate.subject) === normalizeDn(expected)
          );
        },
      },
    },
  };

  const provider = new Provider(issuer, configuration);

  // Re-signs issued ID tokens when a test asks for a misbehaving server (see rewriteIdTokens).
  let idTokenRewrite: IdTokenRewrite | undefined;
  const foreignKey = await generateKeyPair('RS256');
  provider.use(async (ctx, next) => {
    await next();
    const body = ctx.body as { id_token?: unknown } | undefined;
    if (!idTokenRewrite || ctx.path !== '/oauth/token' || typeof body?.id_token !== 'string') return;
    const claims = (idTokenRewrite.claims ?? ((original) => original))(decodeJwt(body.id_token));
    const key = idTokenRewrite.signWithForeignKey ? foreignKey.privateKey : providerKey.privateKey;
    body.id_token = await new SignJWT(claims).setProtectedHeader({ alg: 'RS256', kid: providerJwk.kid, typ: 'JWT' }).sign(key);
  });

  // Scripted interaction: log in TEST_USER, then grant whatever was asked.
  provider.use(async (ctx, next) => {
    if (ctx.method !== 'GET' || !/^\/interaction\/[^/]+$/.test(ctx.path)) return next();
    const details = await provider.interactionDetails(ctx.req, ctx.res);
    const { prompt, params, session } = details;
    let result: Parameters<Provider['interactionResult']>[2];
    if (prompt.name === 'login') {
      result = { login: { accountId: TEST_USER } };
    } else if (prompt.name === 'consent') {
      const grant =
        (details.grantId ? await provider.Grant.find(details.grantId) : undefined) ??
        new provider.Grant({ accountId: session?.accountId, clientId: text(params.client_id) });
      const missing = prompt.details as {
        missingOIDCScope?: string[];
        missingOIDCClaims?: string[];
        missingResourceScopes?: Record<string, string[]>;
      };
      if (missing.missingOIDCScope) grant.addOIDCScope(missing.missingOIDCScope.join(' '));
      if (missing.missingOIDCClaims) grant.addOIDCClaims(missing.missingOIDCClaims);
      for (const [indicator, scopes] of Object.entries(missing.missingResourceScopes ?? {})) {
        grant.addResourceScope(indicator, scopes.join(' '));
      }
      result = { consent: { grantId: await grant.save() } };
    } else {
      result = { error: 'access_denied', error_description: `unsupported prompt ${prompt.name}` };
    }
    ctx.status = 303;
    ctx.set('location', await provider.interactionResult(ctx.req, ctx.res, result, { mergeWithLastSubmission: true }));
  });

  // The real reason of an error is only in err.error_detail: OIDC_DEBUG=1 prints it.
  if (process.env.OIDC_DEBUG) {
    const log = (event: string) => (_ctx: KoaContextWithOIDC, error: Error & { error_detail?: string | undefined }) =>
      console.error(`[oidc-provider ${event}] ${error.message} ${error.error_detail ?? ''}`);
    provider.on('grant.error', log('grant.error'));
    provider.on('revocation.error', log('revocation.error'));
    provider.on('userinfo.error', log('userinfo.error'));
    provider.on('authorization.error', log('authorization.error'));
    provider.on('server_error', log('server_error'));
  }

  handler = provider.callback();

  return {
    issuer,
    origin,
    clients,
    provider,
    rewriteIdTokens: (rewrite) => {
      idTokenRewrite = rewrite;
    },
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.closeAllConnections();
        server.close((error) => (error ? reject(error) : resolve()));
      }),
  };
}
