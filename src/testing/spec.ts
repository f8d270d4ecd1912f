/**
 * The platform's documented rules, as the emulator follows them.
 * They are written here on their own, not imported from the SDK.
 * So a test against the emulator can catch the SDK misreading the platform's rules.
 */
import * as z from 'zod/mini';

// ── Limits and defaults ──────────────────────────────────────────────────────

/** Longest organization id: 50 characters. */
export const MAX_ORGANIZATION_ID_LENGTH = 50;
/** `per_page` bounds and default of the invitation list: 1–100, default 50. */
export const PER_PAGE = { min: 1, max: 100, default: 50 } as const;
/**
 * `per_page` of the module-actions list. The platform documents neither its default nor its bounds.
 * The emulator uses the platform's usual 1–100, default 50, and no paging window.
 */
export const MODULE_ACTIONS_PER_PAGE = PER_PAGE;
/** How many invitation records offset paging reaches: the platform refuses pages past the first 1000. */
export const PAGING_WINDOW = 1000;
/** The 400 message when a page reaches past the window. */
export const PAGING_WINDOW_MESSAGE = `Requesting page exceeds the allowed maximum of ${PAGING_WINDOW} records`;
/** Invitation order when `sort` is not given: newest first (`created_at:-1`). */
export const DEFAULT_INVITATION_SORT = { field: 'created_at', order: -1 } as const;

/** Whether page `page` of `perPage` records lies inside the window: `(page + 1) * perPage <= 1000`. */
export function withinPagingWindow(page: number, perPage: number): boolean {
  return (page + 1) * perPage <= PAGING_WINDOW;
}

// ── Client authentication ────────────────────────────────────────────────────

/** The `client_assertion_type` of a JWT client assertion (RFC 7523). */
export const JWT_BEARER_ASSERTION_TYPE = 'urn:ietf:params:oauth:client-assertion-type:jwt-bearer';
/** The signature algorithms the emulator accepts for client assertions. */
export const ASSERTION_ALGORITHMS = ['RS256', 'RS384', 'RS512', 'PS256', 'PS384', 'PS512', 'ES256', 'ES384', 'ES512'] as const;

// ── Records ──────────────────────────────────────────────────────────────────

const isoDateTime = z.iso.datetime({ offset: true });
/**
 * The platform's `strict-https-uri` format: an absolute `https://` URL without user info or whitespace.
 * That is what the SDK reads; a URL parser alone would take `https:x` and spaces in the path.
 * zod's URL check stores the value trimmed.
 */
const strictHttpsUrl = z.url({ protocol: /^https$/ }).check(
  z.refine((url) => {
    const { username, password } = new URL(url);
    return username === '' && password === '' && /^https:\/\/\S+$/i.test(url);
  }, 'must be an https URL without user info or whitespace'),
);
const freeForm = z.record(z.string(), z.unknown());

/** An organization invitation: no field is required, and no property beyond the documented ones ("additional properties: false"). */
export const InvitationRecord = z.strictObject({
  id: z.optional(z.string()),
  organization_id: z.optional(z.string().check(z.maxLength(MAX_ORGANIZATION_ID_LENGTH))),
  inviter: z.optional(z.strictObject({ name: z.string().check(z.minLength(1), z.maxLength(300)) })),
  // An address as a browser's email input takes it (`a&b@example.com` is one): what the platform could store.
  invitee: z.optional(z.strictObject({ email: z.email({ pattern: z.regexes.html5Email }) })),
  invitation_url: z.optional(strictHttpsUrl),
  created_at: z.optional(isoDateTime),
  expires_at: z.optional(isoDateTime),
  client_id: z.optional(z.string()),
  connection_id: z.optional(z.string()),
  app_metadata: z.optional(freeForm),
  user_metadata: z.optional(freeForm),
  roles: z.optional(z.array(z.string()).check(z.minLength(1))),
  ticket_id: z.optional(z.string()),
});

/** The field names of an invitation: what `fields` may list and `sort` may name. */
export const INVITATION_FIELDS: readonly string[] = Object.keys(InvitationRecord.def.shape);

/** An organization id as a record: 1–50 characters. */
export const OrganizationId = z.string().check(z.minLength(1), z.maxLength(MAX_ORGANIZATION_ID_LENGTH));

/** A trigger of an action usage. The platform does not document which fields are required, so none is. */
export const TriggerRecord = z.looseObject({
  id: z.optional(z.string()),
  version: z.optional(z.string()),
  status: z.optional(z.string()),
  runtimes: z.optional(z.array(z.string())),
  default_runtime: z.optional(z.string()),
  compatible_triggers: z.optional(z.array(z.looseObject({ version: z.string() }))),
});

/** An action that uses a module. The platform does not document which fields are required, so none is. */
export const ActionUsageRecord = z.looseObject({
  action_id: z.optional(z.string()),
  action_name: z.optional(z.string()),
  module_version_id: z.optional(z.string()),
  module_version_number: z.optional(z.int()),
  supported_triggers: z.optional(z.array(TriggerRecord)),
});

/** The phone MFA factor types: `sms` and `voice`. */
export const PHONE_MESSAGE_TYPES = ['sms', 'voice'] as const;
/** One phone MFA factor type. */
export const PhoneMessageTypeRecord = z.enum(PHONE_MESSAGE_TYPES);

/** An invitation as the emulator stores it. */
export type InvitationRecord = z.infer<typeof InvitationRecord>;
/** A trigger of an action usage as the emulator stores it. */
export type TriggerRecord = z.infer<typeof TriggerRecord>;
/** An action usage as the emulator stores it. */
export type ActionUsageRecord = z.infer<typeof ActionUsageRecord>;
/** `sms` or `voice`. */
export type PhoneMessageTypeRecord = z.infer<typeof PhoneMessageTypeRecord>;
