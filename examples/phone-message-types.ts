/** Reads the enabled phone MFA factor types, replaces them (JSON, then a form body), and restores them. */
import { ManagementClient } from 'idplatform/management';
import type { Tenant } from './tenant.js';

export default async function phoneMessageTypes(tenant: Tenant): Promise<void> {
  const { endpoint, credentials } = tenant;
  const management = new ManagementClient({
    ...endpoint, // { domain: 'acme.example.com' }, or the emulator's { baseUrl: 'http://127.0.0.1:…/api/v2' }
    ...credentials, // { clientId, clientSecret }, or { clientId, clientAssertionSigningKey } (see private-key-jwt.ts)
  });
  const before = await management.guardian.phone.getMessageTypes();
  console.log(`Enabled phone factors: ${before.message_types.join(', ') || 'none'}`);

  const both = await management.guardian.phone.setMessageTypes({ message_types: ['sms', 'voice'] });
  console.log(`After a JSON PUT: ${both.message_types.join(', ')}`);

  const voiceOnly = await management.guardian.phone.setMessageTypes({ message_types: ['voice'] }, { encoding: 'form' });
  console.log(`After a form PUT (message_types=voice): ${voiceOnly.message_types.join(', ')}`);

  // A type the platform added later is read, but only known types can be written back.
  const known = before.message_types.filter((type): type is 'sms' | 'voice' => type === 'sms' || type === 'voice');
  const restored = await management.guardian.phone.setMessageTypes({ message_types: known });
  console.log(`Restored: ${restored.message_types.join(', ') || 'none'}`);
  const unwritable = before.message_types.filter((type) => !known.includes(type as 'sms' | 'voice'));
  if (unwritable.length > 0) console.log(`Not restored (types this SDK cannot write): ${unwritable.join(', ')}`);
}
