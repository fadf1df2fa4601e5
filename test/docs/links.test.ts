// The documentation as a reader follows it: a README short enough to read, every page it splits into
// linked from it, and every relative link of every page landing on a file that exists and, for
// `#anchor`, on a heading of that file (GitHub's anchors). A section moved out of the README keeps its
// heading somewhere, so an old anchor a reader bookmarked still has a page to land on.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, expect, test } from 'vitest';

const ROOT = resolve(import.meta.dirname, '..', '..');
const PAGES = [
  'README.md',
  'CONTRIBUTING.md',
  ...readdirSync(join(ROOT, 'docs'))
    .filter((f) => f.endsWith('.md'))
    .map((f) => `docs/${f}`),
  'test/hostile/README.md',
];
const read = (page: string) => readFileSync(join(ROOT, page), 'utf8');

/** The text outside fenced code blocks and inline code: links inside code are examples, not links. */
function prose(markdown: string): string {
  return markdown.replace(/^(`{3,}|~{3,})[^\n]*\n[\s\S]*?^\1[^\n]*$/gm, '').replace(/(`+)[^`]*?\1/g, (code) => ' '.repeat(code.length));
}

/** Inline link targets `[text](target)` (images too), outside code. */
function linkTargets(markdown: string): string[] {
  return [...prose(markdown).matchAll(/\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g)].map((m) => m[1]!);
}

/** GitHub's anchor for a heading: lowercase, punctuation dropped except `-` and `_`, spaces to `-`. */
function slug(heading: string): string {
  return heading
    .replace(/`/g, '')
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s_-]/gu, '')
    .replace(/\s/g, '-');
}

/** Every anchor of a page: its headings' slugs, a repeated one suffixed `-1`, `-2` … as GitHub does. */
function anchors(markdown: string): Set<string> {
  const seen = new Map<string, number>();
  const out = new Set<string>();
  for (const m of markdown.replace(/^(`{3,}|~{3,})[^\n]*\n[\s\S]*?^\1[^\n]*$/gm, '').matchAll(/^#{1,6}[ \t]+(.+?)[ \t#]*$/gm)) {
    const base = slug(m[1]!);
    const n = seen.get(base) ?? 0;
    seen.set(base, n + 1);
    out.add(n === 0 ? base : `${base}-${n}`);
  }
  return out;
}

describe('the README', () => {
  test('is at most 15 KB', () => {
    expect(statSync(join(ROOT, 'README.md')).size).toBeLessThanOrEqual(15 * 1024);
  });

  test('links every page the documentation is split into', () => {
    const linked = new Set(linkTargets(read('README.md')).map((t) => t.split('#')[0]));
    for (const page of PAGES.filter((p) => p !== 'README.md')) expect(linked, page).toContain(page);
  });

  test('opens with the install path for seller developers, and states the stdio environment policy', () => {
    const readme = read('README.md');
    const firstSection = /^## (.+)$/m.exec(readme)?.[1];
    expect(firstSection).toBe("In your seller's project");
    expect(readme).toContain('npm install --save-dev');
    expect(readme).toMatch(/Nothing else of the harness's environment\s+arrives/);
  });

  // The README's sections before it was split by audience: each one is still a heading somewhere.
  const FORMER_SECTIONS = [
    'Quickstart',
    'Configuration',
    '`adcp-conformance run`',
    'Outcomes and verdicts',
    'Which AdCP release a seller is judged at',
    'What "conformant to AdCP 3.1.19" covers',
    'Exit codes',
    'Reports',
    'report.json (schemaVersion 2)',
    'Comparing with the previous run',
    'Flaky sellers',
    'Business rules across calls',
    'Pre-certification: the official storyboards',
    'Judging under a budget',
    'The check catalog',
    "This harness's own rules",
    '`transport.call`',
    '`error.no-internals`',
    '`baseline.stale`',
    '`schema.legacy-wrapper`',
    'Nightly runs over many sellers: sharding and merging',
    'A nightly workflow for 200 sellers',
    'The dev loop: one tool, no config, again on every change',
    'Other commands',
    'The reference seller',
    'Adding a check',
    'The hostile battery',
    'Developing',
    'Layout',
  ];
  test.each(FORMER_SECTIONS)('section %s still exists as a heading of some page', (heading) => {
    expect(PAGES.some((page) => anchors(read(page)).has(slug(heading)))).toBe(true);
  });
});

describe.each(PAGES)('%s', (page) => {
  test('every relative link resolves to a file, and every #anchor to one of its headings', () => {
    const problems: string[] = [];
    for (const target of linkTargets(read(page))) {
      if (/^[a-z][a-z0-9+.-]*:/i.test(target)) continue; // https:, mailto: …
      const [path, anchor] = target.split('#', 2) as [string, string | undefined];
      const file = path === '' ? join(ROOT, page) : resolve(dirname(join(ROOT, page)), decodeURIComponent(path));
      if (!file.startsWith(ROOT + '/') || !existsSync(file)) {
        problems.push(`${target}: no file ${relative(ROOT, file)}`);
        continue;
      }
      if (anchor !== undefined && !(file.endsWith('.md') && anchors(readFileSync(file, 'utf8')).has(anchor)))
        problems.push(`${target}: no heading with anchor #${anchor} in ${relative(ROOT, file)}`);
    }
    expect(problems).toEqual([]);
  });
});

describe('the link reader', () => {
  test('slugs headings as GitHub does', () => {
    expect(slug('`transport.call`')).toBe('transportcall');
    expect(slug('What "conformant to AdCP 3.1.19" covers')).toBe('what-conformant-to-adcp-3119-covers');
    expect(slug("In your seller's project")).toBe('in-your-sellers-project');
    expect(slug('Pre-certification: the official storyboards')).toBe('pre-certification-the-official-storyboards');
    expect(slug('`expect`: baselines')).toBe('expect-baselines');
  });

  test('finds links outside code only, and numbers repeated headings', () => {
    const md = '# A\n[x](one.md#a) `[y](two.md)`\n```\n[z](three.md)\n# B\n```\n# A\n';
    expect(linkTargets(md)).toEqual(['one.md#a']);
    expect([...anchors(md)]).toEqual(['a', 'a-1']);
  });
});
