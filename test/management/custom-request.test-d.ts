import { describe, expectTypeOf, it } from 'vitest';
import { z as classic } from 'zod';
import * as z from 'zod/mini';
import type { CustomRequest, ManagementClient } from '../../src/management/index.js';

declare const management: ManagementClient;

describe('management.request() types', () => {
  it('is unknown without a schema and the schema type with one (zod/mini or zod)', () => {
    expectTypeOf(management.request({ method: 'POST', path: 'roles', body: { name: 'x' } })).resolves.toEqualTypeOf<unknown>();
    expectTypeOf(management.request({ method: 'GET', path: 'roles/r', schema: z.object({ id: z.string() }) })).resolves.toEqualTypeOf<{
      id: string;
    }>();
    expectTypeOf(
      management.request({ method: 'GET', path: 'roles/r', schema: classic.object({ id: classic.string() }) }),
    ).resolves.toEqualTypeOf<{
      id: string;
    }>();
  });

  it('is the type named without a schema (an assertion of the caller, unchecked), as DESIGN writes it: request<T>(…)', () => {
    expectTypeOf(management.request<{ id: string }>({ method: 'GET', path: 'roles/r' })).resolves.toEqualTypeOf<{ id: string }>();
  });

  it('takes a request typed by the exported CustomRequest type, with or without a schema', () => {
    interface Role {
      id: string;
    }
    const RoleSchema = z.object({ id: z.string() });
    const plain: CustomRequest = { method: 'GET', path: 'roles' };
    const typed: CustomRequest<Role> = { method: 'GET', path: 'roles/r', schema: RoleSchema };
    expectTypeOf(management.request(plain)).resolves.toEqualTypeOf<unknown>();
    expectTypeOf(management.request(typed)).resolves.toEqualTypeOf<Role>();
    expectTypeOf(management.request<Role>({ method: 'GET', path: 'roles/r', schema: RoleSchema })).resolves.toEqualTypeOf<Role>();
  });

  it('refuses other methods and a missing path at compile time', () => {
    // @ts-expect-error TRACE is not sent
    management.request({ method: 'TRACE', path: 'roles' });
    // @ts-expect-error path is required
    management.request({ method: 'GET' });
  });
});
