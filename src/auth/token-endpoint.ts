import { type AuthApiContext, callAuthApi } from './auth-request.js';
import type { ClientAuthentication } from './client-authentication/types.js';
import { type TokenResponse, TokenResponseSchema } from './token-response.js';

/** The token endpoint: where every grant of the SDK is exchanged for tokens. */
export interface TokenEndpoint extends AuthApiContext {
  /** `https://{domain}/`: the audience of client assertions. */
  readonly issuer: string;
  readonly authentication: ClientAuthentication;
}

/**
 * `POST /oauth/token` with a form body (`application/x-www-form-urlencoded`, as
 * RFC 6749 requires and the platform accepts) holding `grant` and the client's
 * credentials. The one place in the SDK that requests tokens.
 */
export function requestToken(
  endpoint: TokenEndpoint,
  grant: Readonly<Record<string, string | undefined>>,
  options: { signal?: AbortSignal | undefined; timeoutMs?: number | undefined } = {},
): Promise<TokenResponse> {
  const { authentication } = endpoint;
  return callAuthApi(endpoint, {
    method: 'POST',
    path: 'oauth/token',
    schema: TokenResponseSchema,
    secrets: () =>
      [...authentication.secrets, grant.code, grant.code_verifier, grant.refresh_token, grant.password, grant.otp].filter(isText),
    prepare: async () => {
      const body = new URLSearchParams();
      for (const [name, value] of Object.entries(grant)) if (value !== undefined) body.set(name, value);
      const headers: Record<string, string> = {};
      await authentication.apply({ body, headers }, endpoint.issuer);
      return { body: { form: body }, headers };
    },
    ...options,
  });
}

function isText(value: string | undefined): value is string {
  return typeof value === 'string';
}
