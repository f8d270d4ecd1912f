import { describe, expect, it } from 'vitest';
import { ActionModuleUsagePageSchema } from '../../src/management/actions/modules.js';
import { createTenantEmulator, SEED_COUNTS, SEED_IDS } from '../../src/testing/index.js';
import { managementRequest, read } from '../helpers/emulator.js';

const emulator = createTenantEmulator();
const token = await emulator.createAccessToken();

async function listActions(query = '', moduleId: string = SEED_IDS.sharedModule) {
  return read(await managementRequest(emulator, `/actions/modules/${moduleId}/actions${query}`, { token }));
}

describe('GET /actions/modules/{id}/actions', () => {
  it('answers { actions, total, page, per_page } with 50 actions by default, valid by the SDK schema', async () => {
    const { status, body } = await listActions();
    expect(status).toBe(200);
    const page = ActionModuleUsagePageSchema.parse(body);
    expect(page).toMatchObject({ total: SEED_COUNTS.sharedModuleActions, page: 0, per_page: 50 });
    expect(page.actions).toHaveLength(50);
    expect(page.actions[0]).toEqual({
      action_id: expect.stringMatching(/^[\da-f]{8}-[\da-f]{4}-4[\da-f]{3}-[89ab][\da-f]{3}-[\da-f]{12}$/),
      action_name: expect.any(String),
      module_version_id: expect.stringMatching(/^modver_/),
      module_version_number: expect.any(Number),
      supported_triggers: expect.arrayContaining([
        expect.objectContaining({
          id: expect.any(String),
          version: expect.any(String),
          status: expect.any(String),
          runtimes: expect.any(Array),
        }),
      ]),
    });
  });

  it('pages through all 130 actions: 100 + 30, then an empty page', async () => {
    const first = (await listActions('?page=0&per_page=100')).body as { actions: { action_id: string }[] };
    const second = (await listActions('?page=1&per_page=100')).body as { actions: { action_id: string }[]; page: number };
    expect(first.actions).toHaveLength(100);
    expect(second).toMatchObject({ page: 1, per_page: 100, total: 130 });
    expect(second.actions).toHaveLength(30);
    expect(new Set([...first.actions, ...second.actions].map((action) => action.action_id)).size).toBe(130);
    expect((await listActions('?page=2&per_page=100')).body).toMatchObject({ actions: [], total: 130, page: 2 });
  });

  it('takes per_page 1 and 100, refuses 0 and 101, and a negative or fractional page', async () => {
    expect((await listActions('?per_page=1')).body).toMatchObject({ per_page: 1, actions: [expect.anything()] });
    expect((await listActions('?per_page=100')).status).toBe(200);
    for (const query of ['?per_page=0', '?per_page=101', '?page=-1', '?page=0.5', '?per_page=x']) {
      expect(await listActions(query), query).toMatchObject({ status: 400, body: { statusCode: 400, errorCode: 'invalid_query_string' } });
    }
  });

  it('refuses unknown query parameters', async () => {
    expect(await listActions('?include_totals=true')).toMatchObject({
      status: 400,
      body: { message: 'Query validation error: unknown parameter "include_totals" (allowed: page, per_page)' },
    });
  });

  it('answers 404 for an unknown module, and an empty list for an unused one', async () => {
    expect(await listActions('', 'mod_nope')).toMatchObject({
      status: 404,
      body: { statusCode: 404, error: 'Not Found', message: 'No module found by that id', errorCode: 'inexistent_module' },
    });
    expect((await listActions('', SEED_IDS.unusedModule)).body).toEqual({ actions: [], total: 0, page: 0, per_page: 50 });
    expect((await listActions('', SEED_IDS.smallModule)).body).toMatchObject({ total: SEED_COUNTS.smallModuleActions });
  });
});
