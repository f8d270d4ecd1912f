import * as z from 'zod/mini';
import { callAuthApi } from '../core/http/auth-api.js';
import type { RequestOptions } from '../core/options.js';
import { emailAddress } from '../core/response-formats.js';
import type { Assert, IsExactly, KnownMembers } from '../core/type-checks.js';
import { validateParams } from '../core/validation.js';
import type { AuthSettings } from './settings.js';

/** Parameters of `database.signUp`. Profile fields are optional; `user_metadata` values are strings. */
export const SignUpSchema = z.strictObject({
  /** The database connection's name. */
  connection: z.string().check(z.minLength(1, 'connection is required')),
  email: emailAddress('email must be an email address'),
  password: z.string().check(z.minLength(1, 'password is required')),
  username: z.optional(z.string()),
  given_name: z.optional(z.string()),
  family_name: z.optional(z.string()),
  name: z.optional(z.string()),
  nickname: z.optional(z.string()),
  picture: z.optional(z.url()),
  user_metadata: z.optional(z.record(z.string(), z.string())),
});

/** Parameters of `database.changePassword`: the connection and the user's email. */
export const ChangePasswordSchema = z.strictObject({
  connection: z.string().check(z.minLength(1, 'connection is required')),
  email: emailAddress('email must be an email address'),
});

/** What `POST /dbconnections/signup` answers: the new user (fields vary; all optional here). */
export const SignUpResponseSchema = z.looseObject({
  _id: z.optional(z.string()),
  email: z.optional(z.string()),
  email_verified: z.optional(z.boolean()),
});

/** Parameters of `database.signUp`. */
export type SignUpParams = z.input<typeof SignUpSchema>;
/** Parameters of `database.changePassword`. */
export type ChangePasswordParams = z.input<typeof ChangePasswordSchema>;
/** The user `database.signUp` created. Members the platform adds are kept at run time, not typed. */
export interface SignUpResponse {
  /** The new user's id. */
  _id?: string | undefined;
  email?: string | undefined;
  email_verified?: boolean | undefined;
}

type _SignUpResponseMatchesSchema = Assert<IsExactly<SignUpResponse, KnownMembers<z.infer<typeof SignUpResponseSchema>>>>;

/** `auth.database`: sign-up and password reset for database connections. */
export interface Database {
  /** Creates a user in a database connection (`POST /dbconnections/signup`, JSON body with the client id). */
  signUp(params: SignUpParams, options?: RequestOptions): Promise<SignUpResponse>;
  /**
   * Starts a password reset (`POST /dbconnections/change_password`): the platform
   * emails the user a link. Resolves with the platform's message.
   */
  changePassword(params: ChangePasswordParams, options?: RequestOptions): Promise<string>;
}

/** The {@link Database} namespace an `AuthenticationClient` builds on its first API call. */
export class DatabaseConnections implements Database {
  readonly #settings: AuthSettings;

  /** @internal Built by `AuthenticationClient`. */
  constructor(settings: AuthSettings) {
    this.#settings = settings;
  }

  async signUp(params: SignUpParams, options?: RequestOptions): Promise<SignUpResponse> {
    const body = validateParams(SignUpSchema, params);
    return this.#post(
      'dbconnections/signup',
      { client_id: this.#settings.clientId, ...body },
      SignUpResponseSchema,
      [body.password],
      options,
    );
  }

  async changePassword(params: ChangePasswordParams, options?: RequestOptions): Promise<string> {
    const body = validateParams(ChangePasswordSchema, params);
    return this.#post('dbconnections/change_password', { client_id: this.#settings.clientId, ...body }, z.string(), [], options);
  }

  #post<T>(path: string, json: object, schema: z.ZodMiniType<T>, secrets: string[], options?: RequestOptions): Promise<T> {
    return callAuthApi(this.#settings, {
      method: 'POST',
      path,
      schema,
      prepare: () => ({ body: { json }, secrets }),
      options,
    });
  }
}
