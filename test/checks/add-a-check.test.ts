// Adding a check is adding one module, its fault and its vectors: in a scratch copy of the project, drop in
// a made-up check and the fault that proves it, append its pass/fail vector pair to its area's vector file
// — no other file touched — and see the check in `checks --json`, in a run's report.json and JUnit, in the
// vectors and in the self-test matrix.
import { execFile } from 'node:child_process';
import { cp, mkdtemp, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';

const run = promisify(execFile);
const ROOT = resolve(import.meta.dirname, '..', '..');
const FIXTURES = join(ROOT, 'test', 'fixtures', 'add-a-check');
// The matrix reads the test files that prove checks no fault can trip (`provenBy`): the whole test tree comes along.
const COPIED = [
  'bin',
  'harness',
  'sellers',
  'suites',
  'config',
  'scripts',
  'docs',
  'package.json',
  'tsconfig.json',
  // The build's own config: vitest's setup builds dist/ in the copy as in a checkout (test/setup/build.ts).
  'tsconfig.build.json',
  'vitest.config.ts',
  'test',
  'vectors',
];

let copy: string;

beforeAll(async () => {
  copy = await mkdtemp(join(tmpdir(), 'adcp-add-a-check-'));
  for (const entry of COPIED) await cp(join(ROOT, entry), join(copy, entry), { recursive: true });
  await symlink(join(ROOT, 'node_modules'), join(copy, 'node_modules'), 'dir');
  await cp(join(FIXTURES, 'check.ts.txt'), join(copy, 'harness', 'checks', 'envelope', 'made-up-marker.ts'));
  await cp(join(FIXTURES, 'fault.ts.txt'), join(copy, 'sellers', 'faults', 'made-up-marker.ts'));
}, 60_000);

afterAll(async () => {
  if (copy) await rm(copy, { recursive: true, force: true });
});

const cli = (...args: string[]) =>
  run(process.execPath, [join(copy, 'bin', 'adcp-conformance.js'), ...args], {
    cwd: copy,
    env: { ...process.env, CI: '1', NO_COLOR: '1' },
    maxBuffer: 32 * 1024 * 1024,
  });

describe('a new check and its fault, one file each', () => {
  test('one command regenerates the catalog page: `npm run catalog` adds its row, and the page is current again', async () => {
    const catalog = (...args: string[]) => run(process.execPath, [join(copy, 'scripts', 'catalog.mjs'), ...args], { cwd: copy });
    await expect(catalog('--check')).rejects.toMatchObject({ code: 1 }); // stale: the new check is not on the page
    await catalog();
    expect(await readFile(join(copy, 'docs', 'checks.md'), 'utf8')).toContain('envelope.made-up-marker');
    await catalog('--check');
  }, 120_000);

  test('its pass/fail vector pair goes into its area file, vectors/checks/envelope.json: the vectors command runs it, the vector tests pass', async () => {
    const vitest = (...args: string[]) =>
      run(process.execPath, [join(copy, 'node_modules', 'vitest', 'vitest.mjs'), 'run', 'test/checks/vectors.test.ts', ...args], {
        cwd: copy,
        env: { ...process.env, CI: '1', NO_COLOR: '1' },
        maxBuffer: 32 * 1024 * 1024,
      });
    // Without its vectors, the new id lacks the pass and the warn a test requires of every id.
    const missing = await vitest('-t', 'positive and a negative').then(
      () => ({ code: 0, stdout: '', stderr: '' }),
      (err: { code: number; stdout: string; stderr: string }) => err,
    );
    expect(missing.code).toBe(1);
    expect(missing.stdout + missing.stderr).toContain('envelope.made-up-marker');

    const file = join(copy, 'vectors', 'checks', 'envelope.json');
    const doc = JSON.parse(await readFile(file, 'utf8')) as { vectors: unknown[] };
    const answer = (payload: object) => ({
      tool: 'get_products',
      result: { structuredContent: payload, content: [{ type: 'text', text: JSON.stringify(payload) }] },
    });
    doc.vectors.push(
      {
        id: 'made-up-marker-absent',
        description: 'A get_products success without ext.made_up_marker.',
        exchange: answer({ status: 'completed', products: [] }),
        expected_outcomes: { 'envelope.made-up-marker': 'pass' },
      },
      {
        id: 'made-up-marker-present',
        description: 'A get_products success carrying ext.made_up_marker (SHOULD: warn).',
        exchange: answer({ status: 'completed', products: [], ext: { made_up_marker: true } }),
        expected_outcomes: { 'envelope.made-up-marker': 'warn' },
      },
    );
    await writeFile(file, `${JSON.stringify(doc, null, 2)}\n`);

    const { stdout } = await cli('vectors', 'vectors/checks/envelope.json');
    expect(stdout.trim().split('\n').at(-1)).toBe(`${doc.vectors.length} passed, 0 failed`);
    const { stdout: tests } = await vitest(); // rejects unless every test passes
    expect(tests).toMatch(/Tests\s+\d+ passed/);
  }, 120_000);

  test('`checks --json` lists it, with the fault that proves it', async () => {
    const { stdout } = await cli('checks', '--json');
    const rows = JSON.parse(stdout) as Array<{ id: string; severity: string; faults: string[] }>;
    expect(rows.find((r) => r.id === 'envelope.made-up-marker')).toMatchObject({ severity: 'SHOULD', faults: ['made-up-marker'] });
  }, 60_000);

  test('a run against the seller with the fault reports it in report.json and JUnit', async () => {
    const out = join(copy, 'out');
    const config = join(copy, 'agents.json');
    const seller = join(copy, 'sellers', 'reference-seller.js');
    await writeFile(
      config,
      JSON.stringify({
        agents: [
          {
            name: 'marked',
            transport: 'stdio',
            command: process.execPath,
            args: [seller, '--transport', 'stdio', '--fault', 'made-up-marker'],
          },
        ],
      }),
    );
    await cli('run', '--config', config, '--out', out).catch((err: { code?: number }) => {
      if (err.code !== 0 && err.code !== 1) throw err as Error;
    });
    const report = JSON.parse(await readFile(join(out, 'report.json'), 'utf8')) as {
      agents: Array<{ outcomes: Array<{ check: string; tool: string; status: string }> }>;
    };
    const mine = report.agents[0]!.outcomes.filter((o) => o.check === 'envelope.made-up-marker');
    expect(mine.find((o) => o.tool === 'get_products')).toMatchObject({ status: 'warn' });
    const junit = await readFile(join(out, 'junit.xml'), 'utf8');
    expect(junit).toContain('envelope.made-up-marker › get_products');
  }, 120_000);

  test('the matrix runs its fault and holds it to the declared status', async () => {
    const { stdout, stderr } = await run(
      process.execPath,
      [join(copy, 'node_modules', 'vitest', 'vitest.mjs'), 'run', 'test/matrix', '--reporter=verbose'],
      {
        cwd: copy,
        env: { ...process.env, CI: '1', NO_COLOR: '1', ADCP_MATRIX_FAULTS: 'made-up-marker' },
        maxBuffer: 32 * 1024 * 1024,
      },
    );
    const text = stdout + stderr;
    expect(text).toMatch(/made-up-marker over stdio/);
    expect(text).toMatch(/Tests\s+\d+ passed/);
    expect(text).not.toMatch(/failed/);
  }, 240_000);
});
