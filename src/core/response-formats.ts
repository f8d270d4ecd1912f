import * as z from 'zod/mini';

/**
 * A free-form JSON object (spec 2.1 `app_metadata`, `user_metadata`: "additional
 * properties allowed"): every object that is not an array or `null`, its members
 * unchecked. Response bodies are checked and returned as parsed, so the members
 * are kept; the check itself never walks them (a `record(string, unknown)` would
 * visit every key to learn nothing).
 */
export function freeFormObject(): z.ZodMiniType<Record<string, unknown>, Record<string, unknown>> {
  return z.object({}) as unknown as z.ZodMiniType<Record<string, unknown>, Record<string, unknown>>;
}

/**
 * `https://` in any letter case, a host (a name, in any script and with or without the
 * trailing dot of a fully qualified name, or a bracketed IPv6 address) with an
 * optional port, then an optional path, query or fragment without whitespace; no
 * user info.
 */
const STRICT_HTTPS_URL = /^https:\/\/(?:[^\s/?#@:[\]]+|\[[0-9a-f:.]+\])(?::\d{1,5})?(?:[/?#]\S*)?$/i;

/**
 * An absolute `https:` URL (the spec's `strict-https-uri`): `https://`, a host and
 * an optional port, then an optional path, query or fragment; no user info, no
 * whitespace. A pattern, not a URL parser: it runs on every record of every page
 * (a parser costs about ten times as much). It reads leniently what a URL parser
 * would take, so that no URL the platform stores fails a page: an internationalised
 * host (`https://bücher.example`), a host with its trailing dot, `HTTPS://`.
 */
export function httpsUrl(): z.ZodMiniType<string, string> {
  return z.string().check(z.regex(STRICT_HTTPS_URL, 'must be an absolute https URL'));
}

/**
 * An email address as a browser's email input accepts it (HTML's "valid email
 * address": `a&b@example.com`, `x~y@example.com`, `ivan@example.xn--p1ai` and
 * single-label domains pass), the spec's `email` format read forward-compatibly: an
 * address the platform stores never fails a page, and one a user signs up or logs in
 * with is never refused before the platform sees it. zod's default email check is
 * stricter (a letters-only top-level domain, fewer characters before the `@`).
 * `message`: the issue's message when the check fails.
 */
export function emailAddress(message?: string): z.ZodMiniEmail {
  return z.email({ pattern: VALID_EMAIL_ADDRESS, ...(message !== undefined && { error: message }) });
}

/**
 * The HTML standard's "valid email address" (the `input type=email` rule). Written
 * here rather than read from `z.regexes`: a bundler keeps every pattern of that
 * namespace object once one is read from it (about 5 KB minified).
 */
const VALID_EMAIL_ADDRESS =
  /^[a-zA-Z0-9.!#$%&'*+/=?^_`{|}~-]+@[a-zA-Z0-9](?:[a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?(?:\.[a-zA-Z0-9](?:[a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?)*$/;
