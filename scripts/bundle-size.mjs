// Bundles the client-id-only SPA flow (bench/spa-flow.ts) for the browser with
// esbuild, minified, and checks its gzip size against the budget. Also checks that
// the bundle holds neither jose, Node built-ins nor the Management code.
// Usage: node scripts/bundle-size.mjs [--budget 10240] [--metafile out.json]
import { gzipSync } from 'node:zlib';
import { build } from 'esbuild';

const budgetIndex = process.argv.indexOf('--budget');
const budget = budgetIndex > 0 ? Number(process.argv[budgetIndex + 1]) : 10 * 1024;

const result = await build({
  entryPoints: ['bench/spa-flow.ts'],
  bundle: true,
  minify: true,
  format: 'esm',
  platform: 'browser',
  target: 'es2022',
  write: false,
  metafile: true,
  splitting: true,
  outdir: 'dist-bundle',
  logLevel: 'error',
});

// What the browser loads up front: the entry and the chunks it imports statically
// (code splitting moves code shared with a lazy chunk into such a chunk).
const outputs = result.metafile.outputs;
const entryName = Object.keys(outputs).find((name) => name.endsWith('spa-flow.js'));
const eagerNames = new Set([entryName]);
for (const name of eagerNames) {
  for (const imported of outputs[name].imports) if (imported.kind === 'import-statement') eagerNames.add(imported.path);
}
const fileOf = (name) => result.outputFiles.find((file) => file.path.endsWith(`/${name}`));
const eager = [...eagerNames].map(fileOf);
const gzip = gzipSync(Buffer.concat(eager.map((file) => file.contents)), { level: 9 }).length;
const inputs = [...eagerNames].flatMap((name) => Object.keys(outputs[name].inputs));
const forbidden = inputs.filter((input) => /node_modules\/jose\/|^node:|src\/management\//.test(input));
const lazyChunks = result.outputFiles
  .filter((file) => !eager.includes(file))
  .map((file) => `${file.path.split('/').pop()} ${gzipSync(file.contents, { level: 9 }).length} B`);

console.log(`SPA flow bundle (browser, min+gzip, ${eager.length} eager file(s)): ${gzip} B = ${(gzip / 1024).toFixed(2)} KiB (budget ${(budget / 1024).toFixed(2)} KiB)`);
console.log(`lazy chunks (min+gzip), loaded only for an ID token or private_key_jwt: ${lazyChunks.join(', ') || 'none'}`);
if (forbidden.length) {
  console.error(`the eager bundle includes code it must not: ${forbidden.join(', ')}`);
  process.exit(1);
}
if (gzip > budget) {
  console.error('over budget');
  process.exit(1);
}
