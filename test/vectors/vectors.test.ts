// The vector runner and the `vectors` command: our three files pass in full, the official AdCP files
// pass (A2A cases skipped), every one of our cases can fail (mutants), and the CLI's exit codes.
import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, test } from 'vitest';
import { caseKind, CHECKS_MISSING, runCase } from '../../harness/vectors/cases.ts';
import { formatSummary, runVectorFiles } from '../../harness/vectors/run.ts';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const ours = {
  success: path.join(root, 'vectors', 'success-extraction.json'),
  error: path.join(root, 'vectors', 'error-extraction.json'),
  layer: path.join(root, 'vectors', 'structured-content-layers.json'),
};
const officialDir = path.resolve(root, '..', 'shared', 'adcp', 'vectors');
const official = ['mcp-response-extraction.json', 'transport-error-mapping.json'].map((f) => path.join(officialDir, f));
const hasOfficial = official.every((f) => existsSync(f));
const hasCheckRunner = existsSync(path.join(root, 'harness', 'checks', 'vector-cases.ts'));

const tmp = mkdtempSync(path.join(tmpdir(), 'adcp-vectors-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

function vectorsOf(file: string): unknown[] {
  return (JSON.parse(readFileSync(file, 'utf8')) as { vectors: unknown[] }).vectors;
}

function cli(args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [path.join(root, 'bin', 'adcp-conformance.js'), 'vectors', ...args],
      { cwd: root },
      (err, stdout, stderr) => {
        const code = err ? (typeof err.code === 'number' ? err.code : null) : 0;
        resolve({ code, stdout, stderr });
      },
    );
  });
}

const lastLine = (s: string) => s.trimEnd().split('\n').at(-1);

describe('our vector files', () => {
  test.for([
    ['success', ours.success, 25],
    ['error', ours.error, 25],
    ['layer', ours.layer, 12],
  ] as const)('%s file: ≥ %2$s… cases of that kind, all pass', async ([kind, file, min]) => {
    const vectors = vectorsOf(file);
    expect(vectors.length).toBeGreaterThanOrEqual(min);
    expect(new Set(vectors.map((v) => caseKind(v)))).toEqual(new Set([kind]));
    const ids = vectors.map((v) => (v as { id: string }).id);
    expect(new Set(ids).size).toBe(ids.length);
    const summary = await runVectorFiles([file]);
    expect(summary.ok).toBe(true);
    if (!summary.ok) return;
    expect(summary.cases.filter((c) => c.result.status !== 'pass')).toEqual([]);
    expect(formatSummary(summary).at(-1)).toBe(`${vectors.length} passed, 0 failed`);
  });

  test('every case can fail: a wrong expectation in each makes it fail', async () => {
    const actions = ['retry', 'surface_to_caller', 'escalate_to_human', 'generic_error'];
    const targets = ['schema', 'missing', 'legacy_wrapper', 'validate_root'];
    for (const file of Object.values(ours)) {
      const vectors = vectorsOf(file);
      for (let i = 0; i < vectors.length; i++) {
        // JSON round trip: a deep copy that keeps "__proto__" as an own key
        const mutant = JSON.parse(JSON.stringify(vectors[i])) as Record<string, unknown>;
        const kind = caseKind(mutant);
        if (kind === 'success') {
          delete mutant['expected_data_generator'];
          mutant['expected_data'] = mutant['expected_data'] === null ? {} : null;
        } else if (kind === 'error') {
          mutant['expected_action'] = actions[(actions.indexOf(String(mutant['expected_action'])) + 1) % actions.length];
        } else {
          mutant['expected_target'] = targets[(targets.indexOf(String(mutant['expected_target'])) + 1) % targets.length];
        }
        const r = await runCase(mutant, i);
        expect(r.status, `${path.basename(file)} ${r.id}`).toBe('fail');
      }
    }
  });

  test('a missing __proto__ key is a difference (comparison on parsed JSON)', async () => {
    const v = JSON.parse(
      '{"id":"p","path":"text_fallback","response":{"content":[{"type":"text","text":"{\\"a\\":1}"}]},"expected_data":{"a":1,"__proto__":{"x":1}}}',
    ) as unknown;
    expect(await runCase(v, 0)).toEqual({
      id: 'p',
      kind: 'success',
      status: 'fail',
      diff: 'data /__proto__: expected {"x":1}, got (absent)',
    });
  });

  test('kinds, A2A skip, unknown kind, broken generator', async () => {
    expect(caseKind({ expected_outcomes: {} })).toBe('check');
    expect(caseKind({ expected_target: 'x', expected_data: {} })).toBe('layer');
    expect(caseKind({ expected_action: 'retry' })).toBe('error');
    expect(caseKind({ expected_data: null })).toBe('success');
    expect(caseKind({ id: 'x' })).toBe('unknown');
    expect(await runCase({ id: 'a', transport: 'a2a', expected_error: null }, 0)).toMatchObject({ status: 'skip' });
    expect(await runCase({ id: 'u' }, 0)).toMatchObject({ status: 'fail', diff: expect.stringContaining('unknown vector kind') });
    expect(await runCase('nope', 3)).toMatchObject({ id: '#3', status: 'fail' });
    const gen = { id: 'g', response_generator: { text_repeat: { char: 'x', count: -1 } }, expected_data: null };
    expect(await runCase(gen, 0)).toMatchObject({ status: 'fail', diff: expect.stringContaining('bad generator') });
  });

  test.skipIf(hasCheckRunner)('envelope-check cases fail with a clear reason while harness/checks/vector-cases.ts is absent', async () => {
    expect(await runCase({ id: 'c', expected_outcomes: {} }, 0)).toEqual({ id: 'c', kind: 'check', status: 'fail', diff: CHECKS_MISSING });
  });
});

describe.skipIf(!hasCheckRunner)('envelope-check cases through harness/checks/vector-cases.ts', () => {
  test('an expected_outcomes case is handed to runCheckVector and its verdict is used', async () => {
    const exchange = { tool: 'get_products', result: { isError: 'yes', content: [{ type: 'text', text: 'x' }] } };
    const right = { id: 'chk', exchange, expected_outcomes: { 'envelope.is-error-type': 'fail' } };
    const wrong = { id: 'chk', exchange, expected_outcomes: { 'envelope.is-error-type': 'pass' } };
    expect(await runCase(right, 0)).toEqual({ id: 'chk', kind: 'check', status: 'pass' });
    expect(await runCase(wrong, 0)).toMatchObject({ id: 'chk', kind: 'check', status: 'fail' });
  });
});

describe.skipIf(!hasOfficial)('official AdCP vector files (skipped when ../shared is absent)', () => {
  test('pass in full; only A2A cases are skipped', async () => {
    const summary = await runVectorFiles(official);
    expect(summary.ok).toBe(true);
    if (!summary.ok) return;
    expect(summary.cases.filter((c) => c.result.status === 'fail')).toEqual([]);
    const a2a = official.flatMap(vectorsOf).filter((v) => (v as { transport?: string }).transport === 'a2a').length;
    expect(a2a).toBeGreaterThan(0);
    expect(summary.skipped).toBe(a2a);
    expect(summary.passed).toBe(official.flatMap(vectorsOf).length - a2a);
  });
});

describe('the vectors command (child process)', () => {
  test('our three files: exit 0 and the final line', async () => {
    const files = Object.values(ours);
    const total = files.map((f) => vectorsOf(f).length).reduce((a, b) => a + b, 0);
    const r = await cli(files);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(lastLine(r.stdout)).toBe(`${total} passed, 0 failed`);
  });

  test('a wrong vector file: exit 1 with a FAIL line naming file and case', async () => {
    const vectors = vectorsOf(ours.error).slice(0, 3) as Array<Record<string, unknown>>;
    const first = vectors[0]!;
    first['expected_action'] = first['expected_action'] === 'retry' ? 'escalate_to_human' : 'retry';
    const file = path.join(tmp, 'wrong.json');
    writeFileSync(file, JSON.stringify({ version: 1, vectors: [...vectors, { id: 'a2a-one', transport: 'a2a', expected_error: null }] }));
    const r = await cli([file]);
    expect(r.code).toBe(1);
    expect(r.stdout).toContain(`FAIL ${file} ${String(first['id'])}: action: expected`);
    expect(r.stdout).toContain(`SKIP ${file} a2a-one`);
    expect(lastLine(r.stdout)).toBe('2 passed, 1 failed, 1 skipped');
  });

  test('broken JSON, a missing file, no arguments: exit 2 naming the file', async () => {
    const broken = path.join(tmp, 'broken.json');
    writeFileSync(broken, '{"vectors": [');
    const missing = path.join(tmp, 'nope.json');
    const [r, m, none] = await Promise.all([cli([ours.layer, broken]), cli([missing]), cli([])]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(broken);
    expect(r.stderr).toContain('not valid JSON');
    expect(r.stdout).toBe('');
    expect(m.code).toBe(2);
    expect(m.stderr).toContain(missing);
    expect(none.code).toBe(2);
    expect(none.stderr).toBe("adcp-conformance vectors: no vector file given\nsee 'adcp-conformance vectors --help'\n");
  });
});
