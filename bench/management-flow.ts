/**
 * A browser (or worker) app that holds a Management API token and makes three
 * calls: the entry `scripts/bundle-size.mjs` bundles for the browser to measure
 * what `ManagementClient` costs.
 */
import { ManagementClient } from 'idplatform/management';

/** Lists an organization's invitations, an action module's users and the phone factor's message types. */
export async function loadDashboard(domain: string, token: string, organizationId: string, moduleId: string) {
  const management = new ManagementClient({ domain, token });
  const invitations = await management.organizations.invitations.list(organizationId);
  const moduleUsage = await management.actions.modules.listActions(moduleId);
  const phone = await management.guardian.phone.getMessageTypes();
  return { invitations, moduleUsage, messageTypes: phone.message_types };
}
