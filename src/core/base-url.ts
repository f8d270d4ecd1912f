import { ConfigurationError } from './errors.js';

/** Where a client sends its requests: the API's base URL and the tenant's origin (for `/oauth/token`). */
export interface Endpoint {
  /** e.g. `https://acme.example.com/api/v2` (no trailing slash). */
  readonly baseUrl: string;
  /** e.g. `https://acme.example.com` */
  readonly origin: string;
}

/** Turns `domain` (a host or `https://host`) or `baseUrl` into an {@link Endpoint}; `http:` only for loopback: no credentials in clear. */
export function resolveEndpoint(options: { domain?: unknown; baseUrl?: unknown }, apiPath: string): Endpoint {
  const { domain, baseUrl } = options;
  if (domain !== undefined && baseUrl !== undefined) {
    throw new ConfigurationError('Pass either `domain` or `baseUrl`, not both');
  }
  if (baseUrl !== undefined) {
    if (typeof baseUrl !== 'string') throw new ConfigurationError('`baseUrl` must be a string');
    const url = parseUrl(baseUrl, 'baseUrl');
    // `href` keeps an empty `?` or `#` that `search` and `hash` do not show: the paths would land after it.
    if (/[?#]/.test(url.href)) throw new ConfigurationError('`baseUrl` must not contain a query or a fragment');
    const base = withoutRootDot(url);
    return { baseUrl: base.href.replace(/\/+$/, ''), origin: base.origin };
  }
  if (typeof domain !== 'string' || domain.trim() === '') {
    throw new ConfigurationError('`domain` (the tenant host name) or `baseUrl` is required');
  }
  const url = parseUrl(/^[a-z][a-z0-9+.-]*:\/\//i.test(domain) ? domain : `https://${domain}`, 'domain');
  if (url.pathname !== '/' || /[?#]/.test(url.href)) {
    throw new ConfigurationError('`domain` must be a host name such as "acme.example.com", without a path');
  }
  const { hostname, origin } = withoutRootDot(url);
  if (url.protocol === 'https:' && isLoopback(hostname) && !/^https:/i.test(domain)) {
    throw new ConfigurationError(
      `\`domain\` "${domain}" is a loopback host, which the SDK would reach over https; for a local server or the emulator pass \`baseUrl: 'http://${url.host}${apiPath}'\` instead`,
    );
  }
  return { baseUrl: `${origin}${apiPath}`, origin };
}

/** `url` without a host's root dot (`acme.example.com.`): the token audience, built from the origin, must match the tenant's. */
function withoutRootDot(url: URL): URL {
  if (!url.hostname.endsWith('.') || url.hostname.endsWith('..')) return url;
  const plain = new URL(url.href);
  plain.hostname = url.hostname.slice(0, -1);
  return plain;
}

function parseUrl(value: string, option: string): URL {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new ConfigurationError(`\`${option}\` is not a valid URL or host name`);
  }
  if (url.username || url.password) {
    throw new ConfigurationError(`\`${option}\` must not contain credentials`);
  }
  if (url.protocol === 'https:') return url;
  if (url.protocol === 'http:' && isLoopback(url.hostname)) return url;
  if (url.protocol === 'http:') {
    throw new ConfigurationError(`\`${option}\` may use http: only for a loopback host (localhost, 127.0.0.0/8, [::1]); use https:`);
  }
  throw new ConfigurationError(`\`${option}\` must be an https: URL`);
}

/** Whether a URL host name is the local machine: `localhost`, `127.0.0.0/8` or `[::1]`. */
export function isLoopback(hostname: string): boolean {
  return hostname === 'localhost' || hostname === '[::1]' || /^127(?:\.\d{1,3}){3}$/.test(hostname);
}

/** A Management API error's message, with a hint when a 404 points at a wrong base URL ("Service not found", or no `/api/v2` ending). */
export function withBaseUrlHint(message: string, status: number, baseUrl: string): string {
  if (status !== 404) return message;
  const url = new URL(baseUrl);
  const endsInApiV2 = url.pathname.replace(/\/+$/, '').endsWith('/api/v2');
  // The platform's 404 for a path outside every API it serves: "Service not found", maybe with ": https://{domain}/…".
  if (endsInApiV2 && !message.startsWith('Service not found')) return message;
  const suggestion = endsInApiV2 ? '' : ` (e.g. ${url.origin}/api/v2)`;
  return `${message}. Is the base URL right? The Management API lives at https://{domain}/api/v2; this client sends to ${baseUrl}${suggestion}`;
}
