import { describe, expect, it } from 'vitest';
import { ManagementClient, RequestValidationError } from '../../src/management/index.js';

// Plain JavaScript can leave out what the types require: the error names the parameter.
const management = new ManagementClient({ domain: 'tenant.test', token: 'a-token' });
const asJavaScript = <T>(value: unknown) => value as T;

describe('a missing positional argument from plain JavaScript', () => {
  it.each([
    ['invitations.list', () => management.organizations.invitations.list(asJavaScript(undefined)), 'organizationId is required'],
    [
      'invitations.list with a number',
      () => management.organizations.invitations.list(asJavaScript(42)),
      'organizationId must be a string',
    ],
    ['actions.modules.listActions', () => management.actions.modules.listActions(asJavaScript(undefined)), 'moduleId is required'],
  ])('%s names the parameter', async (_, call, message) => {
    const error = await call().catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(RequestValidationError);
    expect((error as Error).message).toBe(`Invalid request parameters: ${message}`);
  });

  it('names it for the iterators too, before the first request', () => {
    expect(() => management.organizations.invitations.iterate(asJavaScript(undefined))).toThrow('organizationId is required');
    expect(() => management.actions.modules.iterateActions(asJavaScript(undefined))).toThrow('moduleId is required');
  });
});
