import * as z from 'zod/mini';
import type { RequestOptions } from '../core/options.js';
import { validateParams } from '../core/validation.js';

/** {@link RequestOptions} of the grants that log an end user in from a server (password, passwordless). */
export interface EndUserRequestOptions extends RequestOptions {
  /**
   * The end user's IP address (IPv4 or IPv6), sent as the `auth0-forwarded-for`
   * header so that the platform's brute-force protection counts attempts per user
   * rather than per server. Only trusted (confidential) clients should send it.
   */
  readonly forwardedFor?: string | undefined;
}

const ForwardedForSchema = z.optional(z.union([z.ipv4(), z.ipv6()], 'forwardedFor must be an IPv4 or IPv6 address'));

/** The call's {@link RequestOptions} with `forwardedFor` checked and turned into the `auth0-forwarded-for` header. */
export function withForwardedFor(options: EndUserRequestOptions | undefined): RequestOptions | undefined {
  if (options?.forwardedFor === undefined) return options;
  const { forwardedFor, ...rest } = options;
  const address = validateParams(ForwardedForSchema, forwardedFor);
  return { ...rest, headers: { ...rest.headers, 'auth0-forwarded-for': address as string } };
}
