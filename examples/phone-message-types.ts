/** Reads the enabled phone MFA factor types, replaces them (JSON, then a form body), and restores them. */
import type { Tenant } from './tenant.js';

export default async function phoneMessageTypes(tenant: Tenant): Promise<void> {
  const management = tenant.management();
  const before = await management.guardian.phone.getMessageTypes();
  console.log(`Enabled phone factors: ${before.message_types.join(', ') || 'none'}`);

  const both = await management.guardian.phone.setMessageTypes({ message_types: ['sms', 'voice'] });
  console.log(`After a JSON PUT: ${both.message_types.join(', ')}`);

  const voiceOnly = await management.guardian.phone.setMessageTypes({ message_types: ['voice'] }, { encoding: 'form' });
  console.log(`After a form PUT (message_types=voice): ${voiceOnly.message_types.join(', ')}`);

  await management.guardian.phone.setMessageTypes({ message_types: before.message_types });
  console.log(`Restored: ${before.message_types.join(', ') || 'none'}`);
}
