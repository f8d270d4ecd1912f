import type { ClientAuthentication } from './types.js';

/** Sends the client id only (`none`): for public applications (SPAs, mobile apps) that hold no secret. */
export function clientIdOnly(clientId: string): ClientAuthentication {
  return {
    method: 'none',
    apply: ({ body }) => {
      body.set('client_id', clientId);
      return [];
    },
  };
}
