// `npm run check:package`: checks the package as users install it (run after `npm run build`).
//
//   node scripts/check-package.mjs
//
// 0. The tarball (`npm pack --dry-run`): at most 700 kB packed and 220 files; the source
//    once, inside the modular build's source maps (no src/, no map of the CommonJS
//    build); no tests, scripts or build markers.
// 1. publint (strict) and @arethetypeswrong/cli (every subpath, every resolution mode
//    including `node10`) on the packed package.
// 2. No `.cjs` file of dist/ requires a dependency that ships ESM only, or calls `import()`;
//    the builds Node loads (dist/node/*.js, dist/*.cjs) load no runtime dependency at all.
// 3. `npm pack`, install the tarball into a temporary CommonJS project and run a Jest 30
//    test there (no `--experimental-vm-modules`) that `require`s every subpath, checks a
//    known export of each, and runs the paths that load code lazily (private_key_jwt,
//    the emulator's loopback server) against the emulator on 127.0.0.1.
// 4. In that project: browser bundles (esbuild) of `require('idplatform/auth')` (the
//    browser build, not the Node one) and of the emulator with its msw handlers; and a
//    CommonJS TypeScript consumer (`module: node16`, `skipLibCheck: false`,
//    `exactOptionalPropertyTypes` off) of every entry but `/testing/msw`.
// 5. In that project, with msw installed: the msw example under Jest, as a CommonJS and as
//    an ES module test file, with and without `--experimental-vm-modules`, on Node 20, 22,
//    24 and 26. The table in docs/testing.md says which of these work; each must do
//    exactly what it says.
// Also: every built file names its source map at most once (tsup's extra tree-shaking
// pass used to append a second), and every value each entry's declarations export exists in each of its builds (a
// class exported as a type only must not be declared as a value: `import { X }` would
// type-check and fail at run time).
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join, relative, resolve } from 'node:path';
import ts from 'typescript';

const ROOT = resolve(import.meta.dirname, '..');
const requireFromRoot = createRequire(join(ROOT, 'package.json'));
const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
const bin = (name) => join(ROOT, 'node_modules/.bin', name);
const run = (command, args, options = {}) => execFileSync(command, args, { cwd: ROOT, stdio: 'inherit', ...options });

/** The tarball's budget, in npm's units (1 kB = 1000 bytes, as `npm pack` prints it). */
const MAX_PACKED_BYTES = 700_000;
const MAX_FILES = 220;

/** Dependencies that ship ESM only; the CommonJS build must bundle them (see tsup.config.ts). */
const ESM_ONLY = ['ky', 'p-retry', 'is-network-error', 'jose'];
const packageJson = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8'));
/** Every runtime dependency (package.json, and what the ESM-only ones bring): the builds Node loads bundle them all. */
const RUNTIME_DEPENDENCIES = [...new Set([...Object.keys(packageJson.dependencies), ...ESM_ONLY])];
/** Each public subpath and one export it must have. */
const KNOWN_EXPORTS = {
  '.': 'ManagementClient',
  './management': 'ManagementClient',
  './auth': 'AuthenticationClient',
  './testing': 'createTenantEmulator',
  './testing/msw': 'createMswHandlers',
  './redis': 'createRedisTokenCache',
};
/**
 * Subpaths whose own dependency Jest cannot `require` without `--experimental-vm-modules`:
 * msw 2 depends on ES-module-only packages (rettime). Step 5 runs it where it can run.
 */
const NOT_UNDER_JEST_CJS = ['./testing/msw'];
const problems = [];
const subpaths = Object.keys(packageJson.exports).filter((subpath) => subpath !== './package.json');
const unknown = subpaths.filter((subpath) => !(subpath in KNOWN_EXPORTS));
if (unknown.length > 0) throw new Error(`scripts/check-package.mjs: add a known export for ${unknown.join(', ')}`);

console.log('── The tarball: its budget, the source once, nothing of the repository only');
const [packed] = JSON.parse(execFileSync(npm, ['pack', '--dry-run', '--json', '--ignore-scripts'], { cwd: ROOT, encoding: 'utf8' }));
const packedFiles = new Set(packed.files.map((file) => file.path));
console.log(`${(packed.size / 1000).toFixed(1)} kB packed (budget ${MAX_PACKED_BYTES / 1000} kB), ${packed.entryCount} files (budget ${MAX_FILES})`);
if (packed.size > MAX_PACKED_BYTES) problems.push(`the tarball is ${packed.size} bytes packed, over ${MAX_PACKED_BYTES}`);
if (packed.entryCount > MAX_FILES) problems.push(`the tarball holds ${packed.entryCount} files, over ${MAX_FILES}`);
const repositoryOnly = [...packedFiles].filter((path) => /^(test|examples|bench|scripts|api|docs\/api)\/|^dist\/\.built$|^CONTRIBUTING\.md$/.test(path));
if (repositoryOnly.length > 0) problems.push(`the tarball ships files for the repository only: ${repositoryOnly.join(', ')}`);
if ([...packedFiles].some((path) => path.startsWith('src/'))) problems.push('the tarball ships src/: the source maps carry it');
for (const file of readdirSync(join(ROOT, 'dist'), { recursive: true }).filter((name) => name.endsWith('.map'))) {
  if (!file.endsWith('.js.map')) problems.push(`dist/${file}: only the modular build has source maps`);
  const { sources, sourcesContent = [] } = JSON.parse(readFileSync(join(ROOT, 'dist', file), 'utf8'));
  const missing = sources.filter((_, index) => typeof sourcesContent[index] !== 'string');
  if (missing.length > 0) problems.push(`dist/${file} names ${missing.join(', ')} without its text`);
}
if (problems.length > 0) throw new Error(problems.join('\n'));
console.log('ok');

console.log('── publint');
run(bin('publint'), ['--strict']);

console.log('── @arethetypeswrong/cli (node10, node16 CJS/ESM, bundler)');
run(bin('attw'), ['--pack', '.', '--format', 'table-flipped']);

console.log('── CommonJS output: no ESM-only dependency, no import()');
for (const file of readdirSync(join(ROOT, 'dist'), { recursive: true }).filter((name) => name.endsWith('.cjs'))) {
  const code = readFileSync(join(ROOT, 'dist', file), 'utf8');
  for (const name of ESM_ONLY) {
    if (new RegExp(`require\\(['"]${name}(/[^'"]*)?['"]\\)`).test(code)) problems.push(`dist/${file} requires ${name}`);
  }
  if (/\bimport\(/.test(code)) problems.push(`dist/${file} calls import()`);
}
if (problems.length > 0) throw new Error(problems.join('\n'));
console.log('ok');

console.log('── The builds Node loads (dist/node/*.js, dist/*.cjs) carry every runtime dependency');
const loadedByNode = [
  ...readdirSync(join(ROOT, 'dist/node'), { recursive: true }).filter((name) => name.endsWith('.js')).map((name) => `node/${name}`),
  ...readdirSync(join(ROOT, 'dist'), { recursive: true }).filter((name) => name.endsWith('.cjs')),
];
for (const file of loadedByNode) {
  const code = readFileSync(join(ROOT, 'dist', file), 'utf8');
  for (const name of RUNTIME_DEPENDENCIES) {
    const specifier = `['"]${name}(/[^'"]*)?['"]`;
    if (new RegExp(`(require\\(|import\\(|from ?)${specifier}`).test(code)) problems.push(`dist/${file} loads ${name} from node_modules`);
  }
}
if (problems.length > 0) throw new Error(problems.join('\n'));
console.log(`ok (${loadedByNode.length} files)`);

console.log('── Every built file names its source map at most once, on its last line, and each map is named');
const named = new Set();
for (const file of readdirSync(join(ROOT, 'dist'), { recursive: true }).filter((name) => /\.(c?js)$/.test(name))) {
  const code = readFileSync(join(ROOT, 'dist', file), 'utf8');
  const comments = code.match(/^\/\/# sourceMappingURL=.*$/gm) ?? [];
  // The CommonJS build and the entries of re-exports only have no map (tsup.config.ts).
  if (comments.length > 1 || (comments.length === 1 && !code.trimEnd().endsWith(comments[0]))) {
    problems.push(`dist/${file} has ${comments.length} sourceMappingURL comments`);
  }
  const map = comments[0] && join(dirname(file), comments[0].slice('//# sourceMappingURL='.length));
  if (map && !existsSync(join(ROOT, 'dist', map))) problems.push(`dist/${file} names dist/${map}, which does not exist`);
  if (map) named.add(map);
}
for (const map of readdirSync(join(ROOT, 'dist'), { recursive: true }).filter((name) => name.endsWith('.map'))) {
  if (!named.has(map)) problems.push(`dist/${map} is named by no file`);
}
if (problems.length > 0) throw new Error(problems.join('\n'));
console.log('ok');

console.log('── Declarations against the builds: every value a .d.ts or .d.cts exports exists at run time');
for (const subpath of subpaths) {
  const { import: esm, require: cjs } = packageJson.exports[subpath];
  const builds = [
    [esm.types, esm.node, () => import(join(ROOT, esm.node))],
    [esm.types, esm.default, () => import(join(ROOT, esm.default))],
    [cjs.types, cjs.default, async () => requireFromRoot(join(ROOT, cjs.default))],
  ];
  for (const [types, build, load] of builds) {
    const loaded = await load().catch((error) => error);
    // An entry whose optional peer dependency is not installed (msw) cannot be loaded here: nothing to compare.
    if (loaded instanceof Error && loaded.code === 'ERR_MODULE_NOT_FOUND') continue;
    if (loaded instanceof Error) throw loaded;
    const missing = valueExportsOf(join(ROOT, types)).filter((name) => !(name in loaded));
    if (missing.length > 0) problems.push(`${types} declares ${missing.join(', ')} as values, which ${build} does not export`);
  }
  // Node's `import` (dist/node/) and `require` run the same CommonJS build: one copy of each class. The msw handlers are not in it.
  const esmNode = await import(join(ROOT, esm.node)).catch(() => ({})); // msw missing: nothing to compare
  let commonJs = {};
  try {
    commonJs = requireFromRoot(join(ROOT, cjs.default));
  } catch {} // msw missing: nothing to compare
  const apart = Object.keys(esmNode).filter((name) => name !== 'createMswHandlers' && name in commonJs && esmNode[name] !== commonJs[name]);
  if (apart.length > 0) problems.push(`${esm.node} and ${cjs.default} do not share ${apart.join(', ')}`);
}
if (problems.length > 0) throw new Error(problems.join('\n'));
console.log('ok');

console.log('── Jest 30 with require only, from the packed tarball');
const project = mkdtempSync(join(tmpdir(), 'idplatform-jest-'));
try {
  const tarball = execFileSync(npm, ['pack', '--silent', '--pack-destination', project], { cwd: ROOT, encoding: 'utf8' }).trim().split('\n').pop();
  writeFileSync(join(project, 'package.json'), JSON.stringify({ name: 'jest-cjs-consumer', private: true, type: 'commonjs' }));
  // Without msw, the optional peer dependency: `idplatform/testing` must load without it (DESIGN).
  run(npm, ['install', '--no-audit', '--no-fund', '--prefer-offline', '--loglevel=error', join(project, tarball)], { cwd: project });
  const required = subpaths.filter((subpath) => !NOT_UNDER_JEST_CJS.includes(subpath));
  writeFileSync(join(project, 'require.test.js'), jestTest(required.map((subpath) => [subpath, KNOWN_EXPORTS[subpath]])));
  run(process.execPath, [join(ROOT, 'node_modules/jest/bin/jest.js'), '--ci', '--rootDir', project, '--testEnvironment', 'node'], { cwd: project });
  await checkBrowserBundles(project);
  checkCommonJsConsumerTypes(project);
  checkMswUnderJest(project);
} finally {
  rmSync(project, { recursive: true, force: true });
}

/**
 * A browser bundler on the installed tarball: CommonJS source that `require`s
 * `idplatform/auth` gets the browser build (the `module` condition of `require`), not
 * the Node one with jose and zod's code generator in its first chunk; and the emulator
 * with its msw handlers bundles for a browser (`#node-server` keeps `node:http` out).
 */
async function checkBrowserBundles(project) {
  console.log('── Browser bundles from the packed tarball (esbuild, platform browser)');
  const { build } = requireFromRoot('esbuild');
  const bundle = async (name, contents) => {
    const result = await build({
      stdin: { contents, resolveDir: project, sourcefile: name },
      bundle: true,
      platform: 'browser',
      format: 'esm',
      splitting: true,
      outdir: join(project, 'bundle'),
      write: false,
      metafile: true,
      external: ['msw', 'msw/*'],
      logLevel: 'silent',
    });
    // The eager part: the entry's output and what it imports statically (lazy chunks, jose's among them, are left out).
    const { outputs } = result.metafile;
    const eager = new Set();
    const pending = Object.keys(outputs).filter((path) => path.endsWith('/stdin.js')); // the entry (lazy chunks are entry points too)
    while (pending.length > 0) {
      const path = pending.pop();
      if (eager.has(path)) continue;
      eager.add(path);
      for (const imported of outputs[path].imports) if (imported.kind === 'import-statement' && !imported.external) pending.push(imported.path);
    }
    return result.outputFiles
      .filter((file) => eager.has(relative(process.cwd(), file.path)))
      .map((file) => file.text)
      .join('\n');
  };
  const login = await bundle(
    'login.cjs.js',
    "const { AuthenticationClient } = require('idplatform/auth'); module.exports = new AuthenticationClient({ domain: 'acme.example.com', clientId: 'spa' });",
  );
  for (const [what, pattern] of [
    ['jose', /ERR_JWS_SIGNATURE_VERIFICATION_FAILED/],
    ["zod's code generation", /new Function\(/],
  ]) {
    if (pattern.test(login)) problems.push(`require('idplatform/auth') bundled for a browser carries ${what}: it got the Node build`);
  }
  await bundle(
    'emulator.js',
    "import { createTenantEmulator } from 'idplatform/testing'; import { createMswHandlers } from 'idplatform/testing/msw'; export const handlers = createMswHandlers(createTenantEmulator());",
  ).catch((error) => problems.push(`idplatform/testing with its msw handlers does not bundle for a browser: ${error.message}`));
  if (problems.length > 0) throw new Error(problems.join('\n'));
  console.log('ok');
}

/**
 * A CommonJS TypeScript consumer of the installed tarball (`module: node16`,
 * `skipLibCheck: false`, `exactOptionalPropertyTypes` off as by default): the `.d.cts`
 * files type-check (they import jose, ES modules only, as such), and
 * `management.request()` takes its type from a classic zod schema as it is.
 */
function checkCommonJsConsumerTypes(project) {
  console.log('── A CommonJS TypeScript consumer (module node16, skipLibCheck false)');
  const file = join(project, 'consumer.cts');
  writeFileSync(
    file,
    `import { z } from 'zod';
import { ManagementClient } from 'idplatform/management';
import { AuthenticationClient } from 'idplatform/auth';
import { createTenantEmulator } from 'idplatform/testing';
import { createRedisTokenCache } from 'idplatform/redis';
declare const management: ManagementClient;
export const role: Promise<{ id: string; name?: string | undefined }> = management.request({
  method: 'GET',
  path: 'roles/rol_1',
  schema: z.object({ id: z.string(), name: z.string().optional() }),
});
export const used = [AuthenticationClient, createTenantEmulator, createRedisTokenCache];
`,
  );
  const options = {
    noEmit: true,
    strict: true,
    skipLibCheck: false,
    exactOptionalPropertyTypes: false,
    module: ts.ModuleKind.Node16,
    moduleResolution: ts.ModuleResolutionKind.Node16,
    target: ts.ScriptTarget.ES2022,
    lib: ['lib.es2023.d.ts', 'lib.dom.d.ts', 'lib.dom.iterable.d.ts'],
    types: ['node'],
    typeRoots: [join(ROOT, 'node_modules/@types')],
  };
  const program = ts.createProgram([file], options);
  const diagnostics = ts.getPreEmitDiagnostics(program);
  if (diagnostics.length > 0) {
    const host = { getCanonicalFileName: (name) => name, getCurrentDirectory: () => project, getNewLine: () => '\n' };
    throw new Error(ts.formatDiagnostics(diagnostics, host));
  }
  console.log('ok');
}

/**
 * The msw example of docs/testing.md under Jest, from the packed tarball with msw
 * installed, as a user runs it: `npx jest`, or with `NODE_OPTIONS=--experimental-vm-modules`,
 * a CommonJS test file (`require`) and an ES module one (`import`), on each Node of the
 * table in docs/testing.md ("Under Jest"). Each cell must hold: "works" passes, "fails"
 * fails (so the page stays exact when msw or Jest changes).
 */
function checkMswUnderJest(project) {
  const table = jestTable(readFileSync(join(ROOT, 'docs/testing.md'), 'utf8'));
  const majors = [...new Set(table.map((cell) => cell.node))];
  console.log(`── msw under Jest from the packed tarball, Node ${majors.join(', ')}, as docs/testing.md says`);
  const msw = JSON.parse(readFileSync(requireFromRoot.resolve('msw/package.json'), 'utf8')).version;
  run(npm, ['install', '--no-audit', '--no-fund', '--prefer-offline', '--loglevel=error', `msw@${msw}`], { cwd: project });
  const example = (load) => `${load}
const emulator = createTenantEmulator();
const server = setupServer(...createMswHandlers(emulator));
beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
afterAll(() => server.close());

test('ManagementClient lists invitations through the msw handlers', async () => {
  const management = new ManagementClient({ domain: emulator.domain, ...emulator.credentials });
  expect(await management.organizations.invitations.list('org_small')).toHaveLength(5);
}, 30_000);
`;
  const files = {
    require: [
      'msw-require.test.js',
      example(`const { setupServer } = require('msw/node');
const { ManagementClient } = require('idplatform/management');
const { createTenantEmulator } = require('idplatform/testing');
const { createMswHandlers } = require('idplatform/testing/msw');`),
    ],
    import: [
      'msw-import.test.mjs',
      example(`import { setupServer } from 'msw/node';
import { ManagementClient } from 'idplatform/management';
import { createTenantEmulator } from 'idplatform/testing';
import { createMswHandlers } from 'idplatform/testing/msw';`),
    ],
  };
  for (const [name, code] of Object.values(files)) writeFileSync(join(project, name), `// Generated by scripts/check-package.mjs.\n${code}`);
  const wrong = [];
  for (const major of majors) {
    const node = major === Number(process.versions.node.split('.')[0]) ? process.execPath : nodeBinary(major);
    for (const flag of [false, true]) {
      const report = join(project, 'jest-report.json');
      rmSync(report, { force: true });
      const env = { ...process.env, NODE_OPTIONS: flag ? '--experimental-vm-modules' : '' };
      const jest = [join(ROOT, 'node_modules/jest/bin/jest.js'), '--ci', '--rootDir', project, '--testEnvironment', 'node'];
      // Without the flag, also the test of step 3 (no msw): `idplatform/testing` needs no flag on any of these versions.
      const args = [...jest, '--testMatch', flag ? '**/msw-*.test.*' : '**/{msw-*,require}.test.*', '--json', '--outputFile', report];
      const { stderr } = spawnSync(node, args, { cwd: project, env, encoding: 'utf8' });
      if (!existsSync(report)) throw new Error(`Jest on Node ${major} wrote no report:\n${stderr}`);
      const { testResults } = JSON.parse(readFileSync(report, 'utf8'));
      const plain = testResults.find((entry) => entry.name.endsWith('/require.test.js'));
      if (!flag) console.log(`${plain?.status === 'passed' ? 'ok  ' : 'FAIL'} without msw (require.test.js), no flag, Node ${major}`);
      if (!flag && plain?.status !== 'passed') wrong.push(`Node ${major}, no flag: the Jest test without msw fails (${plain?.message ?? 'no result'})`);
      for (const cell of table.filter((cell) => cell.node === major && cell.flag === flag)) {
        const result = testResults.find((entry) => entry.name.endsWith(files[cell.file][0]));
        const works = result?.status === 'passed';
        const what = `${cell.file}, ${flag ? 'NODE_OPTIONS=--experimental-vm-modules' : 'no flag'}, Node ${major}`;
        console.log(`${works === cell.works ? 'ok  ' : 'FAIL'} ${what}: ${works ? 'works' : 'fails'}`);
        if (works !== cell.works) {
          const reason = result?.message?.split('\n').find((line) => line.trim() !== '') ?? 'no result';
          wrong.push(`${what}: docs/testing.md says it ${cell.works ? 'works' : 'fails'}, it ${works ? 'works' : `fails (${reason.trim()})`}`);
        }
      }
    }
  }
  if (wrong.length > 0) throw new Error(`docs/testing.md's Jest table is not what Jest does:\n${wrong.join('\n')}`);
}

/**
 * The cells of the table under "## Under Jest" in docs/testing.md: a row per test file
 * (`require` or `import`) and flag (none or `--experimental-vm-modules`), a column per
 * Node major ("Node 20"), each "works" or "fails".
 */
function jestTable(page) {
  const section = page.split(/^## /m).find((part) => part.startsWith('Under Jest'));
  if (section === undefined) throw new Error('docs/testing.md has no "## Under Jest" section');
  const rows = section.split('\n').filter((line) => line.startsWith('|'));
  const header = rows[0]?.split('|').map((cell) => cell.trim()) ?? [];
  const nodes = header.map((cell) => Number(/^Node (\d+)$/.exec(cell)?.[1]));
  const cells = [];
  for (const row of rows.slice(2)) {
    const [, file = '', flag = '', ...values] = row.split('|').map((cell) => cell.trim());
    const kind = file.includes('require') ? 'require' : file.includes('import') ? 'import' : undefined;
    if (kind === undefined) throw new Error(`docs/testing.md, Jest table: a row for neither require nor import: ${row}`);
    values.forEach((value, index) => {
      const node = nodes[index + 3];
      if (!node) return;
      if (value !== 'works' && value !== 'fails') throw new Error(`docs/testing.md, Jest table: "${value}" is neither works nor fails: ${row}`);
      cells.push({ file: kind, flag: flag.includes('--experimental-vm-modules'), node, works: value === 'works' });
    });
  }
  if (cells.length === 0) throw new Error('docs/testing.md, "Under Jest": no table of Node versions');
  return cells;
}

/** The `node` binary of `node@{major}` from the npm registry (npx's cache), as CI gets Node 24 and 26. */
function nodeBinary(major) {
  const output = execFileSync(npm, ['exec', '--yes', '--package', `node@${major}`, '--', 'node', '-p', 'process.execPath'], { cwd: ROOT, encoding: 'utf8' });
  const path = output.split('\n').find((line) => line.startsWith('/'));
  if (path === undefined) throw new Error(`npx could not provide node@${major}:\n${output}`);
  return path.trim();
}

/**
 * The names a declaration file exports as values (a class, a function, a constant):
 * what `import { name }` may use at run time. A type-only export (`export { type X }`,
 * also further down an alias chain) is not one.
 */
function valueExportsOf(file) {
  const program = ts.createProgram([file], { noEmit: true, skipLibCheck: true, module: ts.ModuleKind.NodeNext, moduleResolution: ts.ModuleResolutionKind.NodeNext });
  const checker = program.getTypeChecker();
  const moduleSymbol = checker.getSymbolAtLocation(program.getSourceFile(file));
  return checker
    .getExportsOfModule(moduleSymbol)
    .filter((symbol) => {
      const alias = (symbol.flags & ts.SymbolFlags.Alias) !== 0;
      if (alias && checker.getTypeOnlyAliasDeclaration(symbol) !== undefined) return false;
      const target = alias ? checker.getAliasedSymbol(symbol) : symbol;
      return (target.flags & ts.SymbolFlags.Value) !== 0;
    })
    .map((symbol) => symbol.name);
}

/** The Jest test file run inside the temporary project. */
function jestTest(cases) {
  return `// Generated by scripts/check-package.mjs: the package under Jest, with require only.
const { generateKeyPairSync } = require('node:crypto');

const cases = ${JSON.stringify(cases.map(([subpath, name]) => [subpath === '.' ? 'idplatform' : `idplatform/${subpath.slice(2)}`, name]))};

test.each(cases)('require(%j) exposes %s', (specifier, name) => {
  const exported = require(specifier);
  expect(typeof exported[name]).toBe('function');
});

test('the root entry and the subpaths share one copy of each class', () => {
  expect(require('idplatform').ManagementClient).toBe(require('idplatform/management').ManagementClient);
  expect(require('idplatform').ApiError).toBe(require('idplatform/auth').ApiError);
});

describe('against the emulator on 127.0.0.1', () => {
  let testing;
  let emulator;
  let server;
  beforeAll(async () => {
    testing = require('idplatform/testing');
    emulator = testing.createTenantEmulator();
    server = await emulator.listen();
  });
  afterAll(() => server?.close());

  test('ManagementClient lists invitations (ky and p-retry bundled into the CommonJS build)', async () => {
    const { ManagementClient } = require('idplatform/management');
    const management = new ManagementClient({ baseUrl: server.url + '/api/v2', ...testing.DEFAULT_CLIENT_CREDENTIALS });
    const invitations = await management.organizations.invitations.list(testing.SEED_IDS.smallOrganization);
    expect(invitations).toHaveLength(5);
  });

  test('private_key_jwt signs its client assertion (jose loaded lazily with require)', async () => {
    const { AuthenticationClient } = require('idplatform/auth');
    const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
    const { clientId } = emulator.registerClient({
      clientId: 'jest-private-key-jwt',
      scopes: ['read:organization_invitations'],
      publicKey: publicKey.export({ type: 'spki', format: 'pem' }),
    });
    const auth = new AuthenticationClient({
      baseUrl: server.url,
      clientId,
      clientAssertionSigningKey: privateKey.export({ type: 'pkcs8', format: 'pem' }),
    });
    const tokens = await auth.oauth.clientCredentialsGrant({ audience: server.url + '/api/v2/' });
    expect(typeof tokens.access_token).toBe('string');
  });
});
`;
}
