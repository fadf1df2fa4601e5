// The `checks` command as a user runs it: a real child process through bin/adcp-conformance.js.
import { execFile } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { describe, expect, test } from 'vitest';
import { catalog } from '../../harness/checks/catalog.ts';

const run = promisify(execFile);
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const cli = (...args: string[]) => run(process.execPath, [path.join(root, 'bin', 'adcp-conformance.js'), 'checks', ...args], { cwd: root });

describe('adcp-conformance checks', () => {
  test('prints an aligned table listing every id, exit 0', async () => {
    const { stdout } = await cli();
    const lines = stdout.trimEnd().split('\n');
    expect(lines[0]).toMatch(/^ID\s+SEVERITY\s+SCOPE\s+TITLE$/);
    for (const c of catalog) expect(lines.some((l) => l.startsWith(`${c.id} `))).toBe(true);
    const titleColumn = lines[0]!.indexOf('TITLE');
    const rows = lines.filter((l) => /^[a-z-]+\.[a-z0-9-]+ /.test(l));
    expect(rows).toHaveLength(catalog.length);
    for (const row of rows) expect(row[titleColumn - 1]).toBe(' ');
    expect(stdout).toMatch(/envelope\.structured-content\s+MUST\*/);
    expect(stdout).toMatch(/transport\.initialize\s+MUST\s+live/);
  });

  test('--json prints the catalog as JSON', async () => {
    const { stdout } = await cli('--json');
    const rows = JSON.parse(stdout) as Array<{ id: string; severity: string; live: boolean; faults: string[]; spec: string }>;
    expect(rows.map((r) => r.id)).toEqual(catalog.map((c) => c.id));
    expect(rows.every((r) => Array.isArray(r.faults) && r.spec.length > 0)).toBe(true);
  });

  test('an unknown option exits 2', async () => {
    await expect(cli('--bogus')).rejects.toMatchObject({ code: 2 });
  });
});

describe('the catalog table of docs/checks.md', () => {
  test('is exactly what `checks --markdown` prints (regenerate it with `npm run catalog`)', async () => {
    const { readFileSync } = await import('node:fs');
    const { join } = await import('node:path');
    const { catalogRows, renderMarkdown } = await import('../../harness/commands/checks.ts');
    const page = readFileSync(join(import.meta.dirname, '..', '..', 'docs', 'checks.md'), 'utf8');
    const table = /<!-- catalog:start -->\n([\s\S]*?)\n<!-- catalog:end -->/.exec(page)?.[1];
    expect(table).toBe(renderMarkdown(catalogRows()));
  });
});
