/**
 * What a hostile or careless server (or custom `fetch`) can put where the SDK reads
 * it: a credential of the request echoed into an ID token's claims, a `Content-Type`,
 * an error's members; a throwing hook; a challenge built to be slow to read.
 */
import { AuthenticationClient, IdTokenValidationError } from 'idplatform/auth';
import { IdPlatformError, ManagementClient, NetworkError } from 'idplatform/management';
import { describe, expect, it } from 'vitest';
import { leakedSecrets } from '../helpers/secret-scan.js';

const PASSWORD = 'correct-horse-battery-staple';
const REFRESH_TOKEN = 'v1.MRrt-refresh-token-value-0123456789';
const CLIENT_SECRET = 'client-secret-value-abcdef';
const OTP = '938475-one-time-code';

async function rejectionOf(promise: Promise<unknown>): Promise<unknown> {
  return promise.then(
    () => {
      throw new Error('expected a rejection');
    },
    (error: unknown) => error,
  );
}

const base64url = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');

/** An ID token (its signature not checked: `idTokenVerification: 'claims'`) with `claims` over valid ones. */
function idToken(claims: Record<string, unknown>, header: Record<string, unknown> = { alg: 'RS256' }): string {
  const now = Math.floor(Date.now() / 1000);
  const payload = { iss: 'https://acme.example.com/', sub: 'user-1', aud: 'cid', exp: now + 600, iat: now, ...claims };
  return `${base64url(header)}.${base64url(payload)}.c2ln`;
}

/** A token endpoint that answers with the ID token `make` builds from the form it received. */
function echoing(make: (form: URLSearchParams) => string) {
  return async (request: Request) =>
    Response.json({ access_token: 'at-xyz-123', token_type: 'Bearer', id_token: make(new URLSearchParams(await request.text())) });
}

const client = (options: Record<string, unknown>) =>
  new AuthenticationClient({ domain: 'acme.example.com', clientId: 'cid', idTokenVerification: 'claims', retry: false, ...options });

describe('an ID token whose claims echo the request', () => {
  it('never has its claim values quoted in IdTokenValidationError', async () => {
    const withSecret = client({ clientSecret: CLIENT_SECRET, fetch: echoing((form) => idToken({ iss: form.get('password') })) });
    const byIssuer = await rejectionOf(withSecret.oauth.passwordGrant({ username: 'ada', password: PASSWORD }));
    expect(byIssuer).toMatchObject({ name: 'IdTokenValidationError', claim: 'iss' });
    expect(leakedSecrets(byIssuer, [PASSWORD])).toEqual([]);

    const echoAzp = echoing((form) => idToken({ azp: `${form.get('refresh_token')} ${form.get('client_secret')}` }));
    const byAzp = await rejectionOf(
      client({ clientSecret: CLIENT_SECRET, fetch: echoAzp }).oauth.refreshTokenGrant({ refresh_token: REFRESH_TOKEN }),
    );
    expect(byAzp).toMatchObject({ claim: 'azp' });
    expect(leakedSecrets(byAzp, [REFRESH_TOKEN, CLIENT_SECRET])).toEqual([]);

    const byAlg = await rejectionOf(
      client({ fetch: echoing((form) => idToken({}, { alg: form.get('otp') })) }).passwordless.login({
        connection: 'email',
        email: 'ada@example.com',
        code: OTP,
      }),
    );
    expect(byAlg).toMatchObject({ claim: 'alg' });
    expect(leakedSecrets(byAlg, [OTP])).toEqual([]);
  });

  it('still names the usual mistakes: an issuer without its trailing slash, an algorithm by its name', async () => {
    const noSlash = client({ clientSecret: CLIENT_SECRET, fetch: echoing(() => idToken({ iss: 'https://acme.example.com' })) });
    const error = await rejectionOf(noSlash.oauth.passwordGrant({ username: 'ada', password: PASSWORD }));
    expect(error).toBeInstanceOf(IdTokenValidationError);
    expect((error as Error).message).toContain('the expected issuer without its trailing slash');
    const hs256 = client({ clientSecret: CLIENT_SECRET, fetch: echoing(() => idToken({}, { alg: 'HS256' })) });
    expect(((await rejectionOf(hs256.oauth.passwordGrant({ username: 'ada', password: PASSWORD }))) as Error).message).toContain(
      'signed with HS256',
    );
  });
});

describe('a 2xx text answer of the Authentication API', () => {
  it('keeps a secret echoed in its Content-Type out of ResponseValidationError', async () => {
    const auth = client({
      clientSecret: CLIENT_SECRET,
      fetch: async (request: Request) => {
        const form = new URLSearchParams(await request.text());
        return new Response('not json', { headers: { 'content-type': `text/${form.get('password')}-${form.get('client_secret')}` } });
      },
    });
    const error = await rejectionOf(auth.oauth.passwordGrant({ username: 'ada', password: PASSWORD }));
    expect(error).toMatchObject({ name: 'ResponseValidationError' });
    expect(leakedSecrets(error, [PASSWORD, CLIENT_SECRET])).toEqual([]);
  });
});

describe('mTLS edge headers', () => {
  it('keep sending, and keeping out of errors, the key that was checked, whatever the options object holds later', async () => {
    const sent: string[] = [];
    const edgeHeaders = {
      cnameApiKey: 'edge-api-key-ORIGINAL-0123456789',
      clientCertificate: '-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----',
      clientCertificateCaVerified: 'SUCCESS',
    };
    const auth = new AuthenticationClient({
      domain: 'login.acme.example.com',
      clientId: 'cid',
      mtls: { edgeHeaders },
      retry: false,
      fetch: async (request) => {
        sent.push(request.headers.get('cname-api-key') ?? '');
        return Response.json(
          { error: 'invalid_client', error_description: `bad key ${request.headers.get('cname-api-key')}` },
          { status: 401 },
        );
      },
    });
    edgeHeaders.cnameApiKey = 'edge-api-key-ROTATED-9876543210'; // changed after the client checked it
    const error = await rejectionOf(auth.oauth.clientCredentialsGrant({ audience: 'https://api.example.com/' }));
    expect(sent).toEqual(['edge-api-key-ORIGINAL-0123456789']);
    expect(error).toMatchObject({ name: 'AuthApiError' });
    expect(leakedSecrets(error, ['edge-api-key-ORIGINAL-0123456789', 'edge-api-key-ROTATED-9876543210'])).toEqual([]);
  });
});

describe("AuthenticationClient's onResponse hook", () => {
  it('that throws fails the call with an IdPlatformError whose cause is its error, as on the Management client', async () => {
    const hookError = new RangeError('hook failed');
    const auth = client({
      clientSecret: CLIENT_SECRET,
      onResponse: () => {
        throw hookError;
      },
      fetch: async () => Response.json({ access_token: 'at-xyz-123456', token_type: 'Bearer', expires_in: 60 }),
    });
    const error = await rejectionOf(auth.oauth.clientCredentialsGrant({ audience: 'https://api.example.com/' }));
    expect(IdPlatformError.is(error)).toBe(true);
    expect((error as Error).cause).toBe(hookError);
  });
});

describe('a custom fetch whose failure carries the request', () => {
  const TOKEN = 'opaque-management-token-0123456789';
  const management = (fetch: (request: Request) => Promise<Response>) =>
    new ManagementClient({ baseUrl: 'https://acme.example.com/api/v2', token: TOKEN, retry: false, fetch });

  it('keeps none of it when a plain error quotes the Authorization header in its code or syscall', async () => {
    const error = await rejectionOf(
      management(async (request) => {
        const authorization = request.headers.get('authorization') ?? '';
        const failure = new TypeError('fetch failed', { cause: Object.assign(new Error('socket hang up'), { code: 'ECONNRESET' }) });
        throw Object.assign(failure, { code: `E_REQUEST ${authorization}`, syscall: authorization });
      }).guardian.phone.getMessageTypes(),
    );
    expect(NetworkError.is(error)).toBe(true);
    expect(leakedSecrets(error, [TOKEN])).toEqual([]);
  });

  it('turns an SDK error it throws into a NetworkError without the token (it is no answer of the server)', async () => {
    const error = await rejectionOf(
      management(async (request) => {
        throw new IdPlatformError(`proxy refused ${request.method} ${request.url} (${request.headers.get('authorization')})`);
      }).guardian.phone.getMessageTypes(),
    );
    expect(NetworkError.is(error)).toBe(true);
    expect(leakedSecrets(error, [TOKEN])).toEqual([]);
  });
});
