import type { Clock } from '../../clock.js';
import type { ClientCredentials } from '../credentials.js';
import { clientSecretBasic, clientSecretPost } from './client-secret.js';
import { clientIdOnly } from './none.js';
import { tlsClientAuth } from './tls-client-auth.js';
import type { ClientAuthentication } from './types.js';

/**
 * The {@link ClientAuthentication} of resolved credentials. `private_key_jwt` is
 * loaded on demand, so that code which never signs an assertion (a browser app, a
 * client with a secret) never loads jose.
 */
export async function createClientAuthentication(credentials: ClientCredentials, clock: Pick<Clock, 'now'>): Promise<ClientAuthentication> {
  switch (credentials.method) {
    case 'client_secret_post':
      return clientSecretPost(credentials.clientId, credentials.clientSecret);
    case 'client_secret_basic':
      return clientSecretBasic(credentials.clientId, credentials.clientSecret);
    case 'tls_client_auth':
      return tlsClientAuth(credentials.clientId, credentials.mtls.edgeHeaders);
    case 'none':
      return clientIdOnly(credentials.clientId);
    case 'private_key_jwt': {
      const { privateKeyJwt } = await import('./private-key-jwt.js');
      return privateKeyJwt(credentials.clientId, credentials.signingKey, credentials.alg, () => clock.now());
    }
  }
}
