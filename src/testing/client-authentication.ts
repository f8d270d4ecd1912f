import type { EmulatedAuthMethod, RegisteredClient } from './clients.js';
import { authenticationError } from './responses.js';
import { ASSERTION_ALGORITHMS, JWT_BEARER_ASSERTION_TYPE } from './spec.js';

/** Assertions may live 10 minutes at most, so that remembering used `jti`s stays bounded. */
const MAX_ASSERTION_LIFETIME_MS = 10 * 60_000;

/** What the token endpoint needs to authenticate a client. */
export interface ClientAuthenticationContext {
  readonly clients: ReadonlyMap<string, RegisteredClient>;
  readonly now: () => number;
  /** `client:jti` of every accepted assertion → its `exp` in ms; an assertion is accepted once. */
  readonly usedAssertions: Map<string, number>;
}

/** The client that proved who it is, and how. */
export interface AuthenticatedClient {
  readonly client: RegisteredClient;
  readonly method: EmulatedAuthMethod;
}

/**
 * Authenticates the client of a token request, with one of three methods.
 * `client_secret_basic`: `Authorization: Basic base64(urlencode(id):urlencode(secret))` (RFC 6749 §2.3.1).
 * `private_key_jwt`: a `client_assertion` verified against the client's public key.
 * Its `iss` and `sub` are the client id, and its `aud` is `{origin}/` or the token endpoint URL.
 * Its `exp` lies in the future, and its `jti` was never seen before.
 * `client_secret_post`: `client_id` and `client_secret` in the body.
 * When authentication fails, this answers the error response.
 * That is 401 `invalid_client`, or 400 `invalid_request` for a request that mixes methods.
 */
export async function authenticateClient(
  request: Request,
  params: ReadonlyMap<string, string>,
  origin: string,
  context: ClientAuthenticationContext,
): Promise<AuthenticatedClient | Response> {
  const authorization = request.headers.get('authorization');
  const assertion = params.get('client_assertion');
  const assertionType = params.get('client_assertion_type');
  const secret = params.get('client_secret');
  const bodyClientId = params.get('client_id');
  const basic = authorization !== null && /^basic\s/i.test(authorization);
  const used = [basic, assertion !== undefined || assertionType !== undefined, secret !== undefined].filter(Boolean).length;
  if (used > 1) return invalidRequest('Use only one client authentication method');

  if (basic) {
    const candidates = decodeBasic(authorization.replace(/^basic\s+/i, ''));
    const [asSent] = candidates;
    if (asSent === undefined) return invalidClient('Malformed Basic credentials', origin);
    // The pair as sent, or form-decoded: whichever names a client whose secret it is (else as sent, to be refused).
    const credentials = candidates.find(({ clientId, clientSecret }) => isClientSecret(context, clientId, clientSecret)) ?? asSent;
    if (bodyClientId !== undefined && bodyClientId !== credentials.clientId) {
      return invalidRequest('client_id in the body differs from the one in the Authorization header');
    }
    return checkSecret(context, credentials.clientId, credentials.clientSecret, 'client_secret_basic', origin);
  }
  if (assertion !== undefined || assertionType !== undefined) {
    if (assertionType !== JWT_BEARER_ASSERTION_TYPE) return invalidRequest(`client_assertion_type must be ${JWT_BEARER_ASSERTION_TYPE}`);
    if (assertion === undefined || assertion === '') return invalidRequest('Missing required parameter: client_assertion');
    return checkAssertion(context, assertion, bodyClientId, origin);
  }
  if (secret !== undefined) {
    if (bodyClientId === undefined) return invalidClient('Missing required parameter: client_id');
    return checkSecret(context, bodyClientId, secret, 'client_secret_post', origin);
  }
  return invalidClient(
    bodyClientId === undefined
      ? 'Client authentication is required'
      : 'The client_credentials grant needs client authentication (client_secret or client_assertion)',
  );
}

function checkSecret(
  context: ClientAuthenticationContext,
  clientId: string,
  secret: string,
  method: 'client_secret_post' | 'client_secret_basic',
  origin: string,
): AuthenticatedClient | Response {
  const client = context.clients.get(clientId);
  const challenge = method === 'client_secret_basic' ? origin : undefined;
  if (client === undefined) return invalidClient('Unknown client', challenge);
  if (!client.methods.has(method)) return invalidClient(`The client is not configured for ${method}`, challenge);
  if (!isClientSecret(context, clientId, secret)) return invalidClient('Wrong client credentials', challenge);
  return { client, method };
}

/** Whether `secret` is the secret of the client `clientId` (compared in constant time). */
function isClientSecret(context: ClientAuthenticationContext, clientId: string, secret: string): boolean {
  const expected = context.clients.get(clientId)?.clientSecret;
  return expected !== undefined && equalInConstantTime(expected, secret);
}

async function checkAssertion(
  context: ClientAuthenticationContext,
  assertion: string,
  bodyClientId: string | undefined,
  origin: string,
): Promise<AuthenticatedClient | Response> {
  // jose is loaded on the first assertion: importing the emulator (or the root entry) loads none of it.
  const { decodeJwt, jwtVerify } = await import('jose');
  let clientId = bodyClientId;
  if (clientId === undefined) {
    try {
      const { iss } = decodeJwt(assertion);
      clientId = iss;
    } catch {
      return invalidClient('Malformed client assertion');
    }
  }
  const client = clientId === undefined ? undefined : context.clients.get(clientId);
  if (client === undefined || clientId === undefined) return invalidClient('Unknown client');
  if (!client.methods.has('private_key_jwt') || client.assertionKey === undefined) {
    return invalidClient('The client is not configured for private_key_jwt');
  }
  const now = context.now();
  let jti: string;
  let expiresAtMs: number;
  try {
    const { payload } = await jwtVerify(assertion, client.assertionKey, {
      algorithms: [...ASSERTION_ALGORITHMS],
      issuer: clientId,
      subject: clientId,
      audience: [`${origin}/`, `${origin}/oauth/token`, `${origin}/oauth/token/`],
      currentDate: new Date(now),
      requiredClaims: ['exp', 'jti'],
    });
    jti = String(payload.jti);
    expiresAtMs = Number(payload.exp) * 1000;
  } catch (error) {
    return invalidClient(`Invalid client assertion: ${error instanceof Error ? error.message : 'verification failed'}`);
  }
  if (expiresAtMs - now > MAX_ASSERTION_LIFETIME_MS) {
    return invalidClient('Invalid client assertion: "exp" may be at most 10 minutes ahead');
  }
  for (const [key, expiry] of context.usedAssertions) if (expiry <= now) context.usedAssertions.delete(key);
  const key = `${clientId}\u0000${jti}`;
  if (context.usedAssertions.has(key)) return invalidClient('Invalid client assertion: this jti was already used');
  context.usedAssertions.set(key, expiresAtMs);
  return { client, method: 'private_key_jwt' };
}

/** A client id and secret as `Basic` credentials carry them. */
interface BasicCredentials {
  readonly clientId: string;
  readonly clientSecret: string;
}

/**
 * The readings of `Basic` credentials.
 * The first is Base64 of `id:secret`, as the platform's documentation writes it.
 * When it differs, the second is of `urlencode(id):urlencode(secret)`, as RFC 6749 §2.3.1 writes it.
 * The SDK sends that form; the two agree for ids and secrets of letters, digits, `-`, `_`, `.` and `*`.
 * Empty when the credentials are malformed.
 */
function decodeBasic(encoded: string): BasicCredentials[] {
  let text: string;
  try {
    const binary = atob(encoded.trim());
    text = new TextDecoder('utf-8', { fatal: true }).decode(Uint8Array.from(binary, (char) => char.charCodeAt(0)));
  } catch {
    return [];
  }
  const colon = text.indexOf(':');
  if (colon < 1) return [];
  const raw = { clientId: text.slice(0, colon), clientSecret: text.slice(colon + 1) };
  const clientId = formDecode(raw.clientId);
  const clientSecret = formDecode(raw.clientSecret);
  const decoded = clientId === undefined || clientSecret === undefined ? undefined : { clientId, clientSecret };
  return decoded === undefined || (decoded.clientId === raw.clientId && decoded.clientSecret === raw.clientSecret) ? [raw] : [raw, decoded];
}

function formDecode(value: string): string | undefined {
  try {
    return decodeURIComponent(value.replace(/\+/g, ' '));
  } catch {
    return undefined;
  }
}

function equalInConstantTime(expected: string, given: string): boolean {
  const a = new TextEncoder().encode(expected);
  const b = new TextEncoder().encode(given);
  let difference = a.length ^ b.length;
  for (let index = 0; index < Math.max(a.length, b.length); index++) difference |= (a[index] ?? 0) ^ (b[index] ?? 0);
  return difference === 0;
}

function invalidClient(description: string, basicRealm?: string): Response {
  const headers: Record<string, string> = basicRealm === undefined ? {} : { 'www-authenticate': `Basic realm="${basicRealm}"` };
  return authenticationError(401, 'invalid_client', description, headers);
}

function invalidRequest(description: string): Response {
  return authenticationError(400, 'invalid_request', description);
}
