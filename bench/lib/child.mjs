/**
 * One variant in a process of its own, for the memory figures: loads only that
 * variant's SDK, makes the calls, and prints one JSON line.
 *   node lib/child.mjs rss <variant> <port> <calls> <concurrency>
 *     → { maxRssBytes }: peak RSS of the process after the calls
 *   node --expose-gc lib/child.mjs heap <variant> <port> <firstCalls> <totalCalls>
 *     → { heapFirst, heapTotal }: heapUsed after GC after the first and after all calls
 */
import { runConcurrently } from './stats.mjs';
import { checkVariant, createVariant } from './variants.mjs';

const [mode, variant, port, first, second] = process.argv.slice(2);
const call = await createVariant(variant, Number(port));
await checkVariant(variant, call);

/** heapUsed after full collections (twice, so that finalizers' garbage goes too). */
function heapAfterGc() {
  if (typeof global.gc !== 'function') throw new Error('run with --expose-gc');
  global.gc();
  global.gc();
  return process.memoryUsage().heapUsed;
}

if (mode === 'rss') {
  await runConcurrently(call, Number(first) - 1, Number(second));
  console.log(JSON.stringify({ maxRssBytes: process.resourceUsage().maxRSS * 1024 }));
} else if (mode === 'heap') {
  await runConcurrently(call, Number(first) - 1, 1);
  const heapFirst = heapAfterGc();
  await runConcurrently(call, Number(second) - Number(first), 1);
  const heapTotal = heapAfterGc();
  console.log(JSON.stringify({ heapFirst, heapTotal }));
} else {
  throw new Error(`unknown mode ${mode}`);
}
process.exit(0);
