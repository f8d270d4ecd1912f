import { HttpResponse, http } from 'msw';
import { describe, expect, it } from 'vitest';
import { InsufficientScopeError } from '../../../src/core/errors.js';
import { ManagementClient } from '../../../src/management/client.js';
import { jwtWithClaims } from '../../helpers/jwt.js';
import { API, useMswServer } from '../../helpers/server.js';

const server = useMswServer();

describe('InsufficientScopeError.granted', () => {
  it("is not the client's cached scope list: changing it cannot switch the pre-check off", async () => {
    let sent = 0;
    server.use(
      http.get(`${API}/organizations/org_1/invitations`, () => {
        sent++;
        return HttpResponse.json([]);
      }),
    );
    const management = new ManagementClient({ baseUrl: API, token: jwtWithClaims({ scope: 'read:users' }), retry: false });
    const first = await management.organizations.invitations.list('org_1').catch((caught: unknown) => caught);
    expect(first).toBeInstanceOf(InsufficientScopeError);
    // e.g. a logger or UI that appends to / normalises the list it was handed
    (first as { granted: string[] }).granted.push('read:organization_invitations');
    const second = await management.organizations.invitations.list('org_1').catch((caught: unknown) => caught);
    expect(second).toBeInstanceOf(InsufficientScopeError);
    expect(sent).toBe(0);
  });
});
