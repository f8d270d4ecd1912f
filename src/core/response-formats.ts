import * as z from 'zod/mini';

/**
 * A free-form JSON object (spec 2.1 `app_metadata`, `user_metadata`: "additional
 * properties allowed"): every object that is not an array or `null`, its members
 * unchecked and kept, in the SDK's answers and in what the exported schemas'
 * `parse` returns (a plain `z.object({})` would return `{}`). A loose object with
 * no members of its own costs about what the plain one did (0.2 µs a page of 50
 * invitations); a `record(string, unknown)` would check every key to learn nothing.
 */
export function freeFormObject(): z.ZodMiniType<Record<string, unknown>, Record<string, unknown>> {
  return z.looseObject({}) as unknown as z.ZodMiniType<Record<string, unknown>, Record<string, unknown>>;
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
 * An email address, internationalized ones included (RFC 6531: `josé@example.com`,
 * `山田@日本.com`, `user@münchen.de`), checked for its structure only: a non-empty
 * local part without whitespace, controls or `"(),:;<>@[\]`, one `@`, then a domain
 * of dot-separated labels of 1–63 characters (ASCII letters and digits and any
 * non-ASCII character but whitespace and controls, with hyphens inside). On ASCII
 * addresses it is exactly the HTML standard's "valid email address" (the `input
 * type=email` rule: `a&b@example.com`, `ivan@example.xn--p1ai` and single-label
 * domains pass). This is the spec's `email` format read
 * forward-compatibly: an address the platform stores never fails a page, and one a
 * user signs up or logs in with is never refused before the platform sees it. zod's
 * default email check is stricter (ASCII only, a letters-only top-level domain).
 * `message`: the issue's message when the check fails.
 */
export function emailAddress(message?: string): z.ZodMiniEmail {
  return z.email({ pattern: EMAIL_ADDRESS, ...(message !== undefined && { error: message }) });
}

/**
 * Written here rather than read from `z.regexes`: a bundler keeps every pattern of
 * that namespace object once one is read from it (about 5 KB minified). Each class
 * is a negated one (everything but…), so that every script passes without a list
 * of ranges; none of them holds whitespace (`\s` is Unicode's), controls (`\p{Cc}`)
 * or lone surrogates (`\p{Cs}`). As fast as the ASCII-only pattern it replaced (a
 * response check runs on every invitation of a page).
 */
const EMAIL_LOCAL_PART = String.raw`[^\s"(),:;<>@[\\\]\p{Cc}\p{Cs}]+`;
/** An ASCII letter or digit, or any non-ASCII character but whitespace, a control or a lone surrogate. */
const LABEL_EDGE = String.raw`[^\x00-\x2F\x3A-\x40\x5B-\x60\x7B-\x7F\s\p{Cc}\p{Cs}]`;
/** {@link LABEL_EDGE} or a hyphen (`\x2D`). */
const LABEL_INNER = String.raw`[^\x00-\x2C\x2E\x2F\x3A-\x40\x5B-\x60\x7B-\x7F\s\p{Cc}\p{Cs}]`;
const DOMAIN_LABEL = `${LABEL_EDGE}(?:${LABEL_INNER}{0,61}${LABEL_EDGE})?`;
const EMAIL_ADDRESS = /* @__PURE__ */ new RegExp(`^${EMAIL_LOCAL_PART}@${DOMAIN_LABEL}(?:\\.${DOMAIN_LABEL})*$`, 'u');

/**
 * A string enum read forward-compatibly: the known values are named in the type, and
 * a value the platform adds later is kept instead of failing validation (a non-string
 * still fails). For response schemas only; request parameters stay strict enums.
 *
 * ```ts
 * const MessageType = openEnum(['sms', 'voice']); // 'sms' | 'voice' | (string & {})
 * ```
 */
export function openEnum<const T extends readonly [string, ...string[]]>(
  _known: T,
): z.ZodMiniType<T[number] | (string & {}), T[number] | (string & {})> {
  return z.string() as z.ZodMiniType<T[number] | (string & {}), T[number] | (string & {})>;
}
