import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ManagementClient, NotFoundError } from '../../src/management/index.js';
import { createTenantEmulator, type EmulatorServer } from '../../src/testing/index.js';

describe('management.request() against the emulator', () => {
  const emulator = createTenantEmulator();
  let listening: EmulatorServer;
  beforeAll(async () => {
    listening = await emulator.listen();
  });
  afterAll(() => listening.close());

  it('reaches a documented operation and gets 404 for the ones the emulator lacks', async () => {
    const management = new ManagementClient({ baseUrl: `${listening.url}/api/v2`, ...emulator.credentials });
    const types = await management.request({ method: 'GET', path: 'guardian/factors/phone/message-types' });
    expect(types).toHaveProperty('message_types');
    await expect(management.request({ method: 'POST', path: 'roles', body: { name: 'editor' } })).rejects.toBeInstanceOf(NotFoundError);
  });
});
