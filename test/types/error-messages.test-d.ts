/**
 * The commonest mistakes fail to compile (`error-messages.test.ts` checks what their one
 * error says), and the correct calls next to them still compile.
 */
import { describe, expectTypeOf, it } from 'vitest';
import * as z from 'zod/mini';
import { AuthenticationClient } from '../../src/auth/index.js';
import {
  type ClientAssertionGrantOptions,
  type ClientSecretGrantOptions,
  type CustomRequest,
  type ListOrganizationInvitationsParams,
  ManagementClient,
  type ManagementClientOptions,
  type OrganizationInvitation,
  type OrganizationInvitationPage,
  type TenantLocation,
} from '../../src/management/index.js';

declare const management: ManagementClient;
declare const domain: string, clientId: string, clientSecret: string, token: string, path: string, organizationId: string;
declare const signingKey: CryptoKey;

describe('organizations.invitations.list', () => {
  it('refuses perPage (the parameter is per_page)', () => {
    // @ts-expect-error per_page, not perPage
    management.organizations.invitations.list(organizationId, { perPage: 20 });
    management.organizations.invitations.list(organizationId, { per_page: 20 });
  });

  it('refuses a sort of another form than field:1 / field:-1', () => {
    // @ts-expect-error field:1 or field:-1
    management.organizations.invitations.list(organizationId, { sort: 'created_at:2' });
    // @ts-expect-error a sort is a string literal of that form, not any string
    management.organizations.invitations.list(organizationId, { sort: String(Math.random()) });
    management.organizations.invitations.list(organizationId, { sort: 'created_at:1' });
    management.organizations.invitations.list(organizationId, { sort: 'user_metadata.plan:-1' });
  });

  it('has its result type follow include_totals', () => {
    const flag = Math.random() > 0.5;
    expectTypeOf(
      management.organizations.invitations.list(organizationId, { include_totals: true }),
    ).resolves.toEqualTypeOf<OrganizationInvitationPage>();
    expectTypeOf(management.organizations.invitations.list(organizationId, { include_totals: flag })).resolves.toEqualTypeOf<
      OrganizationInvitationPage | OrganizationInvitation[]
    >();
  });

  it('takes parameters typed by the exported type, a sort variable of the exported sort type among them', () => {
    const params: ListOrganizationInvitationsParams = { per_page: 10, sort: 'invitee.email:1' };
    expectTypeOf(management.organizations.invitations.list(organizationId, params)).resolves.toEqualTypeOf<
      OrganizationInvitationPage | OrganizationInvitation[]
    >();
    const plain: ListOrganizationInvitationsParams<false> = { page: 2 };
    expectTypeOf(management.organizations.invitations.list(organizationId, plain)).resolves.toEqualTypeOf<OrganizationInvitation[]>();
  });
});

describe('new ManagementClient', () => {
  it('refuses a clientId without a credential', () => {
    // @ts-expect-error clientSecret (or clientAssertionSigningKey, or a token instead) is missing
    new ManagementClient({ domain, clientId });
    // @ts-expect-error the same with baseUrl
    new ManagementClient({ baseUrl: 'https://tenant.example/api/v2', clientId });
  });

  it('refuses two ways to authenticate', () => {
    // @ts-expect-error pass only one way to authenticate
    new ManagementClient({ domain, clientId, clientSecret, clientAssertionSigningKey: signingKey });
    // @ts-expect-error pass only one way to authenticate
    new ManagementClient({ domain, token, clientSecret });
    // @ts-expect-error pass only one way to authenticate
    new ManagementClient({ domain, clientId, clientSecret, token });
    // @ts-expect-error clientId goes with a client credential, not with token
    new ManagementClient({ domain, token, clientId });
  });

  it('refuses a missing or doubled location', () => {
    // @ts-expect-error domain or baseUrl is required
    new ManagementClient({ token });
    // @ts-expect-error domain or baseUrl, not both
    new ManagementClient({ domain, baseUrl: 'https://tenant.example/api/v2', token });
  });

  it('takes every way to authenticate, at a domain or a base URL', () => {
    new ManagementClient({ domain, token });
    new ManagementClient({ domain, token: async () => token });
    new ManagementClient({ domain, clientId, clientSecret, tokenEndpointAuthMethod: 'client_secret_basic', audience: 'https://api' });
    new ManagementClient({
      baseUrl: 'http://127.0.0.1:3000/api/v2',
      clientId,
      clientAssertionSigningKey: signingKey,
      clientAssertionSigningAlg: 'ES256',
    });
    new ManagementClient({ domain, clientId, clientSecret, validateResponses: false, timeoutMs: 5_000, retry: false });
  });

  it('takes a location and credentials kept apart, spread together', () => {
    const endpoint: TenantLocation = { domain };
    const credentials: ClientSecretGrantOptions | ClientAssertionGrantOptions = { clientId, clientSecret };
    new ManagementClient({ ...endpoint, ...credentials });
    const options: ManagementClientOptions = { ...endpoint, token };
    new ManagementClient(options);
  });
});

describe('new AuthenticationClient', () => {
  it('refuses two credentials', () => {
    // @ts-expect-error pass only one way to authenticate
    new AuthenticationClient({ domain, clientId, clientSecret, clientAssertionSigningKey: signingKey });
    // @ts-expect-error pass only one way to authenticate
    new AuthenticationClient({ domain, clientId, clientSecret, mtls: { fetch } });
  });

  it('takes no credential (a public application) or one', () => {
    new AuthenticationClient({ domain, clientId });
    new AuthenticationClient({ domain, clientId, clientSecret });
    new AuthenticationClient({ domain, clientId, clientAssertionSigningKey: signingKey });
    new AuthenticationClient({ domain, clientId, mtls: { fetch } });
  });
});

describe('management.request', () => {
  it('refuses a lower-case method', () => {
    // @ts-expect-error GET, POST, PUT, PATCH or DELETE
    management.request({ method: 'get', path });
  });

  it('refuses a GET with a body, also with the result type named, or in a CustomRequest', () => {
    // @ts-expect-error a GET request has no body
    management.request({ method: 'GET', path, body: { name: 'editor' } });
    // @ts-expect-error a GET request has no body
    management.request<{ id: string }>({ method: 'GET', path, body: { name: 'editor' } });
    // @ts-expect-error a GET request has no body
    const request: CustomRequest = { method: 'GET', path, body: 'x' };
    management.request({ method: 'DELETE', path, body: { ids: ['a'] } });
    management.request({ method: 'GET', path, body: undefined });
    return request;
  });

  it('is typed by the schema given', () => {
    expectTypeOf(management.request({ method: 'PATCH', path, body: {}, schema: z.object({ id: z.string() }) })).resolves.toEqualTypeOf<{
      id: string;
    }>();
  });
});
