/**
 * `idplatform/testing`: a tenant emulator for your tests and for the examples.
 *
 * Its core is one function, `emulator.handle(request) → Response`.
 * msw handlers serve it: `createMswHandlers(emulator)` from `idplatform/testing/msw`.
 * They need the `msw` package, an optional peer dependency of `idplatform`.
 * A loopback server serves it too: `await emulator.listen()`, Node only.
 * @module
 */
// The SDK's error base, as from every entry (the emulator itself throws `TypeError` or `RangeError` for wrong seeds and options).
export { IdPlatformError } from '../core/errors.js';
export type { ClientCredentials, ClientRegistration, EmulatedAuthMethod } from './clients.js';
export {
  type AccessTokenOptions,
  createTenantEmulator,
  DEFAULT_CLIENT_CREDENTIALS,
  DEFAULT_CLIENT_SCOPES,
  DEFAULT_EMULATOR_ORIGIN,
  DEFAULT_TOKEN_LIFETIME_SECONDS,
  type EmulatorRequestRecord,
  type TenantEmulator,
  type TenantEmulatorOptions,
} from './emulator.js';
export type { Fault, FaultMatch, FaultScript, MalformedFault, RateLimitFault, ServerErrorFault, SlowFault } from './faults.js';
export type { EmulatorServer, ListenOptions } from './node-server.js';
export { DEFAULT_RATE_LIMIT, type RateLimitOptions } from './rate-limit.js';
export type { AuthenticationErrorBody, ManagementErrorBody } from './responses.js';
export { SEED_COUNTS, SEED_IDS } from './seed.js';
export type { EmulatorData, ModuleSeed, OrganizationSeed } from './store.js';
