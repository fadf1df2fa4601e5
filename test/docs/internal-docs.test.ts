// What the project ships and what its readers open cite public pages (adcontextprotocol.org,
// modelcontextprotocol.io) and this repository's own docs, never the working documents kept outside the
// repository (design notes, rules, numbered seeds): a reader has no way to open them.
//
// Naming a folder is not always citing a document. Tests read the official AdCP data from a `shared/`
// folder beside the checkout, and CONTRIBUTING.md says so: contributor text may name that folder, but no
// document in it. Shipped files (README, docs/, config/, vectors/, adcp-schemas/, harness/, sellers/,
// bin/) never name it, and shipped code never reads it.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { describe, expect, test } from 'vitest';

const ROOT = join(import.meta.dirname, '..', '..');

/** Citations of the internal documents, wherever they appear (prose, comments, descriptions). */
const CITATIONS: readonly RegExp[] = [
  /\bseeds?[ -]?#?\d{3}\b/i,
  /\bthe seed(?:'s)?\b/i,
  /\b(?:RULES|DESIGN)\.md\b/i,
  /(?:\.\.|\/work)\/shared\/[^\s`'")\]]*\.md\b/i,
];

/** The folder beside the checkout, named in a path or built into one (`join(root, '..', 'shared')`). */
const SHARED_FOLDER: readonly RegExp[] = [/(?:\.\.|\/work)\/shared\b/, /['"]\.\.['"]\s*,\s*['"]shared['"]/];

const SHIPPED_DIRS = ['docs', 'config', 'vectors', 'harness', 'sellers', 'bin'];
const SHIPPED_FILES = ['README.md', 'adcp-schemas/README.md', 'adcp-schemas/LICENSE-NOTICE.md'];
const CONTRIBUTOR_FILES = ['CONTRIBUTING.md', 'test/hostile/README.md'];
const TEXT = /\.(?:md|ts|mts|js|mjs|cjs|json|ya?ml)$/;

function* textFiles(dir: string): Generator<string> {
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, e.name);
    if (e.isDirectory() && e.name !== 'node_modules') yield* textFiles(p);
    else if (e.isFile() && TEXT.test(e.name)) yield p;
  }
}

const rel = (abs: string): string => relative(ROOT, abs).split(sep).join('/');

const shipped = (): string[] => [
  ...SHIPPED_FILES.filter((f) => existsSync(join(ROOT, f))),
  ...SHIPPED_DIRS.filter((d) => existsSync(join(ROOT, d)) && statSync(join(ROOT, d)).isDirectory()).flatMap((d) =>
    [...textFiles(join(ROOT, d))].map(rel),
  ),
];

/** `file:line: text` for every line of `src` that one of `rules` matches. */
function hits(file: string, src: string, rules: readonly RegExp[]): string[] {
  return src
    .split('\n')
    .flatMap((line, i) => (rules.some((re) => re.test(line)) ? [`${file}:${i + 1}: ${line.trim().slice(0, 160)}`] : []));
}

describe('no shipped or user-facing file cites the internal documents', () => {
  test('the scan reaches the shipped files', () => {
    const files = shipped();
    expect(files).toEqual(
      expect.arrayContaining(['README.md', 'config/example.yaml', 'config/adcp-conformance.schema.json', 'docs/architecture.md']),
    );
    expect(files.some((f) => f.startsWith('vectors/'))).toBe(true);
    expect(files.some((f) => f.startsWith('harness/') && f.endsWith('.ts'))).toBe(true);
    expect(files.some((f) => f.startsWith('sellers/') && f.endsWith('.ts'))).toBe(true);
  });

  test('shipped files (README, docs/, config/, vectors/, adcp-schemas/, harness/, sellers/, bin/): no citation, no path to the shared folder', () => {
    const found = shipped().flatMap((f) => hits(f, readFileSync(join(ROOT, f), 'utf8'), [...CITATIONS, ...SHARED_FOLDER]));
    expect(found).toEqual([]);
  });

  test('contributor pages: no citation (naming the folder the tests read AdCP data from is allowed)', () => {
    const found = CONTRIBUTOR_FILES.filter((f) => existsSync(join(ROOT, f))).flatMap((f) =>
      hits(f, readFileSync(join(ROOT, f), 'utf8'), CITATIONS),
    );
    expect(found).toEqual([]);
  });

  test('the rules catch citations, and tell the data folder from a document in it', () => {
    const cites = (text: string) => CITATIONS.some((re) => re.test(text));
    const namesFolder = (text: string) => SHARED_FOLDER.some((re) => re.test(text));
    for (const text of [
      '# Seed 004: whether a tool is meta-id',
      '(seed 012 metaIdTool)',
      "the seed's Python sketch",
      'as DESIGN.md says',
      'see RULES.md §3',
      'read ../shared/notes/plan.md first',
    ])
      expect(cites(text), text).toBe(true);
    for (const text of [
      'a product seeded for the storyboards',
      'a random seed of 42',
      'docs/architecture.md',
      'expect them in `../shared/` beside the checkout',
    ])
      expect(cites(text), text).toBe(false);
    expect(namesFolder(`const dir = path.resolve(root, '..', 'shared', 'adcp');`)).toBe(true);
    expect(namesFolder('(`../shared/adcp/schemas/3.1.19`)')).toBe(true);
    expect(namesFolder(`import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';`)).toBe(false);
  });
});
