/**
 * Lists every invitation of an organization with the iterator, showing progress,
 * and explains the API's 1000-record paging window when the organization has more.
 */
import { ManagementClient, PagingLimitError } from 'idplatform/management';
import { progress } from './progress.js';
import type { Tenant } from './tenant.js';

export default async function listInvitations(tenant: Tenant): Promise<void> {
  const { endpoint, credentials } = tenant;
  const management = new ManagementClient({
    ...endpoint, // { domain: 'acme.example.com' }, or the emulator's { baseUrl: 'http://127.0.0.1:…/api/v2' }
    ...credentials, // { clientId, clientSecret }, or { clientId, clientAssertionSigningKey } (see private-key-jwt.ts)
  });
  const organization = tenant.ids.organization;

  const firstPage = await management.organizations.invitations.list(organization, { per_page: 3, include_totals: true });
  console.log(`First page of ${organization} (start ${firstPage.start}, limit ${firstPage.limit}):`);
  for (const invitation of firstPage.invitations) {
    console.log(
      `  ${invitation.id}  ${invitation.invitee?.email} invited by ${invitation.inviter?.name}, expires ${invitation.expires_at}`,
    );
  }

  const show = progress('invitations');
  let count = 0;
  const inviters = new Map<string, number>();
  try {
    for await (const invitation of management.organizations.invitations.iterate(organization, { per_page: 100 })) {
      count += 1;
      const inviter = invitation.inviter?.name ?? 'unknown';
      inviters.set(inviter, (inviters.get(inviter) ?? 0) + 1);
      show(count);
    }
    show.done(count);
    console.log(`All ${count} invitations listed.`);
  } catch (error) {
    if (!(error instanceof PagingLimitError)) throw error;
    show.done(count);
    console.log(
      `Listed the first ${error.reachable} invitations: the API pages through 1000 records at most, and this organization has more.`,
    );
  }
  const top = [...inviters].sort((a, b) => b[1] - a[1]).slice(0, 3);
  console.log(`Busiest inviters: ${top.map(([name, n]) => `${name} (${n})`).join(', ')}`);
}
