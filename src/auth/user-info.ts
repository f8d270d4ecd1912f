import * as z from 'zod/mini';
import { callAuthApi } from '../core/http/auth-api.js';
import { isSendableHeaderValue } from '../core/http/headers.js';
import type { RequestOptions } from '../core/options.js';
import { validateParams } from '../core/validation.js';
import type { AuthSettings } from './settings.js';
import { type UserInfo, UserInfoSchema } from './user-info-schema.js';

// A token no header can carry (a newline, say) is refused here, where it enters: the runtime's error would quote it.
const AccessTokenSchema = z
  .string('accessToken is required')
  .check(
    z.minLength(1, 'accessToken is required'),
    z.refine(isSendableHeaderValue, 'accessToken holds a character an Authorization header cannot carry; it is not shown'),
  );

/** `auth.userInfo`: the profile of the user an access token was issued to. */
export interface UserInfoApi {
  /**
   * Reads the profile of the user an access token was issued to (`GET /userinfo`).
   * The token is sent as `Authorization: Bearer <accessToken>`.
   * An empty `accessToken` throws `RequestValidationError`, and nothing is sent.
   */
  get(accessToken: string, options?: RequestOptions): Promise<UserInfo>;
}

/** The {@link UserInfoApi} namespace an `AuthenticationClient` builds on its first API call. */
export class UserInfoEndpoint implements UserInfoApi {
  readonly #settings: AuthSettings;

  /** @internal Built by `AuthenticationClient`. */
  constructor(settings: AuthSettings) {
    this.#settings = settings;
  }

  async get(accessToken: string, options?: RequestOptions): Promise<UserInfo> {
    const token = validateParams(AccessTokenSchema, accessToken);
    return callAuthApi(this.#settings, {
      method: 'GET',
      path: 'userinfo',
      schema: UserInfoSchema,
      prepare: () => ({ headers: { authorization: `Bearer ${token}` }, secrets: [token] }),
      options,
    });
  }
}
