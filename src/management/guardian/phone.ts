import * as z from 'zod/mini';
import type { RequestOptions } from '../../core/options.js';
import { openEnum } from '../../core/response-formats.js';
import type { Transport } from '../../core/transport.js';

import type { Assert, IsExactly, KnownMembers } from '../../core/type-checks.js';
import { validateParams } from '../../core/validation.js';

// ── Response schemas ─────────────────────────────────────────────────────────

/**
 * A phone MFA factor type as read from a response: `sms` or `voice`.
 * A type the platform adds later is kept (typed `string & {}`), never an error.
 */
export const PhoneMessageTypeSchema = openEnum(['sms', 'voice']);

/** The phone factor types enabled for the tenant: `{ message_types }`. */
export const PhoneMessageTypesSchema = z.looseObject({
  message_types: z.array(PhoneMessageTypeSchema),
});

/** A phone MFA factor type: `'sms' | 'voice'`, or a type the platform added later. */
export type PhoneMessageType = z.infer<typeof PhoneMessageTypeSchema>;
/** The phone factor types enabled for the tenant. Members the platform adds are kept at run time, not typed. */
export interface PhoneMessageTypes {
  message_types: PhoneMessageType[];
}

type _PhoneMessageTypesMatchSchema = Assert<IsExactly<PhoneMessageTypes, KnownMembers<z.infer<typeof PhoneMessageTypesSchema>>>>;

// ── Parameter rules ──────────────────────────────────────────────────────────

/** The body of `PUT /guardian/factors/phone/message-types`: the whole list, `sms`/`voice`, no duplicates; empty disables both. */
export const SetPhoneMessageTypesParamsSchema = z.strictObject({
  // Read only: a `readonly` list (`['sms', 'voice'] as const`) is as good a body as a mutable one.
  message_types: z.readonly(
    z
      .array(z.enum(['sms', 'voice'], "message_types may hold only 'sms' and 'voice'"))
      .check(z.refine((types) => new Set(types).size === types.length, 'message_types must not repeat a type')),
  ),
});

/** The body of `guardian.phone.setMessageTypes`. */
export type SetPhoneMessageTypesParams = z.input<typeof SetPhoneMessageTypesParamsSchema>;

/** Options of `setMessageTypes`: the request options plus the body's encoding. */
export interface SetPhoneMessageTypesOptions extends RequestOptions {
  /**
   * `'json'` (default) sends `application/json`; `'form'` sends
   * `application/x-www-form-urlencoded` with one `message_types` pair per type
   * (`message_types=sms&message_types=voice`), the way the platform's form
   * endpoints read arrays. An empty list is sent as one empty value (`message_types=`),
   * since a form cannot otherwise say "none".
   */
  readonly encoding?: 'json' | 'form' | undefined;
}

const PATH = 'guardian/factors/phone/message-types';
const EncodingSchema = z.optional(z.enum(['json', 'form'], "encoding must be 'json' or 'form'"));

/**
 * `guardian.phone`: which phone MFA factors (SMS, voice) are enabled for the tenant.
 * The platform documents no scopes for these endpoints, so the client checks none before sending.
 * The platform grants them with `read:guardian_factors` and `update:guardian_factors`.
 * Without them it answers 403 (`ForbiddenError`).
 */
export class GuardianPhone {
  readonly #transport: Transport;

  /** @internal Built by `ManagementClient`. */
  constructor(transport: Transport) {
    this.#transport = transport;
  }

  /** Reads the enabled phone factor types (`GET /guardian/factors/phone/message-types`). */
  getMessageTypes(options?: RequestOptions): Promise<PhoneMessageTypes> {
    return this.#transport.request({ method: 'GET', path: PATH, schema: PhoneMessageTypesSchema, options });
  }

  /**
   * Replaces the whole list of enabled phone factor types (`PUT /guardian/factors/phone/message-types`).
   * Returns the list the platform stored.
   * The list may hold only `sms` and `voice`, without repeats; an empty list disables both.
   * A broken rule throws `RequestValidationError`, and nothing is sent.
   * The body is JSON by default; `{ encoding: 'form' }` sends a form body.
   */
  async setMessageTypes(params: SetPhoneMessageTypesParams, options: SetPhoneMessageTypesOptions = {}): Promise<PhoneMessageTypes> {
    const body = validateParams(SetPhoneMessageTypesParamsSchema, params);
    const { encoding, ...requestOptions } = options ?? {}; // `null`: no options, as for every other method
    validateParams(EncodingSchema, encoding);
    return this.#transport.request({
      method: 'PUT',
      path: PATH,
      body: encoding === 'form' ? { form: toForm(body.message_types) } : { json: body },
      schema: PhoneMessageTypesSchema,
      options: requestOptions,
    });
  }
}

function toForm(types: readonly PhoneMessageType[]): URLSearchParams {
  const form = new URLSearchParams();
  if (types.length === 0) form.append('message_types', '');
  for (const type of types) form.append('message_types', type);
  return form;
}
