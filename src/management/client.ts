import type * as z from 'zod/mini';
import { IdPlatformError, messageOf } from '../core/errors.js';
import type { RequestOptions } from '../core/options.js';
import { Transport } from '../core/transport.js';
import { validateParams } from '../core/validation.js';
import { ActionModules } from './actions/modules.js';
import type { CustomRequest } from './custom-request.js';
import { GuardianPhone } from './guardian/phone.js';
import { type ManagementClientOptions, resolveManagementOptions } from './options.js';
import { OrganizationInvitations } from './organizations/invitations.js';

const inspectSymbol = Symbol.for('nodejs.util.inspect.custom');

/**
 * The Management API client, at `https://{domain}/api/v2`.
 * It has one namespace per resource, over one shared transport.
 * The transport fetches and caches client-credentials tokens, and retries a 429 after `X-RateLimit-Reset`.
 * It checks parameters before sending and validates every response.
 *
 * ```ts
 * const management = new ManagementClient({ domain: 'acme.example-tenant.com', clientId, clientSecret });
 * const invitations = await management.organizations.invitations.list('org_123');
 * ```
 *
 * Throws `ConfigurationError` when the options are wrong or incomplete.
 */
export class ManagementClient {
  /** Organizations and what belongs to them. */
  readonly organizations: {
    /** `organizations.invitations`: list and iterate an organization's invitations. */
    readonly invitations: OrganizationInvitations;
  };
  /** Actions and what belongs to them. */
  readonly actions: {
    /** `actions.modules`: the actions that use an actions module. */
    readonly modules: ActionModules;
  };
  /** MFA (guardian) settings. */
  readonly guardian: {
    /** `guardian.phone`: the enabled phone factor types. */
    readonly phone: GuardianPhone;
  };
  readonly #baseUrl: string;
  readonly #transport: Transport;

  constructor(options: ManagementClientOptions) {
    const settings = resolveManagementOptions(options);
    const transport = new Transport(settings);
    this.#transport = transport;
    this.#baseUrl = settings.baseUrl;
    this.organizations = Object.freeze({ invitations: new OrganizationInvitations(transport) });
    this.actions = Object.freeze({ modules: new ActionModules(transport) });
    this.guardian = Object.freeze({ phone: new GuardianPhone(transport) });
  }

  /**
   * Sends any other Management API call through the client's transport.
   * It gets the same token, retries, rate limits, timeouts and errors as the built-in methods.
   * With `schema`, the 2xx body is checked against it and typed by it.
   * Without one, the body is returned unchecked, typed `unknown`.
   * Name a type to get it instead (`request<Role>(…)`): your assertion, not checked.
   * The request's shape is checked first: a broken rule throws `RequestValidationError`, and nothing is sent.
   * See {@link CustomRequest} for the rules.
   *
   * ```ts
   * const role = await management.request<{ id: string }>({ method: 'POST', path: 'roles', body: { name: 'editor' } });
   * const users = await management.request({ method: 'GET', path: encodePath`roles/${roleId}/users`, schema: UsersSchema });
   * ```
   */
  // One signature, so that a mistake gets one short error. With a schema, the result is the schema's
  // own output type (zod/mini or classic zod), read from `S`. Inferred through `Schema<T>`, a classic
  // schema's `T` would gain `| undefined` without `exactOptionalPropertyTypes`.
  request<T = unknown, S extends z.core.$ZodType = never>(
    request: CustomRequest<T, S>,
    options?: RequestOptions,
  ): Promise<[S] extends [never] ? T : z.output<S>>;
  async request<T>(request: CustomRequest<T>, options?: RequestOptions): Promise<T | unknown> {
    // Its rules load with the first custom request: an app that never sends one never loads them.
    const { CustomRequestSchema, apiRequestOf } = await import('./custom-request.js').catch((error: unknown) => {
      throw new IdPlatformError(`management.request() could not load its code: ${messageOf(error)}`, {
        cause: error,
      });
    });
    return this.#transport.request(apiRequestOf(validateParams(CustomRequestSchema, request), options));
  }

  /** `util.inspect` shows the base URL only: never credentials. */
  [inspectSymbol](): string {
    return `ManagementClient { baseUrl: '${this.#baseUrl}' }`;
  }

  /** `JSON.stringify` shows the base URL only: never credentials. */
  toJSON(): { baseUrl: string } {
    return { baseUrl: this.#baseUrl };
  }
}
