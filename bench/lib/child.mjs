/**
 * One variant in a process of its own, for the throughput, CPU and memory figures:
 * loads only that variant's SDK, makes the calls, and prints one JSON line.
 *   node --expose-gc lib/child.mjs block <variant> <port> <warmup> <calls> <concurrency> <sequentialCalls>
 *     → { callsPerSecond, cpuConcurrent, cpuSequential }: after `warmup` calls, `calls` calls at
 *       `concurrency` in flight, then `sequentialCalls` one after another (CPU in µs per call;
 *       a full collection before each part)
 *   node lib/child.mjs rss <variant> <port> <calls> <concurrency>
 *     → { maxRssBytes }: peak RSS of the process after the calls
 *   node --expose-gc lib/child.mjs heap <variant> <port> <firstCalls> <totalCalls>
 *     → { heapFirst, heapTotal }: heapUsed after GC after the first and after all calls
 */
import { performance } from 'node:perf_hooks';
import { runConcurrently } from './stats.mjs';
import { checkVariant, createVariant } from './variants.mjs';

const [mode, variant, port, first, second] = process.argv.slice(2);
const call = await createVariant(variant, Number(port));
await checkVariant(variant, call);

/**
 * heapUsed after full collections, with two turns of the event loop between them:
 * FinalizationRegistry callbacks (undici registers every Request's signal with one)
 * run as tasks after a collection, not during it, so what they release is only
 * collectable after such a turn. Without the turns the figure swings by about 10 %
 * from run to run with garbage that merely waits for its finalizer.
 */
async function heapAfterGc() {
  if (typeof global.gc !== 'function') throw new Error('run with --expose-gc');
  for (let round = 0; round < 3; round++) {
    global.gc();
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  global.gc();
  return process.memoryUsage().heapUsed;
}

if (mode === 'block') {
  const [warmup, calls, concurrency, sequentialCalls] = process.argv.slice(5).map(Number);
  for (let i = 0; i < warmup; i++) await call();
  global.gc();
  let cpuBefore = process.cpuUsage();
  const start = performance.now();
  await runConcurrently(call, calls, concurrency);
  const elapsed = performance.now() - start;
  let cpu = process.cpuUsage(cpuBefore);
  const callsPerSecond = (calls * 1000) / elapsed;
  const cpuConcurrent = (cpu.user + cpu.system) / calls;
  global.gc();
  cpuBefore = process.cpuUsage();
  for (let i = 0; i < sequentialCalls; i++) await call();
  cpu = process.cpuUsage(cpuBefore);
  console.log(JSON.stringify({ callsPerSecond, cpuConcurrent, cpuSequential: (cpu.user + cpu.system) / sequentialCalls }));
} else if (mode === 'rss') {
  await runConcurrently(call, Number(first) - 1, Number(second));
  console.log(JSON.stringify({ maxRssBytes: process.resourceUsage().maxRSS * 1024 }));
} else if (mode === 'heap') {
  await runConcurrently(call, Number(first) - 1, 1);
  const heapFirst = await heapAfterGc();
  await runConcurrently(call, Number(second) - Number(first), 1);
  const heapTotal = await heapAfterGc();
  console.log(JSON.stringify({ heapFirst, heapTotal }));
} else {
  throw new Error(`unknown mode ${mode}`);
}
process.exit(0);
