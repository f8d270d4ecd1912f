import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import * as z from 'zod/mini';
import { compileResponseCheck } from '../../src/core/compiled-schema.js';
import { OrganizationInvitationPageSchema, OrganizationInvitationSchema } from '../../src/management/organizations/invitations.js';

const SEED = Number(process.env.FC_SEED ?? 20_261_125);
const RUNS = Number(process.env.FC_RUNS ?? 300);

/** One invitation that passes the schema, every property given. */
const invitation = (index: number) => ({
  id: `uinv_${index}`,
  organization_id: 'org_1',
  inviter: { name: 'Ada' },
  invitee: { email: `user${index}@example.com` },
  invitation_url: `https://acme.example.com/login?invitation=${index}`,
  created_at: '2026-11-25T10:00:00.000Z',
  expires_at: '2026-12-02T10:00:00.000Z',
  client_id: 'client_1',
  connection_id: 'con_1',
  app_metadata: { plan: 'pro' },
  user_metadata: {},
  roles: ['rol_1'],
  ticket_id: `tkt_${index}`,
});

/** Each property of an invitation: left out, a valid value (most often), or now and then a value of the wrong kind. */
const property = (valid: unknown) =>
  fc.oneof(
    { arbitrary: fc.constant(undefined), weight: 4 },
    { arbitrary: fc.constant(valid), weight: 10 },
    { arbitrary: fc.constantFrom(42, null, '', 'x', [], {}, ['']), weight: 1 },
  );

/** Records made of valid, missing and wrong properties, with an unknown one now and then. */
const record = fc
  .record({
    values: fc.record(Object.fromEntries(Object.entries(invitation(1)).map(([key, value]) => [key, property(value)]))),
    extra: fc.option(fc.constantFrom({ added_later: 1 }, { roles_count: 'many' })),
  })
  .map(({ values, extra }) => {
    const entries = Object.entries(values).filter(([, value]) => value !== undefined);
    return { ...Object.fromEntries(entries), ...extra };
  });

/** The server build's check of `schema` (the browser build compiles none). */
function compiledCheck(schema: z.ZodMiniType): (body: unknown) => boolean {
  const check = compileResponseCheck(schema);
  if (check === undefined) throw new Error('the server build compiles every schema');
  return check;
}

describe('compileResponseCheck', () => {
  const pageCheck = compiledCheck(OrganizationInvitationPageSchema);
  const listCheck = compiledCheck(z.array(OrganizationInvitationSchema));

  it('passes a page whose records all have every property, and fails it when one value is wrong', () => {
    const invitations = Array.from({ length: 50 }, (_, index) => invitation(index));
    expect(pageCheck({ start: 0, limit: 50, invitations })).toBe(true);
    const wrong = invitations.map((item, index) => (index === 37 ? { ...item, roles: [] } : item));
    expect(pageCheck({ start: 0, limit: 50, invitations: wrong })).toBe(false);
  });

  it('passes records that each lack some properties (the key set all of them have is required, no other)', () => {
    const { roles: _roles, ...withoutRoles } = invitation(2);
    const { app_metadata: _metadata, ...withoutMetadata } = invitation(3);
    expect(listCheck([invitation(1), withoutRoles, withoutMetadata])).toBe(true);
    expect(listCheck([withoutRoles, { ...withoutMetadata, roles: 'rol_1' }])).toBe(false);
  });

  it('answers as z.validate on the schema for any mix of records (property-based)', () => {
    let passed = 0;
    fc.assert(
      fc.property(fc.array(record, { maxLength: 6 }), (records) => {
        const page = { start: 0, limit: 50, invitations: records };
        if (z.validate(OrganizationInvitationPageSchema, page)) passed++;
        expect(pageCheck(page)).toBe(z.validate(OrganizationInvitationPageSchema, page));
        expect(listCheck(records)).toBe(z.validate(z.array(OrganizationInvitationSchema), records));
      }),
      { seed: SEED, numRuns: RUNS },
    );
    expect(passed).toBeGreaterThan(RUNS / 10); // valid pages of records with different key sets, not only failures
  });

  it('answers as z.validate for bodies that are not pages or lists of objects', () => {
    const bodies: unknown[] = [null, 'text', 42, [], {}, { invitations: 'none' }, [null], [invitation(1), 7], { start: 0, limit: 1 }];
    for (const body of bodies) {
      expect(pageCheck(body)).toBe(z.validate(OrganizationInvitationPageSchema, body));
      expect(listCheck(body)).toBe(z.validate(z.array(OrganizationInvitationSchema), body));
    }
  });

  it('keeps an optional property with checks of its own optional, so its checks still apply', () => {
    const tagged = z.array(z.looseObject({ tag: z.optional(z.string()).check(z.refine((value) => value !== 'forbidden')) }));
    const check = compiledCheck(tagged);
    for (const body of [[{ tag: 'ok' }], [{ tag: 'forbidden' }], [{ tag: 'ok' }, {}]]) {
      expect(check(body)).toBe(z.validate(tagged, body));
    }
    expect(check([{ tag: 'forbidden' }])).toBe(false);
  });

  it('keeps the array’s own checks in its copies (a record list of at most two)', () => {
    const check = compiledCheck(z.array(OrganizationInvitationSchema).check(z.maxLength(2)));
    expect(check([invitation(1), invitation(2)])).toBe(true);
    expect(check([invitation(1), invitation(2), invitation(3)])).toBe(false);
  });
});
