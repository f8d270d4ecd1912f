import * as z from 'zod/mini';

/**
 * A successful answer of `POST /oauth/token` (RFC 6749 §5.1). Unknown members are
 * kept, since servers add their own.
 */
export const TokenResponseSchema = z.looseObject({
  access_token: z.string().check(z.minLength(1)),
  token_type: z.string(),
  expires_in: z.optional(z.number().check(z.nonnegative())),
  id_token: z.optional(z.string()),
  refresh_token: z.optional(z.string()),
  scope: z.optional(z.string()),
});

/** A successful answer of `POST /oauth/token`. */
export type TokenResponse = z.infer<typeof TokenResponseSchema>;
