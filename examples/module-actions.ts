/** Lists the actions that use an actions module: one page, then all of them with the iterator. */
import { ManagementClient } from 'idplatform/management';
import type { Tenant } from './tenant.js';

export default async function moduleActions(tenant: Tenant): Promise<void> {
  const { endpoint, credentials } = tenant;
  const management = new ManagementClient({
    ...endpoint, // { domain: 'acme.example.com' }, or the emulator's { baseUrl: 'http://127.0.0.1:…/api/v2' }
    ...credentials, // { clientId, clientSecret }, or { clientId, clientAssertionSigningKey } (see private-key-jwt.ts)
  });
  const { actions, total, per_page } = await management.actions.modules.listActions(tenant.ids.module, { page: 0, per_page: 5 });
  console.log(`Module ${tenant.ids.module} is used by ${total} action versions; the first ${per_page}:`);
  for (const action of actions) {
    const triggers = action.supported_triggers?.map((trigger) => `${trigger.id ?? '?'}@${trigger.version}`).join(', ');
    console.log(`  ${action.action_name} (module version ${action.module_version_number}) on ${triggers}`);
  }

  const byVersion = new Map<number, number>();
  let seen = 0;
  for await (const action of management.actions.modules.iterateActions(tenant.ids.module, { per_page: 50 })) {
    seen += 1;
    const version = action.module_version_number ?? 0;
    byVersion.set(version, (byVersion.get(version) ?? 0) + 1);
  }
  const summary = [...byVersion].sort((a, b) => a[0] - b[0]).map(([version, n]) => `v${version}: ${n}`);
  console.log(`Iterated all ${seen} (${summary.join(', ')}).`);
}
