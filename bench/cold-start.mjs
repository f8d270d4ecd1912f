/**
 * `npm run bench:cold`: cold import of each entry from the builds `npm run build`
 * makes (the modular `dist/` bundlers get, `dist/node/` that Node's `import` loads,
 * and `dist/*.cjs`) against the same entries bundled by esbuild with some or all of
 * their dependencies. Report only; changes no build.
 *
 *   node bench/cold-start.mjs [--runs N]
 *
 * Builds go to node_modules/.cache/idplatform-cold/<variant>/ (inside the package,
 * so that the external dependencies resolve from its node_modules). Each figure is
 * the median over N runs of `node --input-type=module -e "await import(file)"` minus
 * the same command with an empty script, in wall time and in the process's CPU
 * time (user + system; steadier on a shared machine). Runs alternate across all
 * variants and entries.
 */
import { spawnSync } from 'node:child_process';
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { pathToFileURL } from 'node:url';
import { build } from 'esbuild';
import { prepare, ROOT_DIR } from './lib/prepare.mjs';
import { median } from './lib/stats.mjs';

const runsIndex = process.argv.indexOf('--runs');
const RUNS = runsIndex > 0 ? Number(process.argv[runsIndex + 1]) : 21;
const CACHE = join(ROOT_DIR, 'node_modules/.cache/idplatform-cold');
const ENTRIES = { 'idplatform/management': 'management/index', 'idplatform/auth': 'auth/index', idplatform: 'index' };
const ALL_DEPENDENCIES = ['ky', 'p-retry', 'is-network-error', 'jose', 'zod'];

/** Build variants: which dependencies stay external (everything else is bundled in). */
const VARIANTS = {
  'bundled: ky, p-retry': ['jose', 'zod'],
  'bundled: ky, p-retry, jose': ['zod'],
  'bundled: all (zod too)': [],
};

async function buildVariant(name, external) {
  const outdir = join(CACHE, name.replace(/[^a-z]+/gi, '-'));
  rmSync(outdir, { recursive: true, force: true });
  await build({
    absWorkingDir: ROOT_DIR,
    entryPoints: Object.fromEntries(Object.values(ENTRIES).map((out) => [out, `src/${out}.ts`])),
    bundle: true,
    splitting: true,
    format: 'esm',
    platform: 'node',
    target: 'es2022',
    outdir,
    external: [...external.flatMap((dependency) => [dependency, `${dependency}/*`]), 'msw'],
    logLevel: 'error',
  });
  return outdir;
}

prepare();
const dirs = {
  'dist/: the modular build bundlers get (deps external)': join(ROOT_DIR, 'dist'),
  'dist/node/: what Node loads (deps bundled)': join(ROOT_DIR, 'dist/node'),
};
for (const [name, external] of Object.entries(VARIANTS)) dirs[name] = await buildVariant(name, external);

const cases = [{ key: 'baseline', script: '' }];
for (const [variant, dir] of Object.entries(dirs)) {
  for (const [entry, out] of Object.entries(ENTRIES)) {
    cases.push({ key: `${variant}|${entry}`, script: `await import(${JSON.stringify(pathToFileURL(join(dir, `${out}.js`)).href)});` });
  }
}
// The CommonJS build (every dependency bundled in), with `require`.
const CJS_VARIANT = 'dist/*.cjs with require (deps bundled)';
dirs[CJS_VARIANT] = join(ROOT_DIR, 'dist');
for (const [entry, out] of Object.entries(ENTRIES)) {
  const file = JSON.stringify(join(ROOT_DIR, 'dist', `${out}.cjs`));
  cases.push({
    key: `${CJS_VARIANT}|${entry}`,
    script: `const { createRequire } = await import('node:module'); createRequire(${file})(${file});`,
  });
}
const cpuReport = 'const u = process.cpuUsage(); process.stdout.write(String((u.user + u.system) / 1000));';
const wall = Object.fromEntries(cases.map(({ key }) => [key, []]));
const cpu = Object.fromEntries(cases.map(({ key }) => [key, []]));
process.stderr.write(`${cases.length} commands × ${RUNS} runs …\n`);
for (let run = 0; run < RUNS; run++) {
  for (let k = 0; k < cases.length; k++) {
    const { key, script } = cases[(run + k) % cases.length];
    const start = performance.now();
    const result = spawnSync(process.execPath, ['--input-type=module', '-e', `${script}\n${cpuReport}`], {
      cwd: ROOT_DIR,
      encoding: 'utf8',
    });
    const elapsed = performance.now() - start;
    if (result.status !== 0) throw new Error(`${key} failed:\n${result.stderr}`);
    wall[key].push(elapsed);
    cpu[key].push(Number(result.stdout));
  }
}

const baseWall = median(wall.baseline);
const baseCpu = median(cpu.baseline);
const rows = [['build', ...Object.keys(ENTRIES).map((entry) => `${entry} wall / CPU`)]];
for (const variant of Object.keys(dirs)) {
  rows.push([
    variant,
    ...Object.keys(ENTRIES).map((entry) => {
      const key = `${variant}|${entry}`;
      return `+${(median(wall[key]) - baseWall).toFixed(0)} ms / +${(median(cpu[key]) - baseCpu).toFixed(0)} ms`;
    }),
  ]);
}
console.log(
  `Cold import over node --input-type=module -e "" (baseline ${baseWall.toFixed(0)} ms wall, ${baseCpu.toFixed(0)} ms CPU), median of ${RUNS} runs\n`,
);
console.log([rows[0], rows[0].map(() => '---'), ...rows.slice(1)].map((row) => `| ${row.join(' | ')} |`).join('\n'));
console.log(`\n(${ALL_DEPENDENCIES.join(', ')}: runtime dependencies; "bundled" = copied into each build's chunks by esbuild)`);
