/**
 * Every example builds its own client, inline, with the constructor and its option
 * names in view, so that a reader can copy it (the shared examples/tenant.ts only
 * says where the tenant is and which credentials to use). `npm run example` runs them.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, it } from 'vitest';

const dir = join(import.meta.dirname, '../../examples');
/** The runner and its helpers; every other file is an example. */
const HELPERS = ['run.ts', 'tenant.ts', 'progress.ts'];
const examples = readdirSync(dir).filter((name) => name.endsWith('.ts') && !HELPERS.includes(name));

it('there are examples', () => {
  expect(examples.length).toBeGreaterThanOrEqual(5);
});

it.each(examples)('%s builds its client inline', (name) => {
  const source = readFileSync(join(dir, name), 'utf8');
  expect(source).toMatch(/new (ManagementClient|AuthenticationClient)\(\{\n\s+\S/);
  expect(source).toMatch(/from 'idplatform(\/\w+)?'/);
});

it('the tenant helper makes no clients', () => {
  expect(readFileSync(join(dir, 'tenant.ts'), 'utf8')).not.toMatch(/new (ManagementClient|AuthenticationClient)\(/);
});
