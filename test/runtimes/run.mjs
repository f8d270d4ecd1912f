/**
 * `npm run test:runtimes`: runs the conformance scenario (`scenario.mjs`) against
 * the BUILT package in every runtime users deploy to — Node 20/22/24/26 (ESM and CJS),
 * Bun, Deno, a Worker in workerd (miniflare) and headless Chromium — one after the
 * other, against one tenant emulator served by `listen()` from this Node process.
 * Prints one table (runtime, version, passed, failed, time) and exits 1 when any
 * runtime fails a check or does not finish.
 *
 *   node test/runtimes/run.mjs [--only node-20-esm,bun,...] [--verbose]
 *
 * Builds `dist/` first when it is missing or older than `src/`.
 */
import { spawn } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { buildIfStale } from '../../scripts/build-if-stale.mjs';

const here = dirname(fileURLToPath(import.meta.url));
const root = join(here, '..', '..');
const entries = join(here, 'entries');
/**
 * What a bundler for workers and for browsers resolves the package's `imports` to (its
 * `workerd`/`worker` and `browser` conditions); esbuild would otherwise take
 * tsconfig.json's paths, which name the Node modules.
 */
const workerImports = {
  '#compile-schema': join(root, 'src/core/compiled-schema.browser.ts'),
  '#node-server': join(root, 'src/testing/node-server.unsupported.ts'),
  '#client-credentials': join(root, 'src/management/grant.ts'),
};
const browserImports = { ...workerImports, '#client-credentials': join(root, 'src/management/grant.browser.ts') };
const SCENARIO_TIMEOUT_MS = 180_000;
const SUMMARY = /^(\d+) passed, (\d+) failed$/m;
/** node@{major} binaries from npx, by major version (see `nodeBinary`). */
const nodeBinaries = new Map();

const { values: args } = parseArgs({ options: { only: { type: 'string' }, verbose: { type: 'boolean', default: false } } });

await buildIfStale();
// Imported after the build: the runner, too, uses the package as published.
const { createTenantEmulator, SEED_IDS } = await import('idplatform/testing');
const { exportJWK, exportPKCS8, exportSPKI, generateKeyPair } = await import('jose');

const emulator = createTenantEmulator();
const server = await emulator.listen();
const { privateKey, publicKey } = await generateKeyPair('RS256', { extractable: true });
const keyClientId = 'runtimes-key-client';
emulator.registerClient({
  clientId: keyClientId,
  publicKey: await exportSPKI(publicKey),
  scopes: ['read:guardian_factors'],
  tokenEndpointAuthMethod: 'private_key_jwt',
});
const ecKeys = await generateKeyPair('ES256', { extractable: true });
const ecKeyClientId = 'runtimes-ec-key-client';
emulator.registerClient({
  clientId: ecKeyClientId,
  publicKey: await exportSPKI(ecKeys.publicKey),
  scopes: ['read:guardian_factors'],
  tokenEndpointAuthMethod: 'private_key_jwt',
});
const config = {
  url: server.url,
  ...emulator.credentials,
  keyClientId,
  privateKeyPem: await exportPKCS8(privateKey),
  ecKeyClientId,
  ecPrivateJwk: await exportJWK(ecKeys.privateKey),
};
/** The environment of a scenario process in `runtime` (see `ScenarioConfig` in scenario.mjs). */
const scenarioEnv = (runtime) => ({ ...process.env, IDP_SCENARIO_CONFIG: JSON.stringify({ ...config, runtime }) });

/** The runtimes, in the order they run. `run` answers `{ output, version, exitCode? }` (`exitCode` for child processes). */
const RUNTIMES = [
  { name: 'node-20-esm', run: () => nodeProcess(null, 'cli.mjs') },
  { name: 'node-20-cjs', run: () => nodeProcess(null, 'cli.cjs') },
  { name: 'node-22-esm', run: () => nodeProcess('22', 'cli.mjs') },
  { name: 'node-22-cjs', run: () => nodeProcess('22', 'cli.cjs') },
  { name: 'node-24-esm', run: () => nodeProcess('24', 'cli.mjs') },
  { name: 'node-24-cjs', run: () => nodeProcess('24', 'cli.cjs') },
  { name: 'node-26-esm', run: () => nodeProcess('26', 'cli.mjs') },
  { name: 'node-26-cjs', run: () => nodeProcess('26', 'cli.cjs') },
  { name: 'bun', run: () => binProcess('bun', ['run', join(entries, 'cli.mjs')], ['--version']) },
  {
    name: 'deno',
    run: () =>
      binProcess(
        'deno',
        ['run', '--no-prompt', '--allow-env=IDP_SCENARIO_CONFIG', '--allow-net=127.0.0.1', '--allow-read=.', join(entries, 'cli.mjs')],
        ['--version'],
      ),
  },
  { name: 'workerd', run: runWorker },
  { name: 'workerd-module-scope', run: runWorkerAcrossRequests, ownScenario: true },
  { name: 'chromium', run: runChromium },
];

const selected = args.only ? RUNTIMES.filter((runtime) => args.only.split(',').includes(runtime.name)) : RUNTIMES;
if (selected.length === 0) throw new Error(`--only matched no runtime; known: ${RUNTIMES.map((runtime) => runtime.name).join(', ')}`);

const rows = [];
try {
  for (const runtime of selected) {
    emulator.reset();
    const started = performance.now();
    if (runtime.ownScenario) {
      rows.push(report(runtime, await finished(runtime), started, []));
      continue;
    }
    // The scenario's 429 check: the first list of org_empty is rate-limited, reset 1 s ahead.
    const rateLimitedPath = `/api/v2/organizations/${SEED_IDS.emptyOrganization}/invitations`;
    emulator.faults.next(1, { status: 429, retryAfterSeconds: 1, method: 'GET', path: rateLimitedPath });
    // The timeout and abort checks: two slow answers for the small module's actions.
    const slowPath = `/api/v2/actions/modules/${SEED_IDS.smallModule}/actions`;
    emulator.faults.next(2, { delayMs: 2_000, method: 'GET', path: slowPath });
    const outcome = await finished(runtime);
    const unseen = unseenRequests();
    rows.push(report(runtime, outcome, started, unseen.length > 0 ? [`the emulator did not answer: ${unseen.join('; ')}`] : []));
  }
} finally {
  await server.close();
}

console.log(`\n${table(rows)}`);
const failing = rows.filter((row) => row.failed !== 0 || row.passed === 0);
console.log(`runtimes: ${rows.length - failing.length} passed, ${failing.length} failed`);
// Exit now, even if a runtime that timed out left something running.
process.exit(failing.length > 0 ? 1 : 0);

/** What `runtime.run()` answers, or what stopped it (a failure, or not finishing within the scenario timeout). */
async function finished(runtime) {
  try {
    return await withTimeout(runtime.run(), SCENARIO_TIMEOUT_MS, runtime.name);
  } catch (error) {
    return { output: `${error instanceof Error ? error.message : String(error)}\n`, version: '?' };
  }
}

/**
 * The table row of one runtime's run (printing its line, and its output when it
 * failed or with --verbose): the summary's counts, plus the runner's own findings
 * (`problems`, and a process that exited with an error) as failed checks.
 */
function report(runtime, outcome, started, problems) {
  const seconds = (performance.now() - started) / 1000;
  const found = [...problems];
  if (outcome.exitCode !== undefined && outcome.exitCode !== 0) found.push(`the process exited with ${outcome.exitCode}`);
  if (found.length > 0) outcome.output += `${found.join('\n')}\n`;
  const summary = SUMMARY.exec(outcome.output);
  const row = {
    runtime: runtime.name,
    version: outcome.version,
    passed: summary ? Number(summary[1]) : 0,
    failed: summary ? Number(summary[2]) + found.length : 'did not finish',
    time: `${seconds.toFixed(1)} s`,
  };
  const ok = row.failed === 0 && row.passed > 0;
  console.log(`${ok ? 'ok  ' : 'FAIL'} ${row.runtime} ${row.version}: ${summary ? summary[0] : 'no summary'} (${row.time})`);
  if (!ok || args.verbose) console.log(indent(outcome.output));
  return row;
}

/** Node of the given major version from the npm `node` package (`npx -p node@22`), or this Node for `null`. */
async function nodeProcess(major, entry) {
  const node = major === null ? process.execPath : await nodeBinary(major);
  const version = /v\d+\.\d+\.\d+/.exec((await spawnCollect([node, '--version'], process.env)).output)?.[0] ?? '?';
  const { output, code } = await spawnCollect([node, join(entries, entry)], scenarioEnv('node'));
  return { output, version, exitCode: code };
}

/** The path of the `node` binary of `node@{major}` from the npm registry, installed once into npx's cache. */
function nodeBinary(major) {
  if (!nodeBinaries.has(major)) {
    const command = ['npx', '--yes', '--package', `node@${major}`, '--', 'node', '-p', 'process.execPath'];
    nodeBinaries.set(
      major,
      spawnCollect(command, process.env).then(({ output, code }) => {
        const path = output.split('\n').find((line) => line.startsWith('/'));
        if (code !== 0 || path === undefined) throw new Error(`npx could not provide node@${major}:\n${output}`);
        return path.trim();
      }),
    );
  }
  return nodeBinaries.get(major);
}

/** A runtime installed as a devDependency (its binary in node_modules/.bin). */
async function binProcess(bin, scenarioArgs, versionArgs) {
  const binary = join(root, 'node_modules', '.bin', bin);
  const version = (await spawnCollect([binary, ...versionArgs], process.env)).output.match(/\d+\.\d+\.\d+\S*/)?.[0] ?? '?';
  const { output, code } = await spawnCollect([binary, ...scenarioArgs], scenarioEnv(bin));
  return { output, version, exitCode: code };
}

/** The Worker entry bundled by esbuild the way wrangler bundles, run in workerd through miniflare. */
async function runWorker() {
  const { Miniflare } = await import('miniflare');
  const miniflare = new Miniflare({
    modules: true,
    script: await bundleWorker('worker.mjs'),
    compatibilityDate: '2026-04-01',
    bindings: { IDP_SCENARIO_CONFIG: JSON.stringify({ ...config, runtime: 'workerd' }) },
  });
  try {
    const response = await miniflare.dispatchFetch('http://localhost/');
    const { createRequire } = await import('node:module');
    const version = createRequire(import.meta.url)('workerd/package.json').version;
    return { output: await response.text(), version };
  } finally {
    await miniflare.dispose();
  }
}

/**
 * A Worker whose `ManagementClient` lives at module scope (entries/worker-module-scope.mjs),
 * driven request by request while the emulator holds the token back for 1 s. Calls of
 * two concurrent requests make a token request each (no request awaits I/O another
 * started). A call that gives up (200 ms) before its token comes ends its request,
 * whose token request workerd then drops: the next request's call fetches a token of
 * its own, which the one after uses. Calls that each give up after 500 ms, one every
 * 800 ms, still get a token within 15 tries. Runs without the shared scenario's
 * faults and request-log checks (`ownScenario`).
 */
async function runWorkerAcrossRequests() {
  const { Miniflare } = await import('miniflare');
  const script = await bundleWorker('worker-module-scope.mjs');
  const { createRequire } = await import('node:module');
  const version = createRequire(import.meta.url)('workerd/package.json').version;
  const scenario = JSON.stringify({ ...config, organizationId: SEED_IDS.smallOrganization });
  const fresh = () =>
    new Miniflare({ modules: true, script, compatibilityDate: '2026-04-01', bindings: { IDP_SCENARIO_CONFIG: scenario } });
  const slowToken = () => emulator.faults.next(1, { delayMs: 1_000, method: 'POST', path: '/oauth/token' });
  const tokenRequests = () => emulator.requests.filter((request) => request.path === '/oauth/token').length;
  const results = [];
  const check = (ok, line) => results.push(`${ok ? 'ok  ' : 'FAIL'} ${line}`);
  let miniflare = fresh();
  /** The Worker's answer to `path`, or what says it gave none within 20 s. */
  const answer = (path) =>
    withTimeout(
      miniflare.dispatchFetch(`http://localhost/${path}`).then((response) => response.text()),
      20_000,
      'the Worker',
    ).catch((error) => error.message);
  try {
    slowToken();
    const first = answer('');
    await new Promise((resolve) => setTimeout(resolve, 100));
    const answers = [await answer(''), await first];
    // Each request's call makes its own token request: workerd lets no request await I/O another one started.
    check(
      answers.every((answer) => answer === 'ok 5') && tokenRequests() === 2,
      `two cold calls of concurrent requests, a token request each: ${answers.join(' / ')}`,
    );
    await miniflare.dispose();

    emulator.reset();
    miniflare = fresh();
    slowToken();
    const givenUp = await answer('?signal=200');
    check(
      givenUp.startsWith('TimeoutError') || givenUp.startsWith('AbortError'),
      `a call that gives up before its token comes: ${givenUp}`,
    );
    const later = await answer('');
    // The emulator logs no answer to the request workerd dropped: the token requests it answered are the later ones.
    check(
      later === 'ok 5' && tokenRequests() === 1,
      `the next request's call, whose token request went with the request that started it: ${later}`,
    );
    const after = await answer('');
    check(
      after === 'ok 5' && tokenRequests() === 1,
      `the one after, on that call's token (token requests answered: ${tokenRequests()}): ${after}`,
    );
    await miniflare.dispose();

    emulator.reset();
    miniflare = fresh();
    slowToken();
    await answer('?signal=200');
    const tries = [];
    while (tries.length < 15 && tries.at(-1) !== 'ok 5') {
      const started = performance.now();
      tries.push(await answer('?signal=500'));
      await new Promise((resolve) => setTimeout(resolve, Math.max(0, 800 - (performance.now() - started))));
    }
    check(tries.at(-1) === 'ok 5', `calls that give up after 500 ms, one every 800 ms: ${tries.length} tries, the last: ${tries.at(-1)}`);
  } finally {
    await miniflare.dispose();
  }
  const failed = results.filter((line) => line.startsWith('FAIL')).length;
  return { output: `${results.join('\n')}\n${results.length - failed} passed, ${failed} failed\n`, version };
}

/** A Worker entry bundled by esbuild the way wrangler bundles. */
async function bundleWorker(entry) {
  const { build } = await import('esbuild');
  const bundle = await build({
    entryPoints: [join(entries, entry)],
    bundle: true,
    write: false,
    format: 'esm',
    target: 'es2022',
    platform: 'neutral',
    conditions: ['workerd', 'worker', 'browser'],
    mainFields: ['browser', 'module', 'main'],
    alias: workerImports,
    logLevel: 'silent',
  });
  return bundle.outputFiles[0].text;
}

/**
 * The browser entry bundled by esbuild, in headless Chromium (from the npm package
 * `@sparticuz/chromium`, driven by playwright-core). The page is served at the
 * emulator's own origin (playwright answers `/__runtimes__/*` itself), so the SDK's
 * requests are same-origin: the emulator sends no CORS headers.
 */
async function runChromium() {
  const { build } = await import('esbuild');
  const { chromium } = await import('playwright-core');
  const executablePath = await (await import('@sparticuz/chromium')).default.executablePath();
  const bundle = await build({
    entryPoints: [join(entries, 'browser.mjs')],
    bundle: true,
    write: false,
    format: 'esm',
    target: 'es2022',
    platform: 'browser',
    alias: browserImports,
    logLevel: 'silent',
  });
  const browser = await chromium.launch({
    executablePath,
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--no-first-run',
    ],
  });
  try {
    const page = await browser.newPage();
    const lines = [];
    page.on('console', (message) => lines.push(message.text()));
    page.on('pageerror', (error) => lines.push(`page error: ${error.message}`));
    await page.route(`${config.url}/__runtimes__/**`, (route) => {
      const isScript = route.request().url().endsWith('.js');
      return route.fulfill({
        status: 200,
        contentType: isScript ? 'text/javascript' : 'text/html',
        body: isScript
          ? bundle.outputFiles[0].text
          : '<!doctype html><title>runtimes</title><script type="module" src="scenario.js"></script>',
      });
    });
    await page.addInitScript(
      (scenarioConfig) => {
        globalThis.IDP_SCENARIO_CONFIG = scenarioConfig;
      },
      { ...config, runtime: 'browser' },
    );
    page.setDefaultTimeout(SCENARIO_TIMEOUT_MS);
    await page.goto(`${config.url}/__runtimes__/index.html`);
    await page.waitForFunction(() => globalThis.scenarioResult !== undefined);
    await page.evaluate(() => globalThis.scenarioResult);
    return { output: `${lines.join('\n')}\n`, version: browser.version() };
  } finally {
    await browser.close();
  }
}

/**
 * What the emulator's request log must hold after a run, so a runtime cannot pass
 * without having talked to it over the socket: the scripted 429, the token grant
 * and userinfo. Answers the ones missing.
 */
function unseenRequests() {
  const seen = (method, path, status) =>
    emulator.requests.some((request) => request.method === method && request.path.startsWith(path) && request.status === status);
  const expected = [
    ['GET', `/api/v2/organizations/${SEED_IDS.emptyOrganization}/invitations`, 429],
    ['POST', '/oauth/token', 200],
    ['PUT', '/api/v2/guardian/factors/phone/message-types', 200],
    ['GET', '/userinfo', 200],
  ];
  return expected.filter((request) => !seen(...request)).map((request) => request.join(' '));
}

/** Runs a command, collecting stdout and stderr together; resolves when it exits (killed after the scenario timeout). */
function spawnCollect([command, ...commandArgs], env) {
  return new Promise((resolve, reject) => {
    const child = spawn(command, commandArgs, { cwd: root, env, stdio: ['ignore', 'pipe', 'pipe'], timeout: SCENARIO_TIMEOUT_MS });
    let output = '';
    child.stdout.on('data', (chunk) => {
      output += chunk;
    });
    child.stderr.on('data', (chunk) => {
      output += chunk;
    });
    child.once('error', reject);
    child.once('close', (code) => resolve({ output, code }));
  });
}

function withTimeout(promise, ms, name) {
  let timer;
  const timeout = new Promise((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${name} did not finish within ${ms / 1000} s`)), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

/** `npm run build` when dist/ is missing or older than the newest file in src/. */
function table(rows) {
  const columns = ['runtime', 'version', 'passed', 'failed', 'time'];
  const cells = [columns, ...rows.map((row) => columns.map((column) => String(row[column])))];
  const widths = columns.map((_, index) => Math.max(...cells.map((cell) => cell[index].length)));
  const line = (cell) => `| ${cell.map((text, index) => text.padEnd(widths[index])).join(' | ')} |`;
  return [line(cells[0]), `|${widths.map((width) => '-'.repeat(width + 2)).join('|')}|`, ...cells.slice(1).map(line)].join('\n');
}

function indent(text) {
  return text
    .trimEnd()
    .split('\n')
    .map((line) => `    ${line}`)
    .join('\n');
}
