/**
 * Calls endpoints the client has no method for with `management.request()`: it
 * creates a role (`POST /roles`) and lists its users, through the same token,
 * retries, rate limits and errors as the built-in methods. The tenant emulator
 * knows only the four documented operations and answers 404 for the rest, which
 * the example handles; a real tenant (IDP_* set) creates the role, and the example
 * deletes it again.
 */
import { encodePath, ManagementClient, NotFoundError } from 'idplatform/management';
import * as z from 'zod/mini';
import type { Tenant } from './tenant.js';

/** The members of a role this example reads; other members are kept but not typed. */
const RoleSchema = z.looseObject({ id: z.string(), name: z.string() });

export default async function customRequest(tenant: Tenant): Promise<void> {
  const management = new ManagementClient({
    ...tenant.endpoint, // { domain: 'acme.example.com' }, or the emulator's { baseUrl: 'http://127.0.0.1:…/api/v2' }
    ...tenant.credentials, // { clientId, clientSecret }, or { clientId, clientAssertionSigningKey }
  });

  // A documented endpoint through request(): the body comes back unchecked, as `unknown`.
  const phone = await management.request({ method: 'GET', path: 'guardian/factors/phone/message-types' });
  console.log('GET /guardian/factors/phone/message-types →', JSON.stringify(phone));

  try {
    // With a schema, the body is checked and typed: `role.id` is a string.
    const role = await management.request({
      method: 'POST',
      path: 'roles',
      body: { name: `example-role-${Date.now()}`, description: 'created by examples/custom-request.ts' },
      schema: RoleSchema,
    });
    console.log(`Created role ${role.id} (${role.name})`);
    const users = await management.request({ method: 'GET', path: encodePath`roles/${role.id}/users`, query: { per_page: 5 } });
    console.log(`Its users: ${JSON.stringify(users)}`);
    await management.request({ method: 'DELETE', path: encodePath`roles/${role.id}` });
    console.log(`Deleted role ${role.id}`);
  } catch (error) {
    if (!(error instanceof NotFoundError)) throw error;
    console.log(
      `POST /roles answered ${error.status} ${error.error}: this tenant has no such endpoint (the emulator knows four operations)`,
    );
  }
}
