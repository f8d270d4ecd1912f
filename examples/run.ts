/**
 * Runs the examples: `npm run example` runs them all, `npm run example -- <name>`
 * one of them. Each runs against the tenant emulator unless IDP_DOMAIN,
 * IDP_CLIENT_ID and IDP_CLIENT_SECRET (or IDP_CLIENT_ASSERTION_KEY) are set.
 * Exits non-zero when an example fails.
 */
import customRequest from './custom-request.js';
import listInvitations from './list-invitations.js';
import moduleActions from './module-actions.js';
import phoneMessageTypes from './phone-message-types.js';
import privateKeyJwt from './private-key-jwt.js';
import rateLimit from './rate-limit.js';
import { connectTenant, type Tenant } from './tenant.js';

const examples: Record<string, (tenant: Tenant) => Promise<void>> = {
  'list-invitations': listInvitations,
  'module-actions': moduleActions,
  'phone-message-types': phoneMessageTypes,
  'rate-limit': rateLimit,
  'private-key-jwt': privateKeyJwt,
  'custom-request': customRequest,
};

const wanted = process.argv.slice(2);
const unknown = wanted.filter((name) => !(name in examples));
if (unknown.length) {
  console.error(`Unknown example ${unknown.join(', ')}; choose from ${Object.keys(examples).join(', ')}`);
  process.exit(2);
}

const tenant = await connectTenant();
console.log(`Running against ${tenant.description}\n`);
let failed = 0;
try {
  for (const name of wanted.length ? wanted : Object.keys(examples)) {
    console.log(`── ${name} ${'─'.repeat(Math.max(0, 60 - name.length))}`);
    try {
      await examples[name]?.(tenant);
    } catch (error) {
      failed += 1;
      console.error(`✗ ${name} failed: ${error instanceof Error ? `${error.name}: ${error.message}` : String(error)}`);
    }
    console.log('');
  }
} finally {
  await tenant.close();
}
console.log(failed ? `${failed} example(s) failed` : 'All examples ran.');
process.exit(failed ? 1 : 0);
