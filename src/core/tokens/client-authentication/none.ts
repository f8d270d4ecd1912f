import type { ClientAuthentication } from './types.js';

/** Client id only (`none`): public applications (SPAs, mobile apps) that hold no secret (spec 5.2). */
export function clientIdOnly(clientId: string): ClientAuthentication {
  return {
    method: 'none',
    apply: ({ body }) => {
      body.set('client_id', clientId);
      return [];
    },
  };
}
