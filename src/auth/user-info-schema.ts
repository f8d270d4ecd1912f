import * as z from 'zod/mini';
import type { Assert, IsExactly, KnownMembers } from '../core/type-checks.js';

/** The OpenID Connect claims `GET /userinfo` answers: `sub` always, the rest as the scopes allow. */
export const UserInfoSchema = z.looseObject({
  sub: z.string(),
  name: z.optional(z.string()),
  nickname: z.optional(z.string()),
  given_name: z.optional(z.string()),
  family_name: z.optional(z.string()),
  email: z.optional(z.string()),
  email_verified: z.optional(z.boolean()),
  picture: z.optional(z.string()),
  updated_at: z.optional(z.union([z.string(), z.number()])),
});

/**
 * The standard claims of `GET /userinfo` (OIDC Core 5.1). Other claims (custom,
 * namespaced ones) are kept at run time but not typed: read them with
 * `(info as Record<string, unknown>)['https://example.com/roles']`.
 */
export interface UserInfo {
  /** The user's id. */
  sub: string;
  name?: string | undefined;
  nickname?: string | undefined;
  given_name?: string | undefined;
  family_name?: string | undefined;
  email?: string | undefined;
  email_verified?: boolean | undefined;
  picture?: string | undefined;
  /** When the profile last changed: an ISO 8601 string or epoch seconds. */
  updated_at?: string | number | undefined;
}

type _UserInfoMatchesSchema = Assert<IsExactly<UserInfo, KnownMembers<z.infer<typeof UserInfoSchema>>>>;
