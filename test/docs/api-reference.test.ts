/**
 * The API reference (`npm run docs`, TypeDoc) covers exactly the public entry
 * points the package builds (how it is made and checked: test/package/reference.test.ts);
 * the pages the README and docs link to exist.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import tsupConfig, { INTERNAL_ENTRIES } from '../../tsup.config.js';

const root = join(import.meta.dirname, '../..');
const readJson = (file: string) => JSON.parse(readFileSync(join(root, file), 'utf8')) as Record<string, unknown>;

describe('the API reference', () => {
  it('documents every entry point the package builds, and only those', () => {
    const typedoc = readJson('typedoc.json') as { entryPoints: string[] };
    // tsup.config.ts exports one config per format (ESM, CJS), with the same entries.
    const configs = (Array.isArray(tsupConfig) ? tsupConfig : [tsupConfig]) as { entry: Record<string, string> }[];
    // Internal entries are modules reached through package.json `imports` (`#compile-schema`, `#node-server`), not public entries.
    const publicEntries = (entry: Record<string, string>) =>
      Object.entries(entry)
        .filter(([name]) => !INTERNAL_ENTRIES.includes(name))
        .map(([, file]) => file);
    for (const { entry } of configs) expect([...typedoc.entryPoints].sort()).toEqual(publicEntries(entry).sort());
  });
});

describe('links between the docs', () => {
  const pages = [
    'README.md',
    'CONTRIBUTING.md',
    ...readdirSync(join(root, 'docs')).flatMap((name) => (name.endsWith('.md') ? [`docs/${name}`] : [])),
  ];

  it.each(pages)('%s states rules itself instead of citing sections of a spec users cannot see', (page) => {
    const text = readFileSync(join(root, page), 'utf8');
    expect(text.match(/\bspec(ification)? (sections?|§)?\s*\d|\(spec\b|\bthe spec\b/gi) ?? []).toEqual([]);
  });

  it.each(pages)('every relative link of %s names an existing file', (page) => {
    const text = readFileSync(join(root, page), 'utf8');
    const targets = [...text.matchAll(/\]\(([^)#\s]+)(?:#[^)]*)?\)/g)]
      .map((match) => match[1] as string)
      .filter((target) => !/^[a-z]+:/.test(target));
    const missing = targets.filter((target) => !existsSync(join(root, dirname(page), target)));
    expect(missing).toEqual([]);
  });
});
