import { isRealBrowser } from './options.js';

/** The JavaScript runtimes the SDK names in its `User-Agent`, e.g. `bun/1.4.5`. */
interface RuntimeGlobals {
  readonly Bun?: { readonly version?: string };
  readonly Deno?: { readonly version?: { readonly deno?: string } };
  readonly navigator?: { readonly userAgent?: string };
  readonly process?: { readonly versions?: { readonly node?: string } };
}

/**
 * The runtime as `name/version` for the `User-Agent` header: `bun/…`, `deno/…`,
 * `workerd` (Cloudflare Workers, which hide their version) or `node/…`. Bun and Deno
 * are checked before Node because both also set `process.versions.node`. `undefined`
 * in real browsers (they do not let scripts set `User-Agent`; a DOM simulated on a
 * server runtime does not count) and in unknown runtimes.
 */
export function runtimeName(globals: RuntimeGlobals = globalThis as RuntimeGlobals): string | undefined {
  if (isRealBrowser()) return undefined;
  if (typeof globals.Bun?.version === 'string') return `bun/${globals.Bun.version}`;
  if (typeof globals.Deno?.version?.deno === 'string') return `deno/${globals.Deno.version.deno}`;
  if (globals.navigator?.userAgent === 'Cloudflare-Workers') return 'workerd';
  if (typeof globals.process?.versions?.node === 'string') return `node/${globals.process.versions.node}`;
  return undefined;
}
