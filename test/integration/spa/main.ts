/**
 * A tiny single-page app that logs in with `idplatform/auth` as a public client
 * (client id only, PKCE): without `?code` it starts the login, with it it exchanges
 * the code (checking the ID token's nonce) and shows the user's `sub` from /userinfo
 * in `<output id="sub">`.
 * Bundled by esbuild in browser-spa.test.ts, which defines the two constants below.
 * It imports the `idplatform/auth` entry from source, as bench/spa-flow.ts does.
 */
import { AuthenticationClient, createPkcePair } from '../../../src/auth/index.js';

declare const IDP_BASE_URL: string;
declare const IDP_CLIENT_ID: string;

const STORAGE_KEY = 'idplatform-spa-login';

const show = (id: 'status' | 'sub' | 'error', text: string) => {
  const element = document.getElementById(id);
  if (element) element.textContent = text;
};

async function main(): Promise<void> {
  const auth = new AuthenticationClient({ baseUrl: IDP_BASE_URL, clientId: IDP_CLIENT_ID });
  const redirectUri = `${location.origin}${location.pathname}`;
  const query = new URLSearchParams(location.search);
  const code = query.get('code');

  if (code === null) {
    if (query.has('error')) throw new Error(`${query.get('error')}: ${query.get('error_description') ?? ''}`);
    const { code_verifier, code_challenge } = await createPkcePair();
    const state = crypto.randomUUID();
    const nonce = crypto.randomUUID();
    sessionStorage.setItem(STORAGE_KEY, JSON.stringify({ code_verifier, state, nonce }));
    show('status', 'redirecting to login');
    location.assign(auth.authorizeUrl({ redirect_uri: redirectUri, code_challenge, state, nonce, scope: 'openid profile' }));
    return;
  }

  const saved: unknown = JSON.parse(sessionStorage.getItem(STORAGE_KEY) ?? 'null');
  sessionStorage.removeItem(STORAGE_KEY);
  history.replaceState(null, '', redirectUri);
  if (typeof saved !== 'object' || saved === null || !('code_verifier' in saved) || !('state' in saved) || !('nonce' in saved)) {
    throw new Error('no login in progress (sessionStorage is empty)');
  }
  if (saved.state !== query.get('state')) throw new Error('state mismatch');
  show('status', 'exchanging the code');
  const tokens = await auth.oauth.authorizationCodeGrant({
    code,
    redirect_uri: redirectUri,
    code_verifier: String(saved.code_verifier),
    nonce: String(saved.nonce),
  });
  show('status', 'calling userinfo');
  const user = await auth.userInfo.get(tokens.access_token);
  // The ID token's claims were validated (the browser default: claims only) before the grant resolved.
  if (tokens.claims?.sub !== user.sub) throw new Error(`ID token sub ${String(tokens.claims?.sub)} differs from userinfo's`);
  show('sub', user.sub);
  show('status', 'signed in');
}

main().catch((error: unknown) => {
  show('status', 'failed');
  show('error', error instanceof Error ? `${error.name}: ${error.message}` : String(error));
});
