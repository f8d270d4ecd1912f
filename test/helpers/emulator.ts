import { createTenantEmulator, type TenantEmulator, type TenantEmulatorOptions } from '../../src/testing/index.js';

/** A clock for an emulator under the test's control: starts at 2030-01-01T00:00:00Z and moves only on `advance`. */
export function manualClock(start = Date.UTC(2030, 0, 1)) {
  let time = start;
  return {
    now: () => time,
    advance: (ms: number) => {
      time += ms;
    },
  };
}

/** An emulator on a manual clock, with the clock beside it. */
export function emulatorWithClock(options: TenantEmulatorOptions = {}) {
  const clock = manualClock();
  return { clock, emulator: createTenantEmulator({ now: clock.now, ...options }) };
}

/** `POST /oauth/token` with a form body (`params`) and optional headers. */
export function tokenRequest(
  emulator: TenantEmulator,
  params: Record<string, string>,
  headers: Record<string, string> = {},
): Promise<Response> {
  return emulator.handle(
    new Request(`${emulator.origin}/oauth/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers },
      body: new URLSearchParams(params),
    }),
  );
}

/** The client-credentials parameters of the default client (`client_secret_post`). */
export function defaultGrant(emulator: TenantEmulator): Record<string, string> {
  return {
    grant_type: 'client_credentials',
    client_id: emulator.credentials.clientId,
    client_secret: emulator.credentials.clientSecret,
    audience: `${emulator.origin}/api/v2/`,
  };
}

/** A Management API request to the emulator (`path` below `/api/v2`) with a bearer token of the default client. */
export async function managementRequest(
  emulator: TenantEmulator,
  path: string,
  init: RequestInit & { token?: string } = {},
): Promise<Response> {
  const { token = await emulator.createAccessToken(), headers, ...rest } = init;
  return emulator.handle(
    new Request(`${emulator.origin}/api/v2${path}`, { ...rest, headers: { authorization: `Bearer ${token}`, ...headersRecord(headers) } }),
  );
}

function headersRecord(headers: HeadersInit | undefined): Record<string, string> {
  return Object.fromEntries(new Headers(headers));
}

/** The status and parsed JSON body of a response. */
export async function read(response: Response): Promise<{ status: number; body: unknown; headers: Headers }> {
  return { status: response.status, body: await response.json(), headers: response.headers };
}
