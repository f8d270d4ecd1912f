import * as z from 'zod/mini';

/**
 * A free-form JSON object, such as an invitation's `app_metadata` and `user_metadata`.
 * It accepts every object that is not an array or `null`, with any properties.
 * Its members are kept unchecked, in the SDK's answers and in what the exported schemas' `parse` returns.
 * A plain `z.object({})` would return `{}`.
 * A loose object with no members of its own costs about as much (0.2 µs a page of 50 invitations).
 * A `record(string, unknown)` would check every key to learn nothing.
 */
export function freeFormObject(): z.ZodMiniType<Record<string, unknown>, Record<string, unknown>> {
  return z.looseObject({}) as unknown as z.ZodMiniType<Record<string, unknown>, Record<string, unknown>>;
}

/**
 * `https://` in any letter case, then a host with an optional port.
 * The host is a name (in any script, with or without the trailing dot of a fully qualified name) or a bracketed IPv6 address.
 * Then comes an optional path, query or fragment without whitespace. User info is refused.
 */
const STRICT_HTTPS_URL = /^https:\/\/(?:[^\s/?#@:[\]]+|\[[0-9a-f:.]+\])(?::\d{1,5})?(?:[/?#]\S*)?$/i;

/**
 * An absolute `https:` URL, the platform's `strict-https-uri` format.
 * That is `https://`, a host and an optional port, then an optional path, query or fragment.
 * User info and whitespace are refused.
 * It is a pattern, not a URL parser: it runs on every record of every page, and a parser costs about ten times as much.
 * It reads leniently what a URL parser would take, so that no URL the platform stores fails a page.
 * So an internationalised host (`https://bücher.example`), a host with its trailing dot and `HTTPS://` pass.
 */
export function httpsUrl(): z.ZodMiniType<string, string> {
  return z.string().check(z.regex(STRICT_HTTPS_URL, 'must be an absolute https URL'));
}

/**
 * An email address, internationalized ones included (RFC 6531: `josé@example.com`, `山田@日本.com`, `user@münchen.de`).
 * Only its structure is checked.
 * The local part is non-empty, without whitespace, controls or `"(),:;<>@[\]`.
 * Then come one `@` and a domain of dot-separated labels of 1–63 characters.
 * A label holds ASCII letters and digits and any non-ASCII character but whitespace and controls, with hyphens inside.
 * On ASCII addresses it is exactly the HTML standard's "valid email address", the `input type=email` rule.
 * So `a&b@example.com`, `ivan@example.xn--p1ai` and single-label domains pass.
 * This reads the platform's `email` format forward-compatibly.
 * An address the platform stores never fails a page.
 * One a user signs up or logs in with is never refused before the platform sees it.
 * zod's default email check is stricter: ASCII only, and a letters-only top-level domain.
 * `message`: the issue's message when the check fails.
 */
export function emailAddress(message?: string): z.ZodMiniEmail {
  return z.email({ pattern: EMAIL_ADDRESS, ...(message !== undefined && { error: message }) });
}

/**
 * Written here rather than read from `z.regexes`: a bundler keeps every pattern of
 * that namespace object once one is read from it (about 5 KB minified).
 * Each class is a negated one (everything but…), so that every script passes without a list of ranges.
 * None of them holds whitespace (`\s` is Unicode's), controls (`\p{Cc}`) or lone surrogates (`\p{Cs}`).
 * It runs as fast as an ASCII-only pattern; a response check runs it on every invitation of a page.
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
