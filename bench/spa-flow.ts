/**
 * The client-id-only SPA flow, as a browser app would import it: the entry
 * `scripts/bundle-size.mjs` bundles for the browser to measure what it costs.
 */
import { AuthenticationClient, createPkcePair } from 'idplatform/auth';

export async function login(domain: string, clientId: string, redirectUri: string): Promise<string> {
  const auth = new AuthenticationClient({ domain, clientId });
  const pkce = await createPkcePair();
  sessionStorage.setItem('pkce', pkce.code_verifier);
  return auth.authorizeUrl({ redirect_uri: redirectUri, code_challenge: pkce.code_challenge, state: crypto.randomUUID() });
}

export async function callback(domain: string, clientId: string, redirectUri: string, code: string): Promise<string> {
  const auth = new AuthenticationClient({ domain, clientId });
  const tokens = await auth.oauth.authorizationCodeGrant({
    code,
    redirect_uri: redirectUri,
    code_verifier: sessionStorage.getItem('pkce') ?? '',
  });
  const user = await auth.userInfo.get(tokens.access_token);
  return user.sub;
}
