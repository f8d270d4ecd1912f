/**
 * The figures README.md quotes, checked against what they describe: the browser
 * bundle of the SPA login flow (measured as `npm run size` measures it), the Node
 * versions, the default retry and timeout, the runtime dependencies, the entry
 * points, and the budgets and sizes of the scripts README names. A figure that
 * drifts from the code fails here, not in a reader's hands.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { build, type Metafile } from 'esbuild';
import { beforeAll, describe, expect, it } from 'vitest';
import { resolveCommonOptions, resolveRetryPolicy } from '../../src/core/options.js';

const root = join(import.meta.dirname, '../..');
const read = (file: string) => readFileSync(join(root, file), 'utf8');
/** README's text with line breaks as spaces, so a figure and its words match across lines. */
const readme = read('README.md').replace(/\s+/g, ' ');
const packageJson = JSON.parse(read('package.json')) as {
  engines: { node: string };
  dependencies: Record<string, string>;
  exports: Record<string, unknown>;
};

/** The one match of `pattern` in README (its groups), failing with the pattern when README has none. */
function quoted(pattern: RegExp): string[] {
  const match = readme.match(pattern);
  expect(match, `README.md should say something matching ${pattern}`).not.toBeNull();
  return (match as RegExpMatchArray).slice(1);
}

/** A number as README writes it: `10 000` and `2,000` included. */
const numberOf = (text: string | undefined) => Number(String(text).replace(/[\s,]/g, ''));

/** A `const NAME = 1_000;` (or `?? 1_000`) of a script, as a number. */
function constantOf(file: string, pattern: RegExp): number {
  const match = read(file).match(pattern);
  expect(match, `${file} should match ${pattern}`).not.toBeNull();
  return Number((match as RegExpMatchArray)[1]?.replace(/_/g, ''));
}

/** The static-import closure of `from` in esbuild's metafile outputs, as scripts/bundle-size.mjs computes it. */
function staticClosure(outputs: Metafile['outputs'], from: string[]): Set<string> {
  const closure = new Set<string>();
  const pending = [...from];
  while (pending.length > 0) {
    const path = pending.pop() as string;
    if (closure.has(path)) continue;
    closure.add(path);
    for (const imported of outputs[path]?.imports ?? []) {
      if (imported.kind === 'import-statement' && !imported.external) pending.push(imported.path);
    }
  }
  return closure;
}

/**
 * The eager min+gzip size in bytes of a browser bundle of `entry`, exactly as
 * scripts/bundle-size.mjs measures its scenarios: esbuild (browser, ESM, minified,
 * code splitting, es2022), the package's `imports` resolved as a browser bundler
 * does, and the sum of the gzip -9 sizes of the entry chunk and what it imports statically.
 */
async function eagerGzipBytes(entry: string): Promise<number> {
  const result = await build({
    entryPoints: [entry],
    absWorkingDir: root,
    bundle: true,
    minify: true,
    format: 'esm',
    platform: 'browser',
    target: 'es2022',
    splitting: true,
    write: false,
    metafile: true,
    outdir: 'dist-bundle',
    logLevel: 'silent',
    alias: {
      '#compile-schema': './src/core/compiled-schema.browser.ts',
      '#node-server': './src/testing/node-server.unsupported.ts',
      '#client-credentials': './src/management/grant.browser.ts',
    },
  });
  const outputs = result.metafile.outputs;
  const entryOutput = Object.keys(outputs).find((path) => outputs[path]?.entryPoint === entry);
  expect(entryOutput, `esbuild should name an output for ${entry}`).toBeDefined();
  let bytes = 0;
  for (const path of staticClosure(outputs, [entryOutput as string])) {
    const file = result.outputFiles.find((output) => output.path.endsWith(`/${path}`) || output.path === path);
    bytes += gzipSync(file?.contents ?? new Uint8Array(), { level: 9 }).length;
  }
  return bytes;
}

describe('the browser bundle README quotes', () => {
  let spaBytes = 0;
  beforeAll(async () => {
    spaBytes = await eagerGzipBytes('bench/spa-flow.ts');
  }, 30_000);

  it('states the SPA login page at or above its measured size (or within 0.3 KB of it)', () => {
    const [figure] = quoted(/login page loads (\d+(?:\.\d+)?) KB \(min\+gzip\)/);
    expect(Number(figure)).toBeGreaterThanOrEqual(spaBytes / 1000 - 0.3);
  });

  it('quotes no other KB figure that this test does not check', () => {
    const figures = [...readme.matchAll(/(\d+(?:\.\d+)?) KB\b/g)].map((match) => match[1]);
    expect(figures).toHaveLength(1);
  });
});

describe('the budgets docs/performance.md gives', () => {
  const performance = read('docs/performance.md');

  it('are those of scripts/bundle-size.mjs', () => {
    const spa = constantOf('scripts/bundle-size.mjs', /\bspa: ([\d_]+)/);
    const management = constantOf('scripts/bundle-size.mjs', /\bmanagement: ([\d_]+)/);
    expect(performance).toContain(`| SPA login flow, eager, min+gzip | ≤ ${spa / 1000} KB |`);
    expect(performance).toMatch(new RegExp(`\\| \`ManagementClient\` with a token, three calls: .* \\| ≤ ${management / 1000} KB \\|`));
  });

  it('are those of scripts/check-package.mjs', () => {
    const bytes = constantOf('scripts/check-package.mjs', /MAX_PACKED_BYTES = ([\d_]+)/);
    const files = constantOf('scripts/check-package.mjs', /MAX_FILES = ([\d_]+)/);
    expect(performance).toContain(`| the tarball, packed | ≤ ${bytes / 1000} kB |`);
    expect(performance).toContain(`| the tarball, files | ≤ ${files} |`);
  });
});

describe('the other figures README quotes', () => {
  it('names the Node versions of package.json engines', () => {
    const [first, second] = quoted(/Node\.js (\d+\.\d+)\+ or (\d+\.\d+)\+/);
    expect(packageJson.engines.node).toBe(`^${first} || >=${second}`);
  });

  it('names the Node versions the runtimes test runs', () => {
    const [listed] = quoted(/on Node\.js ([\d, and]+?) \(ESM and CommonJS\)/);
    const named = listed?.split(/, | and /).map(Number);
    const run = read('test/runtimes/run.mjs');
    const tested = [...new Set([...run.matchAll(/name: 'node-(\d+)-esm'/g)].map((match) => Number(match[1])))];
    expect(named).toEqual(tested);
    for (const version of tested) expect(run).toContain(`name: 'node-${version}-cjs'`);
  });

  it('gives the default retries, longest wait and timeout of src/core/options.ts', () => {
    const [retries] = quoted(/A 429 is retried up to (\d+) times/);
    const [maxDelaySeconds] = quoted(/The SDK sleeps at most (\d+) s before a retry/);
    const [timeoutSeconds] = quoted(/Each attempt times out after (\d+) s/);
    const policy = resolveRetryPolicy(undefined);
    expect(Number(retries)).toBe(policy.maxRetries);
    expect(Number(maxDelaySeconds) * 1000).toBe(policy.maxDelayMs);
    expect(Number(timeoutSeconds) * 1000).toBe(resolveCommonOptions({ domain: 'acme.example.com' }, '/api/v2').timeoutMs);
  });

  it('lists the runtime dependencies of package.json', () => {
    const [count, names] = quoted(/(\w+) runtime dependencies: ((?:`[\w-]+`(?:, )?)+)/);
    const listed = [...String(names).matchAll(/`([\w-]+)`/g)].map((match) => match[1]);
    const words = ['one', 'two', 'three', 'four', 'five', 'six'];
    expect(words.indexOf(String(count).toLowerCase()) + 1).toBe(listed.length);
    expect(listed.sort()).toEqual(Object.keys(packageJson.dependencies).sort());
  });

  it('lists every entry point package.json exports, and only those', () => {
    const table = read('README.md').match(/\| import \| what \|\n\|---\|---\|\n((?:\|.*\|\n)+)/);
    expect(table).not.toBeNull();
    const listed = [...String(table?.[1]).matchAll(/^\| `([^`]+)` \|/gm)].map((match) => match[1]);
    const exported = Object.keys(packageJson.exports)
      .filter((subpath) => subpath !== './package.json')
      .map((subpath) => (subpath === '.' ? 'idplatform' : `idplatform${subpath.slice(1)}`));
    expect(listed.sort()).toEqual(exported.sort());
  });

  it("gives the tarball's budget of scripts/check-package.mjs", () => {
    const [kilobytes, files] = quoted(/budget (\d+) kB and (\d+) files/);
    expect(Number(kilobytes) * 1000).toBe(constantOf('scripts/check-package.mjs', /MAX_PACKED_BYTES = ([\d_]+)/));
    expect(Number(files)).toBe(constantOf('scripts/check-package.mjs', /MAX_FILES = ([\d_]+)/));
  });

  it("gives the soak's default calls and concurrency of bench/soak.ts", () => {
    const [calls, concurrency] = quoted(/`npm run soak` \| ([\d ]+) calls at concurrency (\d+)/);
    expect(numberOf(calls)).toBe(constantOf('bench/soak.ts', /SOAK_CALLS \?\? ([\d_]+)/));
    expect(Number(concurrency)).toBe(constantOf('bench/soak.ts', /SOAK_CONCURRENCY \?\? ([\d_]+)/));
  });

  it("gives the fleet test's number of processes", () => {
    const [processes] = quoted(/`npm run test:fleet` \| (\d+) processes/);
    expect(Number(processes)).toBe(constantOf('test/fleet/fleet.fleet.ts', /const WORKERS = ([\d_]+)/));
  });
});
