/**
 * `npm run bench:profile -- <variant> [--calls N] [--concurrency C] [--top N]`: where one
 * variant's client CPU goes, per call. Runs the variant against the loopback
 * server (in its own process) under V8's sampling profiler (`node:inspector`, the
 * profile `node --cpu-prof` writes) and prints the self time per call of each part:
 * idplatform's code (under Node with its bundled dependencies, and with
 * `JSON.parse` of the body, which V8 counts in its caller), code zod generated (its
 * compiled validators), undici (`fetch`), web streams, timers, abort signals,
 * garbage collection, built-ins and the rest of Node. The `kyAlone` variant counts
 * ky and `JSON.parse` apart ("dependency: ky", "benchmark script").
 *
 * Variants (bench/lib/variants.mjs): raw, kyAlone (ky alone: a ky instance with the
 * options the SDK's sender uses, `.text()` + `JSON.parse`, no SDK code; `ky` is
 * accepted for it), auth0, validating, unvalidated. Compare two variants in two
 * runs of this script, on a quiet machine. `--top N` also lists
 * the N functions with the most self time per call (name, file, line, part).
 */
import { Session } from 'node:inspector/promises';
import { prepare } from './lib/prepare.mjs';
import { startServer } from './lib/server-process.mjs';
import { runConcurrently } from './lib/stats.mjs';
import { createVariant } from './lib/variants.mjs';

const args = process.argv.slice(2);
const option = (name, fallback) => {
  const index = args.indexOf(name);
  return index >= 0 ? Number(args[index + 1]) : fallback;
};
const named = args.find((arg) => !arg.startsWith('--') && !/^\d+$/.test(arg)) ?? 'validating';
const variant = named === 'ky' ? 'kyAlone' : named;
const CALLS = option('--calls', 5_000);
const CONCURRENCY = option('--concurrency', 1);
const TOP = option('--top', 0);

/** The part of the code a profile node belongs to. */
function partOf({ url, functionName }) {
  if (!url) {
    if (functionName === '') return 'generated code (zod compiled validators)';
    return functionName === '(garbage collector)' ? 'garbage collection' : 'V8 and Node built-ins';
  }
  if (url.includes('node_modules/ky/') || url.includes('node_modules/zod/') || url.includes('node_modules/p-retry/')) {
    return `dependency: ${url.split('node_modules/')[1].split('/')[0]}`;
  }
  if (url.includes('/dist/')) return url.includes('node_modules/auth0/') ? 'auth0@7' : 'idplatform (with its bundled dependencies)';
  if (url.includes('node_modules/')) return `dependency: ${url.split('node_modules/').pop().split('/')[0]}`;
  if (url.includes('undici')) return 'undici (fetch)';
  if (url.includes('webstreams')) return 'web streams';
  if (url.startsWith('node:internal/timers') || url === 'node:timers') return 'timers';
  if (url.includes('abort_controller') || url.includes('event_target')) return 'abort signals, event targets';
  if (url.startsWith('node:')) return 'rest of Node';
  return 'benchmark script';
}

prepare();
const server = await startServer();
try {
  const call = await createVariant(variant, server.port);
  await runConcurrently(call, 500, CONCURRENCY);
  const session = new Session();
  session.connect();
  await session.post('Profiler.enable');
  await session.post('Profiler.setSamplingInterval', { interval: 100 });
  await session.post('Profiler.start');
  const cpuBefore = process.cpuUsage();
  await runConcurrently(call, CALLS, CONCURRENCY);
  const cpu = process.cpuUsage(cpuBefore);
  const { profile } = await session.post('Profiler.stop');
  session.disconnect();

  const nodes = new Map(profile.nodes.map((node) => [node.id, node]));
  const parts = new Map();
  const functions = new Map();
  let sampled = 0;
  for (let index = 0; index < profile.samples.length; index++) {
    const node = nodes.get(profile.samples[index]);
    const delta = profile.timeDeltas[index] ?? 0;
    if (node.callFrame.functionName === '(idle)') continue;
    const part = partOf(node.callFrame);
    parts.set(part, (parts.get(part) ?? 0) + delta);
    const { functionName, url, lineNumber } = node.callFrame;
    const where = `${functionName || '(anonymous)'} ${url.split('/').slice(-2).join('/')}:${lineNumber + 1} (${part})`;
    functions.set(where, (functions.get(where) ?? 0) + delta);
    sampled += delta;
  }
  const perCall = (us) => (us / CALLS).toFixed(1).padStart(7);
  console.log(`${variant}, ${CALLS} calls at concurrency ${CONCURRENCY}: ${perCall(cpu.user + cpu.system)} µs CPU per call (process)\n`);
  console.log('| part | µs per call (main thread, sampled) |\n| --- | --- |');
  for (const [part, us] of [...parts].sort((a, b) => b[1] - a[1])) console.log(`| ${part} | ${perCall(us).trim()} |`);
  console.log(`| all sampled | ${perCall(sampled).trim()} |`);
  if (TOP > 0) {
    console.log(`\n| function (top ${TOP} by self time) | µs per call |\n| --- | --- |`);
    for (const [where, us] of [...functions].sort((a, b) => b[1] - a[1]).slice(0, TOP)) console.log(`| ${where} | ${perCall(us).trim()} |`);
  }
} finally {
  server.stop();
}
process.exit(0);
