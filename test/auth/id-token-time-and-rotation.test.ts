/**
 * ID token checks: `nbf`, one key-set refetch for the concurrent logins that meet a rotated key, and a key-set
 * fetch that goes on for the next login once every caller stopped waiting for it.
 */

import { exportJWK, generateKeyPair, type JWTPayload, SignJWT } from 'jose';
import { HttpResponse, http } from 'msw';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { AuthenticationClient, type AuthenticationClientOptions, IdTokenValidationError } from '../../src/auth/index.js';
import { createFakeClock } from '../helpers/clock.js';
import { deferred } from '../helpers/deferred.js';
import { DOMAIN, ORIGIN, useMswServer } from '../helpers/server.js';

const server = useMswServer();
afterEach(() => {
  vi.useRealTimers();
});
const NOW_SEC = Date.UTC(2026, 0, 1) / 1000;
const CLIENT_ID = 'app';
const ISSUER = `${ORIGIN}/`;

type KeyPair = Awaited<ReturnType<typeof generateKeyPair>>;
let k1: KeyPair;
let k2: KeyPair;
let jwk1: object;
let jwk2: object;

beforeAll(async () => {
  k1 = await generateKeyPair('RS256', { extractable: true });
  k2 = await generateKeyPair('RS256', { extractable: true });
  jwk1 = { ...(await exportJWK(k1.publicKey)), kid: 'k1', alg: 'RS256', use: 'sig' };
  jwk2 = { ...(await exportJWK(k2.publicKey)), kid: 'k2', alg: 'RS256', use: 'sig' };
});

function claims(overrides: Record<string, unknown> = {}): JWTPayload {
  return { iss: ISSUER, sub: 'user-1', aud: CLIENT_ID, exp: NOW_SEC + 3600, iat: NOW_SEC - 10, ...overrides } as JWTPayload;
}
function sign(payload: JWTPayload, key: KeyPair, kid: string): Promise<string> {
  return new SignJWT(payload).setProtectedHeader({ alg: 'RS256', kid, typ: 'JWT' }).sign(key.privateKey);
}

describe('ID token time claims', () => {
  it('rejects an ID token whose nbf is in the future beyond clockToleranceSec (RFC 7519 4.1.5)', async () => {
    const token = await sign(claims({ nbf: NOW_SEC + 3600 }), k1, 'k1');
    server.use(
      http.post(`${ORIGIN}/oauth/token`, () => HttpResponse.json({ access_token: 'at', token_type: 'Bearer', id_token: token })),
      http.get(`${ORIGIN}/.well-known/jwks.json`, () => HttpResponse.json({ keys: [jwk1] })),
    );
    const auth = new AuthenticationClient({
      domain: DOMAIN,
      clientId: CLIENT_ID,
      clientSecret: 's',
      clock: createFakeClock(NOW_SEC * 1000),
    } as AuthenticationClientOptions);
    const error = await auth.oauth.authorizationCodeGrant({ code: 'c', redirect_uri: 'https://app.example/cb' }).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(IdTokenValidationError);
    expect((error as IdTokenValidationError).claim).toBe('nbf');
  });

  it('accepts an nbf within clockToleranceSec, and refuses one that is not a number', async () => {
    let token = await sign(claims({ nbf: NOW_SEC + 30 }), k1, 'k1');
    server.use(
      http.post(`${ORIGIN}/oauth/token`, () => HttpResponse.json({ access_token: 'at', token_type: 'Bearer', id_token: token })),
      http.get(`${ORIGIN}/.well-known/jwks.json`, () => HttpResponse.json({ keys: [jwk1] })),
    );
    const options = { domain: DOMAIN, clientId: CLIENT_ID, clientSecret: 's', clock: createFakeClock(NOW_SEC * 1000) };
    const auth = new AuthenticationClient(options as AuthenticationClientOptions);
    const grant = { code: 'c', redirect_uri: 'https://app.example/cb' };
    await expect(auth.oauth.authorizationCodeGrant(grant)).resolves.toMatchObject({ claims: { nbf: NOW_SEC + 30 } });
    token = await sign(claims({ nbf: 'soon' }), k1, 'k1');
    await expect(auth.oauth.authorizationCodeGrant(grant)).rejects.toMatchObject({ claim: 'nbf' });
  });
});

describe('JWKS refetch on an unknown kid', () => {
  it('is made at most once per 30 s, also when several grants meet the new kid at the same time', async () => {
    vi.useFakeTimers({ toFake: ['Date'], now: NOW_SEC * 1000 }); // jose dates its cache with Date.now()
    const clock = createFakeClock(NOW_SEC * 1000);
    let served: object = { keys: [jwk1] };
    let fetches = 0;
    let idToken = await sign(claims(), k1, 'k1');
    server.use(
      http.post(`${ORIGIN}/oauth/token`, () => HttpResponse.json({ access_token: 'at', token_type: 'Bearer', id_token: idToken })),
      http.get(`${ORIGIN}/.well-known/jwks.json`, () => {
        fetches += 1;
        return HttpResponse.json(served);
      }),
    );
    const auth = new AuthenticationClient({ domain: DOMAIN, clientId: CLIENT_ID, clientSecret: 's', clock } as AuthenticationClientOptions);
    const grant = { code: 'c', redirect_uri: 'https://app.example/cb' };
    await auth.oauth.authorizationCodeGrant(grant); // caches the set {k1}
    expect(fetches).toBe(1);
    clock.advance(60_000); // past the 30 s cooldown, within the 10-minute max age
    vi.setSystemTime(Date.now() + 60_000);
    served = { keys: [jwk1, jwk2] }; // the tenant rotated to k2
    idToken = await sign(claims(), k2, 'k2');
    const results = await Promise.allSettled(Array.from({ length: 5 }, () => auth.oauth.authorizationCodeGrant(grant)));
    expect(results.every((result) => result.status === 'fulfilled')).toBe(true);
    expect(fetches).toBe(2); // one refetch serves all five
  });
});

describe('a key-set fetch that every login waiting for it stopped waiting for', () => {
  /** A client whose first key-set fetch answers (with `firstAnswer`) only when the test says so; later ones at once. */
  async function clientWithHeldKeyFetch(firstAnswer: () => Response) {
    const idToken = await sign(claims(), k1, 'k1');
    const fetches = { count: 0 };
    const release = deferred<void>();
    const fetch = async (request: Request): Promise<Response> => {
      if (new URL(request.url).pathname === '/oauth/token')
        return Response.json({ access_token: 'at', token_type: 'Bearer', id_token: idToken });
      fetches.count += 1;
      if (fetches.count > 1) return Response.json({ keys: [jwk1] });
      await release.promise;
      return firstAnswer();
    };
    const clock = createFakeClock(NOW_SEC * 1000);
    const auth = new AuthenticationClient({ domain: DOMAIN, clientId: CLIENT_ID, clientSecret: 's', clock, fetch });
    const grant = { code: 'c', redirect_uri: 'https://app.example/cb' };
    const controller = new AbortController();
    const given = auth.oauth.authorizationCodeGrant(grant, { signal: controller.signal });
    await vi.waitFor(() => expect(fetches.count).toBe(1));
    controller.abort(new Error('the user closed the page'));
    await expect(given).rejects.toThrow('the user closed the page');
    return { login: () => auth.oauth.authorizationCodeGrant(grant), release: release.resolve, fetches };
  }

  it('goes on: the next login gets the set it brings, with no second fetch', async () => {
    const { login, release, fetches } = await clientWithHeldKeyFetch(() => Response.json({ keys: [jwk1] }));
    const next = login();
    release();
    await expect(next).resolves.toMatchObject({ claims: { sub: 'user-1' } });
    expect(fetches.count).toBe(1);
  });

  it('that fails is not kept: the next login fetches again', async () => {
    const { login, release, fetches } = await clientWithHeldKeyFetch(() => new Response('down', { status: 503 }));
    release();
    await new Promise((resolve) => setTimeout(resolve, 0)); // the held fetch has failed by then
    await expect(login()).resolves.toMatchObject({ claims: { sub: 'user-1' } });
    expect(fetches.count).toBe(2);
  });
});
