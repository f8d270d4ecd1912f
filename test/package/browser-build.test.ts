/**
 * The modular build as a bundler resolves it: package.json `imports` give browser
 * builds a `ManagementClient` that takes a `token` only (`#client-credentials`), and
 * worker builds the whole grant. Each bundle (from dist/, built by `npm test`'s
 * pretest) runs in Node here, so the constructor's answer is what that build does.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { build } from 'esbuild';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ManagementClient as ManagementClientType } from '../../src/management/index.js';

const root = join(import.meta.dirname, '../..');
let dir: string;

/** `ManagementClient` from dist/management/index.js bundled with esbuild for `platform` (and its conditions), then imported. */
async function bundledClient(name: string, platform: 'browser' | 'neutral', conditions?: string[]) {
  const result = await build({
    entryPoints: [join(root, 'dist/management/index.js')],
    bundle: true,
    write: false,
    format: 'esm',
    platform,
    ...(conditions && { conditions, mainFields: ['browser', 'module', 'main'] }),
    // The package's own resolution: not tsconfig.json's paths, which name the sources.
    tsconfigRaw: '{}',
    logLevel: 'silent',
  });
  const [output] = result.outputFiles;
  const file = join(dir, `${name}.mjs`);
  await writeFile(file, output?.text ?? '');
  const { ManagementClient } = (await import(pathToFileURL(file).href)) as { ManagementClient: typeof ManagementClientType };
  return { ManagementClient, text: output?.text ?? '' };
}

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'idplatform-browser-build-'));
});

afterAll(async () => {
  if (dir) await rm(dir, { recursive: true, force: true });
});

describe('the browser build of ManagementClient', () => {
  it('takes a token, and refuses a client secret or signing key in the constructor', async () => {
    const { ManagementClient, text } = await bundledClient('browser', 'browser');
    expect(new ManagementClient({ domain: 'tenant.test', token: 't' }).toJSON()).toEqual({ baseUrl: 'https://tenant.test/api/v2' });
    expect(() => new ManagementClient({ domain: 'tenant.test', clientId: 'c', clientSecret: 's' })).toThrow(
      /must never be shipped to a browser: pass a `token` your backend obtained instead \(this is the browser build\)/,
    );
    const key = { kty: 'RSA', n: 'n', e: 'AQAB', d: 'd' };
    expect(() => new ManagementClient({ domain: 'tenant.test', clientId: 'c', clientAssertionSigningKey: key })).toThrow(
      /never be shipped to a browser/,
    );
    // None of the grant's code is in it: no token request, no credential checks.
    expect(text).not.toContain('oauth/token');
    expect(text).not.toContain('clientSecret` must be a non-empty string');
  });
});

describe('the worker build of ManagementClient (workerd, worker, browser conditions, as wrangler resolves them)', () => {
  it('keeps the client-credentials grant and checks its options in the constructor', async () => {
    const { ManagementClient, text } = await bundledClient('worker', 'neutral', ['workerd', 'worker', 'browser']);
    expect(text).toContain('oauth/token');
    expect(new ManagementClient({ domain: 'tenant.test', clientId: 'c', clientSecret: 's' }).toJSON()).toEqual({
      baseUrl: 'https://tenant.test/api/v2',
    });
    expect(() => new ManagementClient({ domain: 'tenant.test', clientId: 'c', clientSecret: '' })).toThrow(
      '`clientSecret` must be a non-empty string',
    );
  });
});
