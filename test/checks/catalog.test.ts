import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, test } from 'vitest';
import { catalog, checkById, checkModuleFiles, severityLabel } from '../../harness/checks/catalog.ts';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const rulesFile = path.resolve(root, '..', 'shared', 'RULES.md');
const hasRules = existsSync(rulesFile);

/** The main table of the catalog document (before its business-rules table): id → severity column. */
function rulesTable(): Map<string, string> {
  const text = readFileSync(rulesFile, 'utf8');
  const start = text.indexOf('## 2.');
  const end = text.indexOf('### ', start);
  const section = text.slice(start, end === -1 ? undefined : end);
  const rows = new Map<string, string>();
  for (const m of section.matchAll(/^\|\s*`([a-z-]+\.[a-z0-9-]+)`\s*\|\s*([A-Z*]+)\s*\|/gm)) rows.set(m[1]!, m[2]!);
  // A later section may restate a rule for a release (`| \`error.recovery\` (3.1) | MUST* |`): that level wins.
  for (const m of text.matchAll(/^\|\s*`([a-z-]+\.[a-z0-9-]+)`\s*\(\d+\.\d+\)\s*\|\s*([A-Z*]+)\s*\|/gm)) rows.set(m[1]!, m[2]!);
  return rows;
}

/** Every .ts file under a folder. */
function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const file = path.join(dir, name);
    return statSync(file).isDirectory() ? sources(file) : file.endsWith('.ts') ? [file] : [];
  });
}

describe('the catalog', () => {
  test('ids are unique kebab-case `area.slug`, one module per check at <area>/<slug>.ts', () => {
    const ids = catalog.map((c) => c.id);
    expect(new Set(ids).size).toBe(ids.length);
    for (const id of ids) expect(id).toMatch(/^[a-z]+(?:-[a-z]+)*\.[a-z0-9]+(?:-[a-z0-9]+)*$/);
    expect(checkModuleFiles().map((f) => `${f.area}.${f.slug}`)).toEqual(ids);
  });

  test('each check has a title, a public spec URL, a fix, a severity rule and a scope; checkById finds it', () => {
    for (const c of catalog) {
      expect(c.title.length, c.id).toBeGreaterThan(10);
      expect(c.fix.length, c.id).toBeGreaterThan(10);
      expect(c.spec.label.length, c.id).toBeGreaterThan(3);
      expect(c.spec.url, c.id).toMatch(
        c.harnessAddition ? /^docs\/checks\.md#[a-z0-9-]+$/ : /^https:\/\/(adcontextprotocol\.org|modelcontextprotocol\.io)\//,
      );
      expect(['MUST', 'SHOULD', 'MUST*']).toContain(severityLabel(c));
      expect(['exchange', 'agent']).toContain(c.scope);
      expect(checkById(c.id)).toBe(c);
    }
    expect(checkById('no.such-id')).toBeUndefined();
  });

  test("no user-facing text names an internal document (RULES.md, DESIGN.md, 'seed')", () => {
    for (const c of catalog)
      expect(`${c.title} ${c.spec.label} ${c.spec.url} ${c.fix}`, c.id).not.toMatch(/RULES\.md|DESIGN\.md|\bseed\b/i);
  });

  test('transport.* checks are live; transport.call is a harness addition', () => {
    for (const c of catalog.filter((c) => c.id.startsWith('transport.'))) expect(c.live, c.id).toBe(true);
    const call = checkById('transport.call')!;
    expect(call).toMatchObject({ severity: 'MUST', scope: 'exchange', harnessAddition: true, judgesUnanswered: true });
  });

  test('a check id is written, quoted, in exactly one file under harness/: the module that defines it', () => {
    const files = sources(path.join(root, 'harness')).map((f) => ({ f, text: readFileSync(f, 'utf8') }));
    for (const c of catalog) {
      const quoted = new RegExp(`(['"\`])${c.id.replace(/\./g, '\\.')}\\1`);
      const holders = files.filter(({ text }) => quoted.test(text)).map(({ f }) => path.relative(root, f));
      expect(holders, c.id).toEqual([path.join('harness', 'checks', ...c.id.split('.')) + '.ts']);
    }
  });

  test('a check proven by a test instead of a fault (provenBy) names a test file that exists and exercises it', () => {
    const proven = catalog.filter((c) => c.provenBy !== undefined);
    expect(proven.length).toBeGreaterThan(0);
    for (const c of proven) {
      const file = path.join(root, c.provenBy!);
      expect(c.provenBy, c.id).toMatch(/^test\/.+\.test\.ts$/);
      expect(existsSync(file), `${c.id}: ${c.provenBy}`).toBe(true);
      expect(readFileSync(file, 'utf8'), `${c.id}: ${c.provenBy}`).toContain(c.id);
    }
  });

  test.skipIf(!hasRules)('has every id of the catalog table, with its severity (skipped: ../shared is absent)', () => {
    const rules = rulesTable();
    expect(rules.size).toBeGreaterThan(30);
    const ours = new Set(catalog.map((c) => c.id));
    const missing = [...rules.keys()].filter((id) => !ours.has(id));
    expect(missing).toEqual([]);
    for (const [id, sev] of rules) expect(severityLabel(checkById(id)!), id).toBe(sev);
  });
});

describe('a harness addition', () => {
  const addition = {
    id: 'envelope.made-up',
    scope: 'exchange',
    severity: 'SHOULD',
    title: 'a made-up rule of this harness',
    fix: 'do the made-up thing',
    harnessAddition: true,
    judge: () => ({ status: 'pass' }),
  } as const;

  test('links its section of docs/checks.md, and nothing else', async () => {
    const { defineCheck } = await import('../../harness/checks/check.ts');
    const define = (url: string) => () => defineCheck({ ...addition, spec: { label: "this harness's rule", url } } as never);
    expect(define('docs/checks.md#envelopemade-up')).not.toThrow();
    expect(define('README.md#envelopemade-up')).toThrow(/a harness addition links its section of docs\/checks\.md/);
    expect(define('https://adcontextprotocol.org/docs/')).toThrow(/a harness addition links its section of docs\/checks\.md/);
  });

  test("each one's section exists on docs/checks.md", () => {
    const page = readFileSync(path.join(root, 'docs', 'checks.md'), 'utf8');
    const headings = new Set([...page.matchAll(/^#{1,6} +(.+)$/gm)].map((m) => m[1]!.replace(/[`.]/g, '').toLowerCase()));
    const additions = catalog.filter((c) => c.harnessAddition);
    expect(additions.length).toBeGreaterThan(0);
    for (const c of additions) expect(headings, c.id).toContain(c.spec.url.replace('docs/checks.md#', ''));
  });
});
