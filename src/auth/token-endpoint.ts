import type { Schema } from '../core/validation.js';
import { type AuthApiContext, type AuthRequestOptions, callAuthApi } from './auth-request.js';
import type { ClientAuthentication } from './client-authentication/types.js';
import { type TokenResponse, TokenResponseSchema } from './token-response.js';

/** The token endpoint: where every grant of the SDK is exchanged for tokens. */
export interface TokenEndpoint extends AuthApiContext {
  /** `https://{domain}/`: the audience of client assertions. */
  readonly issuer: string;
  readonly authentication: ClientAuthentication;
}

/** Parameters whose values are credentials: scrubbed from any error text the server sends back. */
const SECRET_PARAMS = ['code', 'code_verifier', 'refresh_token', 'password', 'otp', 'token'];

/**
 * `POST {path}` authenticated as the client (each attempt freshly, so a client
 * assertion is never replayed): `params` plus the client's credentials, as a form
 * body (`'form'`, RFC 6749) or a JSON body (`'json'`, the platform's own endpoints).
 */
export function postAsClient<T>(
  endpoint: TokenEndpoint,
  call: { path: string; params: Readonly<Record<string, unknown>>; encoding: 'form' | 'json'; schema: Schema<T> },
  options: AuthRequestOptions = {},
): Promise<T> {
  const { authentication } = endpoint;
  const { params } = call;
  const paramSecrets = SECRET_PARAMS.map((name) => params[name]).filter((value): value is string => typeof value === 'string');
  return callAuthApi(endpoint, {
    method: 'POST',
    path: call.path,
    schema: call.schema,
    prepare: async () => {
      const credentials = new URLSearchParams();
      const headers: Record<string, string> = {};
      const secrets = [...(await authentication.apply({ body: credentials, headers }, endpoint.issuer)), ...paramSecrets];
      if (call.encoding === 'json') return { body: { json: { ...Object.fromEntries(credentials), ...params } }, headers, secrets };
      const form = new URLSearchParams();
      for (const [name, value] of Object.entries(params)) if (value !== undefined) form.set(name, String(value));
      for (const [name, value] of credentials) form.set(name, value);
      return { body: { form }, headers, secrets };
    },
    ...options,
  });
}

/**
 * `POST /oauth/token` with a form body (`application/x-www-form-urlencoded`, as
 * RFC 6749 requires and the platform accepts) holding `grant` and the client's
 * credentials. The one place in the SDK that requests tokens.
 */
export function requestToken(
  endpoint: TokenEndpoint,
  grant: Readonly<Record<string, string | undefined>>,
  options?: AuthRequestOptions,
): Promise<TokenResponse> {
  return postAsClient(endpoint, { path: 'oauth/token', params: grant, encoding: 'form', schema: TokenResponseSchema }, options);
}
