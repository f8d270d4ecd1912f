/**
 * Follows an `/authorize` URL through the provider's scripted login and consent
 * (303 → /interaction/A → /authorize/A → /interaction/B → /authorize/B → redirect_uri)
 * with plain `fetch`, the way a browser would, and returns the final redirect.
 */

/** A path-aware cookie jar: oidc-provider scopes its interaction cookies to `/interaction/<uid>` and `/authorize/<uid>`. */
class CookieJar {
  readonly #cookies = new Map<string, { name: string; value: string; path: string }>();

  store(response: Response): void {
    for (const line of response.headers.getSetCookie()) {
      const [pair = '', ...attributes] = line.split(';').map((part) => part.trim());
      const eq = pair.indexOf('=');
      const name = pair.slice(0, eq);
      const value = pair.slice(eq + 1);
      let path = '/';
      let expired = false;
      for (const attribute of attributes) {
        const [key = '', attributeValue = ''] = attribute.split('=');
        const lower = key.toLowerCase();
        if (lower === 'path') path = attributeValue;
        if (lower === 'expires' && new Date(attributeValue).getTime() <= Date.now()) expired = true;
        if (lower === 'max-age' && Number(attributeValue) <= 0) expired = true;
      }
      const key = `${name};${path}`;
      if (expired || value === '') this.#cookies.delete(key);
      else this.#cookies.set(key, { name, value, path });
    }
  }

  header(url: URL): string {
    const { pathname } = url;
    return [...this.#cookies.values()]
      .filter((cookie) => pathname === cookie.path || pathname.startsWith(cookie.path.endsWith('/') ? cookie.path : `${cookie.path}/`))
      .sort((a, b) => b.path.length - a.path.length)
      .map((cookie) => `${cookie.name}=${cookie.value}`)
      .join('; ');
  }
}

/**
 * Requests `authorizeUrl` and follows each redirect (a fresh cookie jar, so each call
 * logs in again) until one points at `redirectUri`; returns that URL, whose query holds
 * `code`, `state` and `iss` (or `error`). Throws on a non-redirect answer or after 10 hops.
 */
export async function followLogin(authorizeUrl: string, redirectUri: string, timeoutMs = 10_000): Promise<URL> {
  const jar = new CookieJar();
  const signal = AbortSignal.timeout(timeoutMs);
  let url = new URL(authorizeUrl);
  for (let hop = 0; hop < 10; hop += 1) {
    const response = await fetch(url, { redirect: 'manual', headers: { cookie: jar.header(url) }, signal });
    jar.store(response);
    const location = response.headers.get('location');
    if (!location) throw new Error(`no redirect from ${url.pathname}: ${response.status} ${await response.text()}`);
    await response.body?.cancel();
    const next = new URL(location, url);
    if (next.href.startsWith(redirectUri)) return next;
    url = next;
  }
  throw new Error(`more than 10 redirects following ${authorizeUrl}`);
}
