import * as z from 'zod/mini';

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

/** The claims of `GET /userinfo`. */
export type UserInfo = z.infer<typeof UserInfoSchema>;
