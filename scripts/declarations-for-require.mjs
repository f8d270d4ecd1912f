// Run by `npm run build` after tsup: the CommonJS declarations (`dist/**/*.d.cts`) import
// the types the SDK takes from jose with `resolution-mode: import`.
//
// jose ships ES modules only. A `.d.cts` that imports it plainly makes TypeScript read
// the import as a `require` of an ES module, and a CommonJS consumer's type check
// (`module: node16`/`nodenext`, `skipLibCheck: false`) fails with TS1479. The
// attribute (TypeScript 5.3 and later) tells it to resolve jose as an import, which is
// what it is; the types stay jose's own. tsup's declaration bundler drops the attribute
// when it is written in the sources, hence this step.
import { readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';

/** Packages whose types the declarations import and that ship ES modules only. */
const ESM_ONLY_TYPE_SOURCES = ['jose'];

const dist = join(import.meta.dirname, '..', 'dist');
const files = (await readdir(dist, { recursive: true })).filter((file) => file.endsWith('.d.cts'));
let rewritten = 0;
for (const file of files) {
  const path = join(dist, file);
  const code = await readFile(path, 'utf8');
  let next = code;
  for (const name of ESM_ONLY_TYPE_SOURCES) {
    next = next.replace(
      new RegExp(`^import (?:type )?(\\{[^}]*\\}) from '${name}';$`, 'gm'),
      `import type $1 from '${name}' with { 'resolution-mode': 'import' };`,
    );
  }
  if (next !== code) {
    await writeFile(path, next);
    rewritten++;
  }
}
console.log(`declarations-for-require: ${rewritten} .d.cts file(s) import ${ESM_ONLY_TYPE_SOURCES.join(', ')} as ES modules`);
