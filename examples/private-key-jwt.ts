/**
 * Client credentials with a signed client assertion (`private_key_jwt`) instead of a
 * secret. Against the emulator a key pair is made here and its public key registered;
 * against a real tenant, `IDP_CLIENT_ASSERTION_KEY` holds the PKCS#8 PEM.
 */

import { ManagementClient } from 'idplatform/management';
import { exportPKCS8, exportSPKI, generateKeyPair } from 'jose';
import type { Tenant } from './tenant.js';

export default async function privateKeyJwt(tenant: Tenant): Promise<void> {
  const { emulator } = tenant;
  let clientId = process.env.IDP_CLIENT_ID ?? '';
  let key = process.env.IDP_CLIENT_ASSERTION_KEY;
  if (emulator) {
    const { privateKey, publicKey } = await generateKeyPair('RS256', { extractable: true });
    clientId = 'example-key-client';
    key = await exportPKCS8(privateKey);
    emulator.registerClient({
      clientId,
      publicKey: await exportSPKI(publicKey),
      scopes: ['read:guardian_factors'],
      tokenEndpointAuthMethod: 'private_key_jwt',
    });
    console.log(`Registered ${clientId} with an RS256 public key.`);
  }
  if (!key) {
    console.log('Set IDP_CLIENT_ASSERTION_KEY (a PKCS#8 PEM) to run this example against a real tenant.');
    return;
  }
  const management = new ManagementClient({
    ...tenant.endpoint, // { domain: 'acme.example.com' }, or the emulator's { baseUrl: 'http://127.0.0.1:…/api/v2' }
    clientId,
    clientAssertionSigningKey: key, // a PKCS#8 PEM, a CryptoKey or a JWK; clientAssertionSigningAlg defaults to RS256
  });
  const { message_types } = await management.guardian.phone.getMessageTypes();
  console.log(`Authenticated with a client assertion; phone factors: ${message_types.join(', ') || 'none'}`);
}
