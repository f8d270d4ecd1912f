import * as z from 'zod/mini';
import { emailAddress } from '../core/response-formats.js';
import { postAsClient, requestToken } from '../core/tokens/endpoint.js';
import type { Assert, IsExactly, KnownMembers } from '../core/type-checks.js';
import { validateParams } from '../core/validation.js';
import { type EndUserRequestOptions, withForwardedFor } from './forwarded-for.js';
import { type TokenResponseWithClaims, withIdTokenClaims } from './id-token-claims.js';
import type { AuthSettings } from './settings.js';

const connection = z.enum(['email', 'sms'], "connection must be 'email' or 'sms'");
const email = z.optional(emailAddress('email must be an email address'));
/** E.164, e.g. `+14155550100`. */
const phoneNumber = z.optional(z.string().check(z.regex(/^\+[1-9]\d{6,14}$/, 'phone_number must be in E.164 form, e.g. +14155550100')));

/**
 * The one address of a passwordless connection: `email` for `email`, `phone_number`
 * for `sms`, and not the other one (which would leave it unclear where the code goes).
 */
const addressOfConnection = z.refine<{ connection: 'email' | 'sms'; email?: string | undefined; phone_number?: string | undefined }>(
  (params) =>
    params.connection === 'email'
      ? params.email !== undefined && params.phone_number === undefined
      : params.phone_number !== undefined && params.email === undefined,
  { message: 'connection email takes `email` (and no `phone_number`); connection sms takes `phone_number` (and no `email`)' },
);

/** A magic link (`send: 'link'`) goes by email only: refused for the sms connection. */
const linkByEmailOnly = z.refine<{ connection: 'email' | 'sms'; send?: 'code' | 'link' | undefined }>(
  (params) => params.send !== 'link' || params.connection === 'email',
  { message: "send 'link' is for connection email only: connection sms sends a code", path: ['send'] },
);

/** Parameters of `passwordless.start`: `email` for the email connection, `phone_number` for sms; a link by email only. */
export const PasswordlessStartSchema = z
  .strictObject({
    connection,
    email,
    /** E.164, e.g. `+14155550100`. */
    phone_number: phoneNumber,
    /** `code` (a one-time code; the default) or `link` (a magic link; email only). The client always sends it: without it, the platform sends a link. */
    send: z.optional(z.enum(['code', 'link'], "send must be 'code' or 'link'")),
    /** Parameters for the authorize request a link leads to (`scope`, `state`, `redirect_uri`, …). */
    authParams: z.optional(z.record(z.string(), z.string())),
  })
  .check(addressOfConnection, linkByEmailOnly);

/** Parameters of `passwordless.login`: the code the user received, at the address of the connection. */
export const PasswordlessLoginSchema = z
  .strictObject({
    connection,
    email,
    /** E.164, e.g. `+14155550100`. */
    phone_number: phoneNumber,
    code: z.string().check(z.minLength(1, 'code is required')),
    audience: z.optional(z.string()),
    scope: z.optional(z.string()),
  })
  .check(addressOfConnection);

/** What `POST /passwordless/start` answers (the platform sends an id and the address; all optional here). */
export const PasswordlessStartResponseSchema = z.looseObject({
  _id: z.optional(z.string()),
  email: z.optional(z.string()),
  phone_number: z.optional(z.string()),
});

/** Parameters of `passwordless.start`. */
export type PasswordlessStartParams = z.input<typeof PasswordlessStartSchema>;
/** Parameters of `passwordless.login`. */
export type PasswordlessLoginParams = z.input<typeof PasswordlessLoginSchema>;
/** What `POST /passwordless/start` answers. Members the platform adds are kept at run time, not typed. */
export interface PasswordlessStartResponse {
  _id?: string | undefined;
  email?: string | undefined;
  phone_number?: string | undefined;
}

type _StartResponseMatchesSchema = Assert<
  IsExactly<PasswordlessStartResponse, KnownMembers<z.infer<typeof PasswordlessStartResponseSchema>>>
>;

/** The platform's grant type for a passwordless one-time code. */
export const PASSWORDLESS_OTP_GRANT = 'http://auth0.com/oauth/grant-type/passwordless/otp';

/** `auth.passwordless`: log in with a one-time code or link sent by email or SMS. */
export interface Passwordless {
  /**
   * Sends a code or link (`POST /passwordless/start`, JSON body) to `email` or
   * `phone_number`. The client authenticates as at the token endpoint (client id,
   * plus its secret or assertion when it is confidential). `options.forwardedFor`
   * sends the end user's IP address as `auth0-forwarded-for`.
   */
  start(params: PasswordlessStartParams, options?: EndUserRequestOptions): Promise<PasswordlessStartResponse>;
  /**
   * Exchanges the code the user received for tokens (`POST /oauth/token`, the
   * passwordless OTP grant). `options.forwardedFor` sends the end user's IP address
   * as `auth0-forwarded-for`.
   */
  login(params: PasswordlessLoginParams, options?: EndUserRequestOptions): Promise<TokenResponseWithClaims>;
}

/** The {@link Passwordless} namespace an `AuthenticationClient` builds on its first API call. */
export class PasswordlessLogin implements Passwordless {
  readonly #settings: AuthSettings;

  /** @internal Built by `AuthenticationClient`. */
  constructor(settings: AuthSettings) {
    this.#settings = settings;
  }

  async start(params: PasswordlessStartParams, options?: EndUserRequestOptions): Promise<PasswordlessStartResponse> {
    const checked = validateParams(PasswordlessStartSchema, params);
    // Sent also when left out: the platform sends a link without it, and the default here is a code.
    const body = { ...checked, send: checked.send ?? 'code' };
    const callOptions = withForwardedFor(options);
    const endpoint = this.#settings.tokenEndpoint;
    return postAsClient(
      endpoint,
      { path: 'passwordless/start', params: body, encoding: 'json', schema: PasswordlessStartResponseSchema },
      callOptions,
    );
  }

  async login(params: PasswordlessLoginParams, options?: EndUserRequestOptions): Promise<TokenResponseWithClaims> {
    const { connection, email, phone_number, code, audience, scope } = validateParams(PasswordlessLoginSchema, params);
    const callOptions = withForwardedFor(options);
    const username = connection === 'sms' ? phone_number : email;
    const grant = { grant_type: PASSWORDLESS_OTP_GRANT, realm: connection, username, otp: code, audience, scope };
    return withIdTokenClaims(this.#settings, await requestToken(this.#settings.tokenEndpoint, grant, callOptions), {}, callOptions);
  }
}
