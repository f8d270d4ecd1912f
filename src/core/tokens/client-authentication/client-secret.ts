import type { ClientAuthentication } from './types.js';

/** Sends the client id and secret in the form body (`client_secret_post`). */
export function clientSecretPost(clientId: string, clientSecret: string): ClientAuthentication {
  return {
    method: 'client_secret_post',
    apply: ({ body }) => {
      body.set('client_id', clientId);
      body.set('client_secret', clientSecret);
      return [clientSecret];
    },
  };
}

/**
 * Sends the client id and secret as `Authorization: Basic base64(urlencode(id):urlencode(secret))` (`client_secret_basic`).
 * Both parts are form-urlencoded first, as RFC 6749 §2.3.1 requires.
 * So ids with `:` or non-ASCII characters survive.
 */
export function clientSecretBasic(clientId: string, clientSecret: string): ClientAuthentication {
  const credentials = btoa(`${formEncode(clientId)}:${formEncode(clientSecret)}`);
  const secrets = [clientSecret, formEncode(clientSecret), credentials];
  return {
    method: 'client_secret_basic',
    apply: ({ headers }) => {
      headers.authorization = `Basic ${credentials}`;
      return secrets;
    },
  };
}

/** `application/x-www-form-urlencoded` encoding of one value (the result is ASCII). */
function formEncode(value: string): string {
  return new URLSearchParams([['', value]]).toString().slice(1);
}
