import * as z from 'zod/mini';
import type { Assert, IsExactly, KnownMembers } from '../type-checks.js';

/** A successful answer of `POST /oauth/token` (RFC 6749 §5.1); unknown members are kept, since servers add their own. */
export const TokenResponseSchema = z.looseObject({
  access_token: z.string().check(z.minLength(1)),
  token_type: z.string(),
  expires_in: z.optional(z.number().check(z.nonnegative())),
  id_token: z.optional(z.string()),
  refresh_token: z.optional(z.string()),
  scope: z.optional(z.string()),
});

/** A successful answer of `POST /oauth/token` (RFC 6749 §5.1); members a server adds are kept at run time but not typed. */
export interface TokenResponse {
  /** The access token (never logged or put in error messages by the SDK). */
  access_token: string;
  /** Usually `Bearer`. */
  token_type: string;
  /** Seconds until the access token expires. */
  expires_in?: number | undefined;
  /** The ID token (a JWT), when `openid` was in the scope. */
  id_token?: string | undefined;
  /** A refresh token, when `offline_access` was granted. */
  refresh_token?: string | undefined;
  /** The granted scopes, space-separated, when they differ from the requested ones. */
  scope?: string | undefined;
}

type _TokenResponseMatchesSchema = Assert<IsExactly<TokenResponse, KnownMembers<z.infer<typeof TokenResponseSchema>>>>;
