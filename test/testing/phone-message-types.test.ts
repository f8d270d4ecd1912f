import { beforeEach, describe, expect, it } from 'vitest';
import { createTenantEmulator } from '../../src/testing/index.js';
import { managementRequest, read } from '../helpers/emulator.js';

const PATH = '/guardian/factors/phone/message-types';
const emulator = createTenantEmulator();
const token = await emulator.createAccessToken();
beforeEach(() => emulator.reset());

const get = async () => read(await managementRequest(emulator, PATH, { token }));

function put(body: string | null, contentType: string | undefined) {
  return managementRequest(emulator, PATH, { method: 'PUT', body, token, headers: contentType ? { 'content-type': contentType } : {} });
}

const putJson = async (body: unknown) => read(await put(JSON.stringify(body), 'application/json'));
const putForm = async (body: string) => read(await put(body, 'application/x-www-form-urlencoded'));

const invalidBody = (message: string | RegExp) => ({
  status: 400,
  body: { statusCode: 400, error: 'Bad Request', message: expect.stringMatching(message), errorCode: 'invalid_body' },
});

describe('GET /guardian/factors/phone/message-types', () => {
  it('answers the seeded { message_types: ["sms"] }', async () => {
    expect(await get()).toMatchObject({ status: 200, body: { message_types: ['sms'] } });
  });

  it('refuses query parameters', async () => {
    expect((await managementRequest(emulator, `${PATH}?x=1`, { token })).status).toBe(400);
  });
});

describe('PUT /guardian/factors/phone/message-types', () => {
  it('replaces the list from a JSON body and answers it', async () => {
    expect(await putJson({ message_types: ['voice', 'sms'] })).toMatchObject({ status: 200, body: { message_types: ['voice', 'sms'] } });
    expect((await get()).body).toEqual({ message_types: ['voice', 'sms'] });
    expect(emulator.data.phoneMessageTypes).toEqual(['voice', 'sms']);
  });

  it('accepts a JSON body with a charset parameter', async () => {
    expect((await read(await put('{"message_types":["voice"]}', 'application/json; charset=utf-8'))).status).toBe(200);
  });

  it('replaces the list from a form body with one pair per type', async () => {
    expect(await putForm('message_types=sms&message_types=voice')).toMatchObject({
      status: 200,
      body: { message_types: ['sms', 'voice'] },
    });
    expect(await putForm('message_types=voice')).toMatchObject({ status: 200, body: { message_types: ['voice'] } });
  });

  it('accepts the bracket form message_types[]=…', async () => {
    expect(await putForm('message_types%5B%5D=voice&message_types%5B%5D=sms')).toMatchObject({
      status: 200,
      body: { message_types: ['voice', 'sms'] },
    });
  });

  it('takes an empty list (it disables both) in JSON, and as one empty value in a form', async () => {
    expect(await putJson({ message_types: [] })).toMatchObject({ status: 200, body: { message_types: [] } });
    await putJson({ message_types: ['sms'] });
    expect(await putForm('message_types=')).toMatchObject({ status: 200, body: { message_types: [] } });
    expect((await get()).body).toEqual({ message_types: [] });
  });

  it('refuses values other than sms and voice', async () => {
    expect(await putJson({ message_types: ['sms', 'fax'] })).toMatchObject(
      invalidBody(/^Payload validation error: message_types\[1\] must be one of sms, voice \(got "fax"\)$/),
    );
    expect(await putJson({ message_types: [1] })).toMatchObject(invalidBody(/message_types\[0\] must be one of sms, voice/));
    expect(await putForm('message_types=sms,voice')).toMatchObject(invalidBody(/must be one of sms, voice \(got "sms,voice"\)/));
    expect(await putForm('message_types=sms&message_types=')).toMatchObject(invalidBody(/must be one of/));
  });

  it('refuses a repeated type', async () => {
    expect(await putJson({ message_types: ['sms', 'sms'] })).toMatchObject(invalidBody(/must not repeat a type \("sms"\)/));
    expect(await putForm('message_types=voice&message_types=voice')).toMatchObject(invalidBody(/must not repeat a type/));
  });

  it('refuses a missing list, a list that is not an array, and other properties', async () => {
    expect(await putJson({})).toMatchObject(invalidBody(/Missing required property: message_types/));
    expect(await putJson({ message_types: 'sms' })).toMatchObject(invalidBody(/message_types must be an array/));
    expect(await putJson(['sms'])).toMatchObject(invalidBody(/must be an object/));
    expect(await putJson({ message_types: ['sms'], extra: true })).toMatchObject(invalidBody(/Additional properties not allowed: extra/));
    expect(await putForm('')).toMatchObject(invalidBody(/Missing required property: message_types/));
    expect(await putForm('message_types=sms&enabled=true')).toMatchObject(invalidBody(/Additional properties not allowed: enabled/));
    expect(await putForm('message_types=sms&message_types%5B%5D=voice')).toMatchObject(invalidBody(/not both/));
  });

  it('refuses broken JSON, other media types and a missing body', async () => {
    expect(await read(await put('{"message_types":', 'application/json'))).toMatchObject(
      invalidBody(/Invalid request payload JSON format/),
    );
    expect(await read(await put('message_types=sms', 'text/plain'))).toMatchObject(invalidBody(/Unsupported Content-Type "text\/plain"/));
    expect(await read(await put(null, undefined))).toMatchObject(invalidBody(/Missing request body/));
  });

  it('leaves the list unchanged after a refused request', async () => {
    await putJson({ message_types: ['voice', 'fax'] });
    expect((await get()).body).toEqual({ message_types: ['sms'] });
  });
});

describe('a body nested 30,000 levels deep (64 KiB allows that)', () => {
  it.each([
    ['a member that is not an array', (deep: string) => `{"message_types":{"a":${deep}}}`],
    ['an item that is not a type', (deep: string) => `{"message_types":[${deep}]}`],
  ])('is refused with 400 invalid_body, as any bad body, for %s', async (_, body) => {
    const levels = 30_000;
    const response = await put(body(`${'['.repeat(levels)}${']'.repeat(levels)}`), 'application/json');
    const answer = (await response.json()) as { errorCode?: string };
    expect({ status: response.status, errorCode: answer.errorCode }).toEqual({ status: 400, errorCode: 'invalid_body' });
  });
});
