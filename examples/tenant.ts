/**
 * Where the examples run: against a real tenant when `IDP_DOMAIN`, `IDP_CLIENT_ID`
 * and `IDP_CLIENT_SECRET` (or `IDP_CLIENT_ASSERTION_KEY`, a PKCS#8 PEM) are set,
 * otherwise against the tenant emulator of `idplatform/testing`, started here on
 * 127.0.0.1 and stopped when the example ends.
 */
import type { ClientAssertionGrantOptions, ClientSecretGrantOptions, TenantLocation } from 'idplatform/management';
import { createTenantEmulator, SEED_IDS, type TenantEmulator } from 'idplatform/testing';

/**
 * What an example gets: where the tenant is and the credentials of its
 * machine-to-machine client (each example builds its own client from them,
 * inline, so that it can be copied), the ids to use, and the emulator when there is one.
 */
export interface Tenant {
  /** `"the tenant emulator at http://127.0.0.1:…"` or `"the tenant acme.example.com"`. */
  readonly description: string;
  /** The emulator, when the examples run against it (for scripting faults or registering clients). */
  readonly emulator: TenantEmulator | undefined;
  /** The client options that reach this tenant, without credentials. */
  readonly endpoint: TenantLocation;
  /** The credentials of the tenant's machine-to-machine client. */
  readonly credentials: ClientSecretGrantOptions | ClientAssertionGrantOptions;
  /** Ids to use: from `IDP_ORGANIZATION_ID` / `IDP_MODULE_ID`, or the emulator's seed. */
  readonly ids: { readonly organization: string; readonly smallOrganization: string; readonly module: string };
  close(): Promise<void>;
}

/** Connects to the real tenant named by the environment, or starts the emulator. */
export async function connectTenant(): Promise<Tenant> {
  const { IDP_DOMAIN, IDP_CLIENT_ID, IDP_CLIENT_SECRET, IDP_CLIENT_ASSERTION_KEY } = process.env;
  if (IDP_DOMAIN && IDP_CLIENT_ID && (IDP_CLIENT_SECRET || IDP_CLIENT_ASSERTION_KEY)) {
    const organization = process.env.IDP_ORGANIZATION_ID ?? '';
    const credentials = IDP_CLIENT_SECRET
      ? { clientId: IDP_CLIENT_ID, clientSecret: IDP_CLIENT_SECRET }
      : { clientId: IDP_CLIENT_ID, clientAssertionSigningKey: IDP_CLIENT_ASSERTION_KEY };
    return tenant(`the tenant ${IDP_DOMAIN}`, undefined, { domain: IDP_DOMAIN }, credentials, {
      organization,
      smallOrganization: organization,
      module: process.env.IDP_MODULE_ID ?? '',
    });
  }
  const emulator = createTenantEmulator();
  const server = await emulator.listen();
  const ids = { organization: SEED_IDS.bigOrganization, smallOrganization: SEED_IDS.smallOrganization, module: SEED_IDS.sharedModule };
  return tenant(
    `the tenant emulator at ${server.url}`,
    emulator,
    { baseUrl: `${server.url}/api/v2` },
    emulator.credentials,
    ids,
    server.close,
  );
}

function tenant(
  description: string,
  emulator: TenantEmulator | undefined,
  endpoint: Tenant['endpoint'],
  credentials: Tenant['credentials'],
  ids: Tenant['ids'],
  close: () => Promise<void> = async () => {},
): Tenant {
  return {
    description,
    emulator,
    endpoint,
    credentials,
    ids,
    close,
  };
}
