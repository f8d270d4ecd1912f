/**
 * `npm run bench`: idplatform against ky alone, raw `fetch` and auth0@7, listing one
 * page of 50 invitations over loopback HTTP. Prints the budgets (figure, value,
 * budget, pass/fail), the other figures for information and the figures per
 * variant, writes bench/results.md and exits 1 when a budget fails.
 *
 *   node bench/compare.mjs [--quick] [--report-only]
 *
 * --quick        fewer calls and runs (a few minutes on a quiet 2-core machine); the figures are noisier
 * --report-only  always exit 0 (print and write the figures, fail nothing)
 * --render-only  no measuring: render bench/results.json, the raw figures of the last run
 *
 * Variants (bench/lib/variants.mjs): raw `fetch` + `res.json()`; ky alone (a ky
 * instance with the options the SDK's sender uses, `.text()` + `JSON.parse`, no SDK
 * code); auth0@7's `ManagementClient`; idplatform's `ManagementClient` validating
 * responses, and with `validateResponses: false`.
 *
 * Budgets:
 * - a validating call costs at most 40 µs of client CPU more than the same call
 *   through ky alone (sequential calls, CPU time of the client process per call);
 * - a validating client's throughput at 32 calls in flight is at least 0.92 times
 *   ky alone's and at least 1.10 times auth0@7's;
 * - the cold `import('idplatform/management')`, over `node -e ""`, takes at most
 *   0.17 of the time `import('auth0')` takes over the same (wall time, both in the
 *   same run).
 * Latency, the not-validating client, memory and the other cold imports are
 * printed for information.
 *
 * The server runs in its own process; latency is measured alternating call by
 * call. Throughput and CPU are measured in alternating blocks, each block in a child
 * process of its own that loads one variant, as an app runs one SDK: in a shared
 * process the variants' calls share the JIT's state of `fetch`, and one variant's
 * figures depend on which others run beside it. Memory in one child process per
 * variant; cold import as `node --input-type=module -e "await import(…)"` over the
 * same command with an empty script, the entries alternating run by run, median
 * of many runs each.
 */
import { spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { cpus } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { INVITATION_PAGE_BODY, PER_PAGE } from './lib/fixtures.mjs';
import { BENCH_DIR, prepare } from './lib/prepare.mjs';
import { startServer } from './lib/server-process.mjs';
import { median, percentile } from './lib/stats.mjs';
import { checkVariant, createVariant, VARIANT_LABELS, VARIANT_NAMES } from './lib/variants.mjs';

const args = new Set(process.argv.slice(2));
const quick = args.has('--quick');
const reportOnly = args.has('--report-only');
const renderOnly = args.has('--render-only');

/** How much each part runs; `--quick` trades precision for time. */
const PLAN = quick
  ? {
      quick: true,
      warmup: 300,
      latencyRounds: 800,
      blocks: 3,
      blockCalls: 400,
      throughputCalls: 960,
      concurrency: 32,
      memoryCalls: 2_000,
      heapCalls: 20_000,
      heapVariants: ['validating'],
      coldRuns: 9,
    }
  : {
      quick: false,
      warmup: 600,
      latencyRounds: 3_000,
      blocks: 6,
      blockCalls: 1_000,
      throughputCalls: 3_200,
      concurrency: 32,
      memoryCalls: 2_000,
      heapCalls: 20_000,
      heapVariants: ['validating', 'unvalidated', 'auth0'],
      coldRuns: 21,
    };

/** The raw figures of the last run (not committed). */
const RAW_RESULTS = join(BENCH_DIR, 'results.json');
const CHILD = fileURLToPath(new URL('./lib/child.mjs', import.meta.url));
const startedAt = performance.now();
const log = (message) => process.stderr.write(`[${((performance.now() - startedAt) / 1000).toFixed(0).padStart(3)} s] ${message}\n`);

// ── Measuring ────────────────────────────────────────────────────────────────

async function measureAll(port) {
  const calls = {};
  for (const name of VARIANT_NAMES) {
    calls[name] = await createVariant(name, port);
    await checkVariant(name, calls[name]);
  }
  log(`body: ${PER_PAGE} invitations, ${INVITATION_PAGE_BODY.length} bytes; ${quick ? 'quick run' : 'full run'}`);

  log('warming up …');
  for (let i = 0; i < PLAN.warmup; i++) for (const name of VARIANT_NAMES) await calls[name]();

  log(`latency: ${PLAN.latencyRounds} rounds, alternating call by call …`);
  const latency = Object.fromEntries(VARIANT_NAMES.map((name) => [name, []]));
  for (let round = 0; round < PLAN.latencyRounds; round++) {
    for (let k = 0; k < VARIANT_NAMES.length; k++) {
      const name = VARIANT_NAMES[(round + k) % VARIANT_NAMES.length];
      const start = performance.now();
      await calls[name]();
      latency[name].push(performance.now() - start);
    }
  }

  log(`throughput at c=${PLAN.concurrency} and CPU per call: ${PLAN.blocks} alternating blocks per variant, a process each …`);
  const throughput = Object.fromEntries(VARIANT_NAMES.map((name) => [name, []]));
  const cpuConcurrent = Object.fromEntries(VARIANT_NAMES.map((name) => [name, []]));
  const cpuSequential = Object.fromEntries(VARIANT_NAMES.map((name) => [name, []]));
  const blockArgs = [PLAN.warmup, PLAN.throughputCalls, PLAN.concurrency, PLAN.blockCalls].map(String);
  for (let block = 0; block < PLAN.blocks; block++) {
    for (let k = 0; k < VARIANT_NAMES.length; k++) {
      const name = VARIANT_NAMES[(block + k) % VARIANT_NAMES.length];
      const figures = runChild(['--expose-gc', CHILD, 'block', name, String(port), ...blockArgs]);
      throughput[name].push(figures.callsPerSecond);
      cpuConcurrent[name].push(figures.cpuConcurrent);
      cpuSequential[name].push(figures.cpuSequential);
    }
  }

  log(`peak RSS after ${PLAN.memoryCalls} calls, one child process per variant and mode …`);
  const rss = { sequential: {}, concurrent: {} };
  for (const [mode, concurrency] of [
    ['sequential', 1],
    ['concurrent', PLAN.concurrency],
  ]) {
    for (const name of VARIANT_NAMES) {
      rss[mode][name] = runChild([CHILD, 'rss', name, String(port), String(PLAN.memoryCalls), String(concurrency)]).maxRssBytes;
    }
  }

  log(`heap after ${PLAN.heapCalls} vs after ${PLAN.memoryCalls} calls (after GC): ${PLAN.heapVariants.join(', ')} …`);
  const heap = {};
  for (const name of PLAN.heapVariants) {
    heap[name] = runChild(['--expose-gc', CHILD, 'heap', name, String(port), String(PLAN.memoryCalls), String(PLAN.heapCalls)]);
  }

  log(`cold import: ${PLAN.coldRuns} runs per entry, alternating …`);
  const cold = measureColdImports();

  const summary = (values) => ({ median: median(values), p99: percentile(values, 99) });
  return {
    latency: Object.fromEntries(VARIANT_NAMES.map((name) => [name, summary(latency[name])])),
    throughput: Object.fromEntries(VARIANT_NAMES.map((name) => [name, median(throughput[name])])),
    cpuSequential: Object.fromEntries(VARIANT_NAMES.map((name) => [name, median(cpuSequential[name])])),
    cpuConcurrent: Object.fromEntries(VARIANT_NAMES.map((name) => [name, median(cpuConcurrent[name])])),
    rss,
    heap,
    cold,
  };
}

function runChild(childArgs) {
  const result = spawnSync(process.execPath, childArgs, { cwd: BENCH_DIR, encoding: 'utf8' });
  if (result.status !== 0) throw new Error(`child ${childArgs.join(' ')} failed:\n${result.stderr}`);
  return JSON.parse(result.stdout.trim().split('\n').pop());
}

/** Entries whose cold import is measured; the baseline is the same command with an empty script. */
const COLD_ENTRIES = {
  baseline: '',
  'idplatform/management': "await import('idplatform/management');",
  'idplatform/auth': "await import('idplatform/auth');",
  auth0: "await import('auth0');",
};

/** Prints the process's CPU time (user + system, ms) at the end of each cold-import command. */
const CPU_REPORT = 'const u = process.cpuUsage(); process.stdout.write(String((u.user + u.system) / 1000));';

function measureColdImports() {
  const names = Object.keys(COLD_ENTRIES);
  const wall = Object.fromEntries(names.map((name) => [name, []]));
  const cpu = Object.fromEntries(names.map((name) => [name, []]));
  for (let run = 0; run < PLAN.coldRuns; run++) {
    for (let k = 0; k < names.length; k++) {
      const name = names[(run + k) % names.length];
      const start = performance.now();
      const result = spawnSync(process.execPath, ['--input-type=module', '-e', `${COLD_ENTRIES[name]}\n${CPU_REPORT}`], {
        cwd: BENCH_DIR,
        encoding: 'utf8',
      });
      const elapsed = performance.now() - start;
      if (result.status !== 0) throw new Error(`cold import of ${name} failed:\n${result.stderr}`);
      wall[name].push(elapsed);
      cpu[name].push(Number(result.stdout));
    }
  }
  const over = (samples, name) => median(samples[name]) - median(samples.baseline);
  return Object.fromEntries(
    names.filter((name) => name !== 'baseline').map((name) => [name, { wall: over(wall, name), cpu: over(cpu, name) }]),
  );
}

// ── Budgets ──────────────────────────────────────────────────────────────────

/** Budgeted rows (`pass`/`FAIL`) first, in a fixed order, then rows for information. */
function budgetRows(r) {
  const budgets = [];
  const infos = [];
  const ratio = (a, b) => a / b;
  const x = (value) => `${value.toFixed(2)}×`;
  /** A ratio checked against a budget: three decimals, so that a row on its budget never reads as a contradiction (0.997× is no 1.00×). */
  const x3 = (value) => `${value.toFixed(3)}×`;
  const ms = (value) => `${value.toFixed(3)} ms`;
  const us = (value) => `${value >= 0 ? '+' : '−'}${Math.abs(value).toFixed(1)} µs`;
  const check = (figure, value, text, budget, pass) => budgets.push({ figure, value: text, budget, result: pass(value) ? 'pass' : 'FAIL' });
  const info = (figure, text) => infos.push({ figure, value: text, budget: '—', result: 'info' });

  const { latency, throughput, cpuSequential, cpuConcurrent, rss, heap, cold } = r;
  const c = PLAN.concurrency;

  // Budgets.
  const vCpu = cpuSequential.validating - cpuSequential.kyAlone;
  check(
    'validating call, client CPU over ky alone',
    vCpu,
    `${us(vCpu)} (${cpuSequential.validating.toFixed(0)} µs vs ${cpuSequential.kyAlone.toFixed(0)} µs)`,
    '≤ +40 µs',
    (v) => v <= 40,
  );
  const vTpKy = ratio(throughput.validating, throughput.kyAlone);
  check(
    `validating, throughput at c=${c} vs ky alone`,
    vTpKy,
    `${x3(vTpKy)} (${throughput.validating.toFixed(0)}/s vs ${throughput.kyAlone.toFixed(0)}/s)`,
    '≥ 0.92×',
    (v) => v >= 0.92,
  );
  const vTpAuth0 = ratio(throughput.validating, throughput.auth0);
  check(
    `validating, throughput at c=${c} vs auth0@7`,
    vTpAuth0,
    `${x3(vTpAuth0)} (${throughput.validating.toFixed(0)}/s vs ${throughput.auth0.toFixed(0)}/s)`,
    '≥ 1.10×',
    (v) => v >= 1.1,
  );
  const management = cold['idplatform/management'];
  const coldShare = ratio(management.wall, cold.auth0.wall);
  check(
    "cold import('idplatform/management') over `node -e \"\"`, as a share of import('auth0')'s over the same",
    coldShare,
    `${x3(coldShare)} (+${management.wall.toFixed(0)} ms vs +${cold.auth0.wall.toFixed(0)} ms; CPU ${x3(ratio(management.cpu, cold.auth0.cpu))})`,
    '≤ 0.17×',
    (v) => v <= 0.17,
  );

  // For information.
  const uCpu = cpuSequential.unvalidated - cpuSequential.kyAlone;
  info(
    'not validating call, client CPU over ky alone',
    `${us(uCpu)} (${cpuSequential.unvalidated.toFixed(0)} µs vs ${cpuSequential.kyAlone.toFixed(0)} µs)`,
  );
  info(
    `validating / not validating call, client CPU at c=${c} over ky alone`,
    `${us(cpuConcurrent.validating - cpuConcurrent.kyAlone)} / ${us(cpuConcurrent.unvalidated - cpuConcurrent.kyAlone)}`,
  );
  info('validating, client CPU per call vs auth0@7', x(ratio(cpuSequential.validating, cpuSequential.auth0)));
  info(
    'validating, median latency vs auth0@7',
    `${x3(ratio(latency.validating.median, latency.auth0.median))} (${ms(latency.validating.median)} vs ${ms(latency.auth0.median)})`,
  );
  info(
    'validating, median latency vs raw',
    `${x3(ratio(latency.validating.median, latency.raw.median))} (${ms(latency.validating.median)} vs ${ms(latency.raw.median)})`,
  );
  info(
    'validating, p99 latency vs auth0@7 / vs raw',
    `${x(ratio(latency.validating.p99, latency.auth0.p99))} / ${x(ratio(latency.validating.p99, latency.raw.p99))}`,
  );
  info(
    'not validating, median latency vs raw',
    `${x3(ratio(latency.unvalidated.median, latency.raw.median))} (${ms(latency.unvalidated.median)} vs ${ms(latency.raw.median)})`,
  );
  info(
    'not validating, p99 latency vs raw / vs auth0@7',
    `${x(ratio(latency.unvalidated.p99, latency.raw.p99))} / ${x(ratio(latency.unvalidated.p99, latency.auth0.p99))}`,
  );
  info(
    'ky alone / auth0@7, median latency vs raw',
    `${x(ratio(latency.kyAlone.median, latency.raw.median))} / ${x(ratio(latency.auth0.median, latency.raw.median))}`,
  );
  info(
    `not validating, throughput at c=${c} vs ky alone / vs raw`,
    `${x(ratio(throughput.unvalidated, throughput.kyAlone))} / ${x(ratio(throughput.unvalidated, throughput.raw))}`,
  );
  info(`ky alone, throughput at c=${c} vs raw`, x(ratio(throughput.kyAlone, throughput.raw)));
  for (const [mode, label] of [
    ['sequential', 'sequential'],
    ['concurrent', `c=${c}`],
  ]) {
    info(
      `validating, peak RSS after ${PLAN.memoryCalls} calls (${label}) vs auth0@7 / vs ky alone`,
      `${x3(ratio(rss[mode].validating, rss[mode].auth0))} / ${x3(ratio(rss[mode].validating, rss[mode].kyAlone))} (${mb(rss[mode].validating)} vs ${mb(rss[mode].auth0)} / ${mb(rss[mode].kyAlone)})`,
    );
  }
  for (const name of PLAN.heapVariants) {
    info(
      `${VARIANT_LABELS[name]}: heap after ${PLAN.heapCalls} vs ${PLAN.memoryCalls} calls`,
      `${x3(heap[name].heapTotal / heap[name].heapFirst)} (${mb(heap[name].heapTotal)} vs ${mb(heap[name].heapFirst)})`,
    );
  }
  const coldText = ({ wall, cpu }) => `+${wall.toFixed(0)} ms (CPU +${cpu.toFixed(0)} ms)`;
  info('cold import idplatform/management over node -e ""', coldText(management));
  info('cold import idplatform/auth over node -e ""', coldText(cold['idplatform/auth']));
  info('cold import auth0 over node -e ""', coldText(cold.auth0));
  return { budgets, infos };
}

const mb = (bytes) => `${(bytes / 1e6).toFixed(1)} MB`;

// ── Output ───────────────────────────────────────────────────────────────────

function renderTable(header, rows) {
  const escapeCell = (cell) => String(cell).replaceAll('|', '\\|');
  return [header, header.map(() => '---'), ...rows].map((row) => `| ${row.map(escapeCell).join(' | ')} |`).join('\n');
}

function renderFigures(r) {
  const rows = VARIANT_NAMES.map((name) => [
    VARIANT_LABELS[name],
    r.latency[name].median.toFixed(3),
    r.latency[name].p99.toFixed(3),
    r.throughput[name].toFixed(0),
    r.cpuSequential[name].toFixed(0),
    r.cpuConcurrent[name].toFixed(0),
    mb(r.rss.sequential[name]),
    mb(r.rss.concurrent[name]),
  ]);
  return renderTable(
    [
      'variant',
      'median ms',
      'p99 ms',
      `calls/s at c=${PLAN.concurrency}`,
      'CPU µs/call',
      `CPU µs/call at c=${PLAN.concurrency}`,
      'peak RSS (seq)',
      `peak RSS (c=${PLAN.concurrency})`,
    ],
    rows,
  );
}

function renderResults(budgetTable, infoTable, figures) {
  const cpu = cpus();
  return `# Benchmark results

Written by \`npm run bench${PLAN.quick ? ' -- --quick' : ''}\`; compare figures within one run (the machine is shared and noisy).

- machine: ${cpu[0]?.model ?? 'unknown CPU'}, ${cpu.length} cores
- Node ${process.version}, ${process.platform}/${process.arch}
- date: ${new Date().toISOString()}
- body: ${PER_PAGE} invitations, ${INVITATION_PAGE_BODY.length} bytes, over loopback HTTP from a server in its own process
- variants: ${VARIANT_NAMES.map((name) => VARIANT_LABELS[name]).join('; ')}
- runs: ${PLAN.latencyRounds} latency rounds alternating call by call; ${PLAN.blocks} alternating blocks of ${PLAN.throughputCalls} calls at c=${PLAN.concurrency} and of ${PLAN.blockCalls} sequential calls (CPU), each block in a child process of its own; memory in one child process per variant; cold import median of ${PLAN.coldRuns} runs

## Budgets

${budgetTable}

## Other figures

${infoTable}

## Figures per variant

${figures}
`;
}

// ── Main ──────────────────────────────────────────────────────────────────────

/** Prints the tables, writes bench/results.md and sets the exit code. */
function report(results) {
  const missing = VARIANT_NAMES.filter((name) => !(name in results.throughput));
  if (missing.length > 0) throw new Error(`the saved figures have no ${missing.join(', ')} variant: run the bench again`);
  const { budgets, infos } = budgetRows(results);
  const header = ['figure', 'value', 'budget', 'result'];
  const toCells = (row) => [row.figure, row.value, row.budget, row.result];
  const budgetTable = renderTable(header, budgets.map(toCells));
  const infoTable = renderTable(header, infos.map(toCells));
  const figures = renderFigures(results);
  console.log(`\n${budgetTable}\n\n${infoTable}\n\n${figures}`);
  writeFileSync(join(BENCH_DIR, 'results.md'), renderResults(budgetTable, infoTable, figures));
  log('written: bench/results.md');
  const failed = budgets.filter((row) => row.result === 'FAIL');
  if (failed.length > 0) {
    log(`${failed.length} budget(s) failed${reportOnly ? ' (--report-only: exit 0)' : ''}`);
    if (!reportOnly) process.exitCode = 1;
  }
}

if (renderOnly) {
  const saved = JSON.parse(readFileSync(RAW_RESULTS, 'utf8'));
  Object.assign(PLAN, saved.plan);
  report(saved.results);
} else {
  prepare();
  const server = await startServer();
  try {
    const results = await measureAll(server.port);
    // The raw figures, kept so that a run is never lost to the rendering (`--render-only` reads them back).
    writeFileSync(RAW_RESULTS, JSON.stringify({ plan: PLAN, results }, null, 2));
    report(results);
  } finally {
    server.stop();
  }
}
