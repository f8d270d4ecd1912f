/**
 * The dependency floor of `bench/management-flow.ts`, for `scripts/bundle-size.mjs`:
 * the three calls of that flow made with ky and checked with zod/mini against the
 * SDK's own exported response schemas, and nothing else of the SDK (no token
 * handling, parameter rules, pacing, retries, errors, redaction). What this bundle
 * weighs is what any ManagementClient that validates those answers with the SDK's
 * dependencies carries before a line of its own code.
 */
import ky from 'ky';
import * as z from 'zod/mini';
import type { Schema } from '../src/core/validation.js';
// The schemas' own modules, not the `idplatform/management` entry: the entry's error
// classes are kept by any bundle that imports it, and they are SDK code, not the floor.
import { ActionModuleUsagePageSchema } from '../src/management/actions/modules.js';
import { PhoneMessageTypesSchema } from '../src/management/guardian/phone.js';
import { OrganizationInvitationPageSchema } from '../src/management/organizations/invitations.js';

/** Sends one GET with ky, as the SDK's transport configures it, and checks the answer with zod. */
async function get<T>(http: typeof ky, path: string, schema: Schema<T>): Promise<T> {
  const body: unknown = await http.get(path, { timeout: 30_000 }).json();
  if (z.validate(schema, body)) return body as T;
  throw z.safeParse(schema, body).error;
}

/** The same three calls as `loadDashboard` in `bench/management-flow.ts`. */
export async function loadDashboard(domain: string, token: string, organizationId: string, moduleId: string) {
  const http = ky.create({
    prefixUrl: `https://${domain}/api/v2`,
    retry: 0,
    throwHttpErrors: false,
    redirect: 'manual',
    headers: { accept: 'application/json', authorization: `Bearer ${token}` },
  });
  const invitations = await get(
    http,
    `organizations/${encodeURIComponent(organizationId)}/invitations?include_totals=true`,
    OrganizationInvitationPageSchema,
  );
  const moduleUsage = await get(http, `actions/modules/${encodeURIComponent(moduleId)}/actions`, ActionModuleUsagePageSchema);
  const phone = await get(http, 'guardian/factors/phone/message-types', PhoneMessageTypesSchema);
  return { invitations, moduleUsage, messageTypes: phone.message_types };
}
