import type { Clock } from '../clock.js';
import { type AuthApiContext, callAuthApi } from '../http/auth-api.js';
import { loadOnce } from '../load-once.js';
import type { RequestOptions } from '../options.js';
import type { Schema } from '../validation.js';
import { createClientAuthentication } from './client-authentication/for-credentials.js';
import type { ClientAuthentication } from './client-authentication/types.js';
import type { ClientCredentials } from './credentials.js';
import { type TokenResponse, TokenResponseSchema } from './response.js';

/** The token endpoint of a tenant, with the client's authentication: where every grant of the SDK is exchanged for tokens. */
export interface TokenEndpoint extends AuthApiContext {
  /** `https://{domain}/`: the audience of client assertions. */
  readonly issuer: string;
  /** The client's id: a JSON body names the client whatever its authentication method. */
  readonly clientId: string;
  /** The client's authentication, made on first use (`private_key_jwt` loads jose then). */
  authentication(): Promise<ClientAuthentication>;
}

/** A {@link TokenEndpoint} at `origin` for the client's `credentials`. */
export function createTokenEndpoint(context: AuthApiContext, origin: string, credentials: ClientCredentials, clock: Clock): TokenEndpoint {
  return {
    ...context,
    issuer: `${origin}/`,
    clientId: credentials.clientId,
    // A failure (jose's chunk failed to load, say offline) is not kept: the next call tries again.
    authentication: loadOnce(() => createClientAuthentication(credentials, clock)),
  };
}

/** Parameters whose values are credentials: scrubbed from any error text the server sends back. */
const SECRET_PARAMS = ['code', 'code_verifier', 'refresh_token', 'password', 'otp', 'token'];

/**
 * `POST {path}` as the client, authenticated afresh each attempt (a client assertion is never replayed): `params` and credentials as a
 * form body (OAuth's endpoints) or a JSON body (the platform's own, which name the client by the body's `client_id`).
 */
export function postAsClient<T>(
  endpoint: TokenEndpoint,
  call: { path: string; params: Readonly<Record<string, unknown>>; encoding: 'form' | 'json'; schema: Schema<T> },
  options?: RequestOptions,
): Promise<T> {
  const { params } = call;
  const paramSecrets = SECRET_PARAMS.map((name) => params[name]).filter((value): value is string => typeof value === 'string');
  return callAuthApi(endpoint, {
    method: 'POST',
    path: call.path,
    schema: call.schema,
    options,
    prepare: async () => {
      const authentication = await endpoint.authentication();
      const credentials = new URLSearchParams();
      const headers: Record<string, string> = {};
      const secrets = [...(await authentication.apply({ body: credentials, headers }, endpoint.issuer)), ...paramSecrets];
      if (call.encoding === 'json') {
        return { body: { json: { client_id: endpoint.clientId, ...Object.fromEntries(credentials), ...params } }, headers, secrets };
      }
      const form = new URLSearchParams();
      for (const [name, value] of Object.entries(params)) if (value !== undefined) form.set(name, String(value));
      for (const [name, value] of credentials) form.set(name, value);
      return { body: { form }, headers, secrets };
    },
  });
}

/** `POST /oauth/token` with a form body holding `grant` and the client's credentials: the one place the SDK requests tokens. */
export function requestToken(
  endpoint: TokenEndpoint,
  grant: Readonly<Record<string, string | undefined>>,
  options?: RequestOptions,
): Promise<TokenResponse> {
  return postAsClient(endpoint, { path: 'oauth/token', params: grant, encoding: 'form', schema: TokenResponseSchema }, options);
}
