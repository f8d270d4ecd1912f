/**
 * A real browser (headless Chromium from `CHROMIUM_PATH` or the `@sparticuz/chromium`
 * dev dependency, driven by playwright-core) runs a
 * tiny SPA bundled from test/integration/spa with esbuild, which logs in against
 * the oidc-provider server as a public client (client id only, PKCE): authorize →
 * scripted login → redirect with code → code exchange and userinfo over CORS.
 */
import { mkdir, readFile } from 'node:fs/promises';
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { type LaunchedChromium, launchChromium } from './chromium.js';
import { type OidcProviderServer, startOidcProvider, TEST_USER } from './oidc-server.js';

/** Bounds of the browser's start and of each page wait; the login itself takes about 2 s. */
const LAUNCH_MS = 15_000;
const WAIT_MS = 8_000;
const SPA_DIR = fileURLToPath(new URL('./spa/', import.meta.url));
const SCREENSHOT = fileURLToPath(new URL('../../test-results/browser-spa.png', import.meta.url));

let op: OidcProviderServer | undefined;
let spa: http.Server | undefined;
let browser: LaunchedChromium | undefined;
let callbackUrl = '';

/** Serves `files` (path → [content type, body]) on 127.0.0.1; everything else is 404. */
async function serve(files: Map<string, [string, Uint8Array | string]>): Promise<{ server: http.Server; origin: string }> {
  const server = http.createServer((request, response) => {
    const file = files.get(new URL(request.url ?? '/', 'http://127.0.0.1').pathname);
    response.writeHead(file ? 200 : 404, { 'content-type': file?.[0] ?? 'text/plain', 'cache-control': 'no-store' });
    response.end(file?.[1] ?? 'not found');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}` };
}

beforeAll(async () => {
  // The SPA's port goes into the public client's redirect URIs, and the provider's origin into the bundle.
  const files = new Map<string, [string, Uint8Array | string]>();
  const served = await serve(files);
  spa = served.server;
  callbackUrl = `${served.origin}/callback`;
  op = await startOidcProvider({ publicRedirectUris: [callbackUrl] });

  const bundle = await build({
    entryPoints: [`${SPA_DIR}main.ts`],
    bundle: true,
    format: 'esm',
    platform: 'browser',
    target: 'es2022',
    splitting: true,
    outdir: '/spa-bundle',
    write: false,
    logLevel: 'error',
    define: { IDP_BASE_URL: JSON.stringify(op.origin), IDP_CLIENT_ID: JSON.stringify(op.clients.public.clientId) },
  });
  for (const file of bundle.outputFiles) files.set(file.path.slice('/spa-bundle'.length), ['text/javascript', file.contents]);
  files.set('/callback', ['text/html; charset=utf-8', await readFile(`${SPA_DIR}index.html`, 'utf8')]);

  browser = await launchChromium(LAUNCH_MS);
  // The first run on a machine also unpacks @sparticuz/chromium's binary (a few seconds).
}, 60_000);

afterAll(async () => {
  await browser?.close();
  await op?.close();
  if (spa) {
    spa.closeAllConnections();
    await new Promise<void>((resolve) => spa?.close(() => resolve()));
  }
}, 20_000);

it('a client-id-only SPA logs in with PKCE in Chromium and shows the user’s sub from userinfo', async () => {
  if (!browser) throw new Error('the browser did not start');
  const page = await browser.context.newPage();
  page.setDefaultTimeout(WAIT_MS);
  const log: string[] = [];
  page.on('console', (message) => log.push(`console.${message.type()}: ${message.text()}`));
  page.on('pageerror', (error) => log.push(`pageerror: ${error.message}`));
  page.on('requestfailed', (request) =>
    log.push(`requestfailed: ${request.method()} ${request.url()} ${request.failure()?.errorText ?? ''}`),
  );

  try {
    await page.goto(callbackUrl, { timeout: WAIT_MS });
    // Login redirects away and back; then the page exchanges the code and calls /userinfo.
    const settled = await page
      .waitForFunction(() => ['signed in', 'failed'].includes(document.getElementById('status')?.textContent ?? ''), undefined, {
        timeout: WAIT_MS,
      })
      .then(
        () => 'settled',
        (error: unknown) => `not settled: ${error instanceof Error ? error.message.split('\n')[0] : String(error)}`,
      );
    // Read everything at once (no waiting): on failure the message shows where the browser ended up.
    const shown = await page.evaluate(() => ({
      status: document.getElementById('status')?.textContent ?? null,
      sub: document.getElementById('sub')?.textContent ?? null,
      error: document.getElementById('error')?.textContent ?? null,
      body: document.body?.textContent?.slice(0, 500) ?? null,
    }));
    const state = { settled, url: page.url(), ...shown, log };
    expect(state, JSON.stringify(state, null, 2)).toMatchObject({ status: 'signed in', sub: TEST_USER, error: '', url: callbackUrl });
  } finally {
    await mkdir(fileURLToPath(new URL('../../test-results/', import.meta.url)), { recursive: true });
    await page.screenshot({ path: SCREENSHOT, timeout: WAIT_MS }).catch(() => undefined);
    await page.close();
  }
}, 20_000);
