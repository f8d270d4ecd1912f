import { jsonText } from '../json-text.js';
import { QueryReader } from '../query.js';
import { isBodyProblem, readRequestBody } from '../request-body.js';
import { json, managementError } from '../responses.js';
import type { PhoneMessageTypeRecord } from '../spec.js';
import type { Operation } from './operation.js';

const PATH = '/guardian/factors/phone/message-types';
const TYPES: readonly string[] = ['sms', 'voice'];

/**
 * `GET /guardian/factors/phone/message-types`: answers `{ message_types }`.
 * The platform documents no scope; the emulator requires `read:guardian_factors`.
 * It takes no query parameters: a query string gives 400 `invalid_query_string`.
 */
export const getPhoneMessageTypes: Operation = {
  method: 'GET',
  path: PATH,
  scope: 'read:guardian_factors',
  handle: ({ url, store }) => {
    const query = new QueryReader(url.searchParams, []);
    if (query.issues.length > 0) return managementError(400, query.message, 'invalid_query_string');
    return json({ message_types: store.phoneMessageTypes });
  },
};

/**
 * `PUT /guardian/factors/phone/message-types`: replaces the list and answers 200 `{ message_types }`.
 * The platform documents no scope or status; the emulator requires `update:guardian_factors` and answers 200.
 * It reads two kinds of body:
 *
 * - `application/json`: `{ "message_types": ["sms", "voice"] }`, no other property;
 * - `application/x-www-form-urlencoded`: one pair per type, `message_types=sms&message_types=voice`
 *   (or `message_types[]=sms&message_types[]=voice`); one empty value, `message_types=`, is the empty list.
 *
 * Values are `sms` / `voice`, without repeats; an empty list is allowed (it disables
 * both). Anything else gives 400 `Payload validation error: …`, errorCode `invalid_body`.
 */
export const setPhoneMessageTypes: Operation = {
  method: 'PUT',
  path: PATH,
  scope: 'update:guardian_factors',
  handle: async ({ request, store }) => {
    const body = await readRequestBody(request);
    if (isBodyProblem(body)) return invalidBody(body.problem);
    const types = body.kind === 'json' ? fromJson(body.value) : body.kind === 'form' ? fromForm(body.value) : 'Missing request body';
    if (typeof types === 'string') return invalidBody(types);
    const checked = checkTypes(types);
    if (typeof checked === 'string') return invalidBody(checked);
    store.phoneMessageTypes = checked;
    return json({ message_types: store.phoneMessageTypes });
  },
};

function fromJson(value: unknown): unknown[] | string {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return 'the body must be an object with message_types';
  const extra = Object.keys(value).filter((key) => key !== 'message_types');
  if (extra.length > 0) return `Additional properties not allowed: ${extra.join(', ')}`;
  if (!('message_types' in value)) return 'Missing required property: message_types';
  const { message_types: types } = value;
  return Array.isArray(types) ? types : `message_types must be an array (got ${jsonText(types)})`;
}

function fromForm(form: URLSearchParams): string[] | string {
  const keys = new Set(form.keys());
  const extra = [...keys].filter((key) => key !== 'message_types' && key !== 'message_types[]');
  if (extra.length > 0) return `Additional properties not allowed: ${extra.join(', ')}`;
  if (keys.size === 0) return 'Missing required property: message_types';
  if (keys.size > 1) return 'send message_types or message_types[], not both';
  const [key] = keys;
  const values = form.getAll(key ?? 'message_types');
  return values.length === 1 && values[0] === '' ? [] : values;
}

/** The list as phone message types, or why it is not one. */
function checkTypes(values: readonly unknown[]): PhoneMessageTypeRecord[] | string {
  const types: PhoneMessageTypeRecord[] = [];
  for (const [index, value] of values.entries()) {
    if (!isPhoneMessageType(value)) return `message_types[${index}] must be one of ${TYPES.join(', ')} (got ${jsonText(value)})`;
    if (types.includes(value)) return `message_types must not repeat a type ("${value}")`;
    types.push(value);
  }
  return types;
}

function isPhoneMessageType(value: unknown): value is PhoneMessageTypeRecord {
  return typeof value === 'string' && TYPES.includes(value);
}

function invalidBody(problem: string): Response {
  return managementError(400, `Payload validation error: ${problem}`, 'invalid_body');
}
