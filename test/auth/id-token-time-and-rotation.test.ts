/** ID token checks: `nbf` (RFC 7519 4.1.5), and one key-set refetch for the concurrent logins that meet a rotated key. */

import { exportJWK, generateKeyPair, type JWTPayload, SignJWT } from 'jose';
import { HttpResponse, http } from 'msw';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { AuthenticationClient, type AuthenticationClientOptions, IdTokenValidationError } from '../../src/auth/index.js';
import { createFakeClock } from '../helpers/clock.js';
import { deferred } from '../helpers/deferred.js';
import { DOMAIN, ORIGIN, useMswServer } from '../helpers/server.js';

const server = useMswServer();
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
    served = { keys: [jwk1, jwk2] }; // the tenant rotated to k2
    idToken = await sign(claims(), k2, 'k2');
    const results = await Promise.allSettled(Array.from({ length: 5 }, () => auth.oauth.authorizationCodeGrant(grant)));
    expect(results.every((result) => result.status === 'fulfilled')).toBe(true);
    expect(fetches).toBe(2); // one refetch serves all five
  });
});

describe('a key-set fetch that every call waiting for it gave up', () => {
  it('sends no retry; the next call fetches the set afresh, after what is left of the wait the server demanded', async () => {
    const clock = createFakeClock(NOW_SEC * 1000, { holdSleeps: true }); // a retry's wait lasts until it is aborted
    let fetches = 0;
    const idToken = await sign(claims(), k1, 'k1');
    server.use(
      http.post(`${ORIGIN}/oauth/token`, () => HttpResponse.json({ access_token: 'at', token_type: 'Bearer', id_token: idToken })),
      http.get(`${ORIGIN}/.well-known/jwks.json`, () => {
        fetches += 1;
        if (fetches === 1) return HttpResponse.json({ error: 'too_many_requests' }, { status: 429, headers: { 'retry-after': '5' } });
        return HttpResponse.json({ keys: [jwk1] });
      }),
    );
    const auth = new AuthenticationClient({ domain: DOMAIN, clientId: CLIENT_ID, clientSecret: 's', clock } as AuthenticationClientOptions);
    const grant = { code: 'c', redirect_uri: 'https://app.example/cb' };
    const controller = new AbortController();
    const first = auth.oauth.authorizationCodeGrant(grant, { signal: controller.signal });
    first.catch(() => {});
    expect(await clock.nextSleep()).toBe(5_000); // the key-set fetch waits to retry its 429
    controller.abort(new Error('the user closed the page'));
    await expect(first).rejects.toThrow('the user closed the page');

    // A login 1 s later waits out the 4 s left of what the 429 demanded, then fetches.
    clock.advance(1_000);
    const early = new AbortController();
    const second = auth.oauth.authorizationCodeGrant(grant, { signal: early.signal });
    second.catch(() => {});
    expect(await clock.nextSleep()).toBe(4_000);
    expect(fetches).toBe(1);
    early.abort(new Error('closed too'));
    await expect(second).rejects.toThrow('closed too');

    // One after the demanded time fetches at once, and gets the set.
    clock.advance(5_000);
    await expect(auth.oauth.authorizationCodeGrant(grant)).resolves.toMatchObject({ claims: { sub: 'user-1' } });
    expect(fetches).toBe(2);
    expect(clock.sleeps).toEqual([5_000, 4_000]); // the given-up fetches slept no more, nor retried
  });
});

describe('a key-set fetch that every call gave up, taken over by the next login', () => {
  afterEach(() => {
    vi.unstubAllGlobals();
  });

  it("gets that fetch's set when it answers within the client timeoutMs of the give-up: one fetch", async () => {
    const clock = createFakeClock(NOW_SEC * 1000);
    const idToken = await sign(claims(), k1, 'k1');
    let keySetFetches = 0;
    const firstAnswer = deferred<void>();
    const fetch = async (request: Request): Promise<Response> => {
      if (new URL(request.url).pathname === '/oauth/token')
        return Response.json({ access_token: 'at', token_type: 'Bearer', id_token: idToken });
      keySetFetches += 1;
      if (keySetFetches === 1) await firstAnswer.promise;
      return Response.json({ keys: [jwk1] });
    };
    const auth = new AuthenticationClient({ domain: DOMAIN, clientId: CLIENT_ID, clientSecret: 's', clock, fetch, timeoutMs: 10_000 });
    const grant = { code: 'c', redirect_uri: 'https://app.example/cb' };
    const controller = new AbortController();
    const first = auth.oauth.authorizationCodeGrant(grant, { signal: controller.signal });
    first.catch(() => {});
    await vi.waitFor(() => expect(keySetFetches).toBe(1));
    controller.abort(new Error('the user closed the page'));
    await expect(first).rejects.toThrow('the user closed the page');

    const second = auth.oauth.authorizationCodeGrant(grant);
    // A take-over that did not wait would have fetched by the time a later timer fires.
    await new Promise((resolve) => setTimeout(resolve, 5));
    expect(keySetFetches).toBe(1);
    clock.advance(1_000);
    firstAnswer.resolve();
    await expect(second).resolves.toMatchObject({ claims: { sub: 'user-1' } });
    expect(keySetFetches).toBe(1);
  });

  it('is fetched afresh by a later login once the client timeoutMs has passed since it was given up, when it never settles (workerd)', async () => {
    const clock = createFakeClock(NOW_SEC * 1000);
    const idToken = await sign(claims(), k1, 'k1');
    let keySetFetches = 0;
    // workerd drops the I/O of a request that has ended: the first key-set fetch never answers, whatever its signal says.
    const fetch = async (request: Request): Promise<Response> => {
      if (new URL(request.url).pathname === '/oauth/token')
        return Response.json({ access_token: 'at', token_type: 'Bearer', id_token: idToken });
      keySetFetches += 1;
      return keySetFetches === 1 ? new Promise<Response>(() => {}) : Response.json({ keys: [jwk1] });
    };
    const auth = new AuthenticationClient({ domain: DOMAIN, clientId: CLIENT_ID, clientSecret: 's', clock, fetch, timeoutMs: 10_000 });
    const grant = { code: 'c', redirect_uri: 'https://app.example/cb' };

    // The first login's timers are dropped with its request too: ky's timeout never fires.
    vi.stubGlobal('setTimeout', () => 0);
    const controller = new AbortController();
    const first = auth.oauth.authorizationCodeGrant(grant, { signal: controller.signal });
    first.catch(() => {});
    await vi.waitFor(() => expect(keySetFetches).toBe(1));
    controller.abort(new Error('the request ended'));
    await expect(first).rejects.toThrow('the request ended');
    vi.unstubAllGlobals();

    clock.advance(10_000);
    await expect(auth.oauth.authorizationCodeGrant(grant)).resolves.toMatchObject({ claims: { sub: 'user-1' } });
    expect(keySetFetches).toBe(2);
  });
});
