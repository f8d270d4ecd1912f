// `npm run docs`: the API reference, docs/reference/*.md, made by TypeDoc from the doc
// comments (typedoc.json: typedoc-plugin-markdown, one page per entry point).
//
//   node scripts/docs.mjs [--check]
//
// `--check` (CI) writes nothing: it fails when docs/reference/ is not what TypeDoc makes
// from the source now (run `npm run docs` and commit the result). Either way a TypeDoc
// warning fails the run (`treatWarningsAsErrors`). It needs `npm ci` only: no build.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const ROOT = join(import.meta.dirname, '..');
const REFERENCE = 'docs/reference';
const check = process.argv.includes('--check');

const out = check ? mkdtempSync(join(tmpdir(), 'idplatform-reference-')) : join(ROOT, REFERENCE);
let status = 0;
try {
  const typedoc = spawnSync(process.execPath, [join(ROOT, 'node_modules/typedoc/bin/typedoc'), '--out', out], { cwd: ROOT, stdio: 'inherit' });
  status = typedoc.status ?? 1;
  if (status === 0 && check) {
    const stale = differences(join(ROOT, REFERENCE), out);
    if (stale.length > 0) {
      console.error(`${REFERENCE} is stale (${stale.join(', ')}): run \`npm run docs\` and commit ${REFERENCE}.`);
      status = 1;
    } else console.log(`${REFERENCE} is up to date.`);
  }
} finally {
  if (check) rmSync(out, { recursive: true, force: true });
}
process.exitCode = status;

/** The pages that differ between the committed reference and a fresh one, each with what differs. */
function differences(committed, fresh) {
  const pages = (dir) => (existsSync(dir) ? readdirSync(dir, { recursive: true }).filter((name) => name.endsWith('.md')) : []);
  const names = [...new Set([...pages(committed), ...pages(fresh)])].sort();
  return names.flatMap((name) => {
    const [before, after] = [committed, fresh].map((dir) => (existsSync(join(dir, name)) ? readFileSync(join(dir, name), 'utf8') : undefined));
    if (before === after) return [];
    return [`${name} ${before === undefined ? 'missing' : after === undefined ? 'no longer made' : 'changed'}`];
  });
}
