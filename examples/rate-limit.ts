/**
 * What a 429 looks like from the SDK: it waits until `X-RateLimit-Reset` and retries;
 * a wait longer than `maxDelayMs` is thrown at once as `RateLimitError`, which says
 * when to come back. Against the emulator the 429s are scripted; against a real
 * tenant the example only shows the rate-limit state of each response.
 */
import { ManagementClient, RateLimitError, type ResponseInfo } from 'idplatform/management';
import type { Tenant } from './tenant.js';

export default async function rateLimit(tenant: Tenant): Promise<void> {
  const log = ({ method, path, status, rateLimit }: ResponseInfo) =>
    console.log(
      `  ${method} ${path} → ${status}${rateLimit ? ` (${rateLimit.remaining}/${rateLimit.limit} left, reset ${rateLimit.reset.toISOString()})` : ''}`,
    );
  const { endpoint, credentials } = tenant;
  const management = new ManagementClient({
    ...endpoint, // { domain: 'acme.example.com' }, or the emulator's { baseUrl: 'http://127.0.0.1:…/api/v2' }
    ...credentials, // { clientId, clientSecret }, or { clientId, clientAssertionSigningKey } (see private-key-jwt.ts)
    onResponse: log,
    retry: { maxRetries: 3, maxDelayMs: 5_000 },
  });
  const { emulator } = tenant;
  const path = '/api/v2/guardian/factors/phone/message-types';

  emulator?.faults.next(1, { status: 429, retryAfterSeconds: 1, path });
  console.log(emulator ? 'One request, rate-limited once (scripted):' : 'One request:');
  const started = Date.now();
  const types = await management.guardian.phone.getMessageTypes();
  console.log(`  → ${types.message_types.join(', ')} after ${((Date.now() - started) / 1000).toFixed(1)} s`);

  if (!emulator) return;
  emulator.faults.next(1, { status: 429, retryAfterSeconds: 120, path });
  console.log('A 429 whose reset is 120 s away, with maxDelayMs 5 s:');
  try {
    await management.guardian.phone.getMessageTypes();
  } catch (error) {
    if (!(error instanceof RateLimitError)) throw error;
    console.log(`  RateLimitError at once: "${error.message}"; come back at ${error.rateLimit?.reset.toISOString()}`);
  }
}
