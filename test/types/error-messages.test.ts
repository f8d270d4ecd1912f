/**
 * The type errors of the commonest mistakes name their fix, in one short message: each
 * snippet below is compiled with the TypeScript compiler API (as a file of this folder,
 * importing the package source), and must give exactly one error, of at most 400
 * characters with its chained lines (as `tsc` prints it, without the file name), that
 * contains the words of the fix. `error-messages.test-d.ts` pins the same mistakes with
 * `@ts-expect-error`.
 */
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { beforeAll, describe, expect, it } from 'vitest';

const root = join(dirname(fileURLToPath(import.meta.url)), '../..');
const folder = join(root, 'test/types');

const HEADER = `import { AuthenticationClient } from '../../src/auth/index.js';
import { ManagementClient } from '../../src/management/index.js';
declare const management: ManagementClient;
declare const domain: string, clientId: string, clientSecret: string, token: string, path: string, organizationId: string;
declare const signingKey: CryptoKey;
`;

interface Mistake {
  /** The call, as a user writes it. */
  readonly code: string;
  /** What the one error must say (each one). */
  readonly says: readonly (string | RegExp)[];
}

const MISTAKES: Readonly<Record<string, Mistake>> = {
  'invitations.list with perPage instead of per_page': {
    code: 'management.organizations.invitations.list(organizationId, { perPage: 20 });',
    says: ["'perPage'", "Did you mean to write 'per_page'?"],
  },
  'invitations.list with a sort of another form than field:1 / field:-1': {
    code: "management.organizations.invitations.list(organizationId, { sort: 'created_at:2' });",
    says: ['"created_at:2"', 'field:1 (ascending)', 'field:-1 (descending)'],
  },
  'ManagementClient with a clientId and no credential': {
    code: 'new ManagementClient({ domain, clientId });',
    says: ["Property 'clientSecret' is missing"],
  },
  'ManagementClient with clientSecret and clientAssertionSigningKey': {
    code: 'new ManagementClient({ domain, clientId, clientSecret, clientAssertionSigningKey: signingKey });',
    says: ["'clientAssertionSigningKey'", 'pass only one way to authenticate'],
  },
  'ManagementClient with token and clientSecret': {
    code: 'new ManagementClient({ domain, token, clientSecret });',
    says: ["'clientSecret'", 'pass only one way to authenticate'],
  },
  'AuthenticationClient with clientSecret and clientAssertionSigningKey': {
    code: 'new AuthenticationClient({ domain, clientId, clientSecret, clientAssertionSigningKey: signingKey });',
    says: ["'clientAssertionSigningKey'", 'pass only one way to authenticate'],
  },
  'management.request with a lower-case method': {
    code: "management.request({ method: 'get', path });",
    says: ['"GET" | "POST" | "PUT" | "PATCH" | "DELETE"'],
  },
  'management.request with a GET and a body': {
    code: "management.request({ method: 'GET', path, body: { name: 'editor' } });",
    says: ["'body'", 'a GET request has no body'],
  },
};

/** The correct calls next to those mistakes: they compile (and so the snippets do reach the package). */
const CORRECT = `
management.organizations.invitations.list(organizationId, { per_page: 20, sort: 'created_at:-1' });
new ManagementClient({ domain, clientId, clientSecret });
new ManagementClient({ domain, token });
new AuthenticationClient({ domain, clientId });
management.request({ method: 'GET', path });
management.request({ method: 'POST', path, body: { name: 'editor' } });
`;

const fileOf = (name: string) => join(folder, `__snippet-${name.replace(/[^a-z0-9]+/gi, '-')}.ts`);

/** Compiles every snippet in one program; the diagnostics of each, by name. */
function compile(compilerOptions: ts.CompilerOptions): Map<string, readonly ts.Diagnostic[]> {
  const sources = new Map<string, string>([[fileOf('correct'), HEADER + CORRECT]]);
  for (const [name, { code }] of Object.entries(MISTAKES)) sources.set(fileOf(name), `${HEADER}${code}\n`);
  const host = ts.createCompilerHost(compilerOptions);
  const { getSourceFile, fileExists, readFile } = host;
  host.getSourceFile = (file, language, ...rest) => {
    const text = sources.get(file);
    return text === undefined ? getSourceFile.call(host, file, language, ...rest) : ts.createSourceFile(file, text, language);
  };
  host.fileExists = (file) => sources.has(file) || fileExists.call(host, file);
  host.readFile = (file) => sources.get(file) ?? readFile.call(host, file);
  const program = ts.createProgram([...sources.keys()], compilerOptions, host);
  const byName = new Map<string, readonly ts.Diagnostic[]>();
  for (const name of ['correct', ...Object.keys(MISTAKES)]) {
    const file = program.getSourceFile(fileOf(name));
    if (file === undefined) throw new Error(`snippet ${name} was not compiled`);
    byName.set(name, [...program.getSyntacticDiagnostics(file), ...program.getSemanticDiagnostics(file)]);
  }
  return byName;
}

/** The message of a diagnostic with its chained lines, indented as `tsc` prints them. */
const textOf = (diagnostic: ts.Diagnostic) => ts.flattenDiagnosticMessageText(diagnostic.messageText, '\n');

const parsed = ts.getParsedCommandLineOfConfigFile(
  join(root, 'tsconfig.json'),
  {},
  {
    ...ts.sys,
    onUnRecoverableConfigFileDiagnostic: (diagnostic) => {
      throw new Error(textOf(diagnostic));
    },
  },
);
if (parsed === undefined) throw new Error('tsconfig.json could not be read');

// This project's settings, and the same without `exactOptionalPropertyTypes` (off by default in users' projects).
describe.each([
  ['this project', parsed.options],
  ['a strict project without exactOptionalPropertyTypes', { ...parsed.options, exactOptionalPropertyTypes: false }],
] as const)('type errors that name the fix (%s)', (_, options) => {
  let diagnostics: Map<string, readonly ts.Diagnostic[]>;
  beforeAll(() => {
    diagnostics = compile({ ...options, noEmit: true });
  }, 120_000);

  it('the correct calls compile', () => {
    expect(diagnostics.get('correct')?.map(textOf)).toEqual([]);
  });

  it.each(Object.entries(MISTAKES))('%s: one error of at most 400 characters that names the fix', (name, { says }) => {
    const texts = (diagnostics.get(name) ?? []).map(textOf);
    expect(texts).toHaveLength(1);
    const [text = ''] = texts;
    expect(text.length, text).toBeLessThanOrEqual(400);
    expect(text).not.toContain('No overload matches this call');
    for (const words of says) expect(text).toMatch(words);
  });
});
