// Judging a hostile seller, live: a stdio seller of our own advertises an outputSchema (or sends an answer)
// that makes a validator asynchronous, exponential, backtracking or huge. Judging runs in a worker under a
// budget: it either finishes (the finding is the seller's) or is stopped with a reason naming what ran —
// never a hang, a crash of the run, or an unhandled rejection. Wall times are asserted loosely: the
// budget under test plus a wide margin (the machine may be busy).
import { spawnSync } from 'node:child_process';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { captureAgent } from '../../harness/capture/capture-agent.ts';
import type { AgentCapture } from '../../harness/record/exchange.ts';
import type { Outcome } from '../../harness/checks/check.ts';
import {
  closeJudgeSandboxes,
  idleJudgeWorkers,
  judgeInSandbox,
  LARGE_CAPTURE_BYTES,
  type SandboxResult,
} from '../../harness/run/judge/judge-sandbox.ts';
import { ERROR_CAP, sdkSchemaSource } from '../../harness/schemas/index.ts';
import { probes, stdioAgent } from '../connect/agents.ts';

const SELLER = fileURLToPath(new URL('./servers/judging-stdio.mjs', import.meta.url));
const PROJECT = fileURLToPath(new URL('../../', import.meta.url));
const source = sdkSchemaSource();
/** Slack over a budget: worker start-up, our own schema preparation, a busy machine. */
const SLACK_MS = 30_000;

const capture = (behaviour: string, count?: number): Promise<AgentCapture> =>
  captureAgent(
    stdioAgent(`judging-${behaviour}`, {
      command: process.execPath,
      args: [SELLER, behaviour, ...(count === undefined ? [] : [String(count)])],
      probes: probes('get_products'),
      timeouts: { connectMs: 20_000, callMs: 20_000, agentMs: 60_000 },
    }),
  );

/** Budget for the cases expected to finish: generous, so a busy machine never turns them into timeouts. */
const FINISHES_MS = 30_000;

async function judged(c: AgentCapture, timeMs = FINISHES_MS): Promise<{ result: SandboxResult; ms: number }> {
  const started = performance.now();
  const result = await judgeInSandbox(c, { schemaSource: source, budget: { timeMs } });
  return { result, ms: performance.now() - started };
}

function outcomesOf(result: SandboxResult): Outcome[] {
  if (!result.ok) throw new Error(`judging failed: ${result.reason}`);
  return result.outcomes;
}

const one = (outcomes: Outcome[], check: string, tool = 'get_products'): Outcome | undefined =>
  outcomes.find((o) => o.check === check && o.tool === tool);

const rejections: unknown[] = [];
const onRejection = (reason: unknown) => rejections.push(reason);
beforeAll(() => void process.on('unhandledRejection', onRejection));
afterAll(async () => {
  process.off('unhandledRejection', onRejection);
  await closeJudgeSandboxes();
  expect(rejections).toEqual([]);
});

describe('the worker after a job', () => {
  test('one that judged a large capture is ended, not kept idle (its grown heap would sit beside the next job); a small one is kept', async () => {
    const small = await capture('clean');
    await closeJudgeSandboxes();
    const key = (o: Outcome) => `${o.check} ${o.tool} ${o.call} ${o.status}`;
    const before = outcomesOf((await judged(small)).result).map(key);
    expect(before.length).toBeGreaterThan(0);
    expect(idleJudgeWorkers()).toBe(1);
    // The same session with one more call whose arguments make the capture's JSON larger than the bound.
    const first = small.exchanges[0]!;
    const padded = { ...first, request: { ...first.request, arguments: { pad: 'x'.repeat(LARGE_CAPTURE_BYTES) } } };
    const large: AgentCapture = { ...small, exchanges: [...small.exchanges, padded] };
    // Judged the same (the transferred bytes arrived whole): every outcome of the small session is there.
    expect(outcomesOf((await judged(large)).result).map(key)).toEqual(expect.arrayContaining(before));
    expect(idleJudgeWorkers()).toBe(0);
  });
});

describe('refused schemas are findings, and judging goes on', () => {
  test('an "$async" outputSchema: schema.output-schema fails naming it, no rejection anywhere; a clean seller after it is judged normally', async () => {
    const { result } = await judged(await capture('async-schema'));
    const outcomes = outcomesOf(result);
    expect(one(outcomes, 'schema.output-schema')).toMatchObject({ status: 'fail', found: expect.stringContaining('"$async"') });
    expect(one(outcomes, 'schema.output-conformance')?.status).toBe('untested');
    expect(one(outcomes, 'schema.adcp-response')?.status).toBe('pass');

    const clean = outcomesOf((await judged(await capture('clean'))).result);
    expect(clean.filter((o) => o.check.startsWith('schema.') && o.status === 'fail')).toEqual([]);
    expect(one(clean, 'schema.output-conformance')?.status).toBe('pass');
    await new Promise((r) => setTimeout(r, 50));
    expect(rejections).toEqual([]);
  });

  test('remote and file: $refs are refused with a finding, never followed', async () => {
    const outcomes = outcomesOf((await judged(await capture('remote-ref'))).result);
    expect(one(outcomes, 'schema.output-schema')).toMatchObject({
      status: 'fail',
      found: expect.stringMatching(/is a (remote|file:) reference: the harness never fetches/),
    });
  });
});

describe('a pattern that backtracks catastrophically', () => {
  test("the linear engine runs ^(a+)+$ against 40 a's and a b at once: a plain failure of the check", async () => {
    const { result, ms } = await judged(await capture('redos'));
    expect(one(outcomesOf(result), 'schema.output-conformance')).toMatchObject({
      status: 'fail',
      expected: expect.stringContaining('pattern ^(a+)+$'),
    });
    expect(ms).toBeLessThan(FINISHES_MS + SLACK_MS);
  });

  const NATIVE_REASON =
    /^your outputSchema of get_products took longer than 1500 ms to validate: pattern "\^\(\?=a\)\(a\+\)\+\$" at \/properties\/x\/pattern \(on the backtracking regex engine\)/;

  test('a pattern only the backtracking engine can run is stopped at the budget; judged again without it, the check fails naming the pattern and where it is', async () => {
    const timeMs = 1_500;
    const { result, ms } = await judged(await capture('redos-native'), timeMs);
    const outcomes = outcomesOf(result);
    expect(one(outcomes, 'schema.output-conformance')).toMatchObject({
      status: 'fail',
      pointer: '/result/structuredContent',
      found: expect.stringMatching(NATIVE_REASON),
    });
    expect(result.ok && result.notes).toEqual([
      expect.stringMatching(/^judged again without validating get_products \(outputSchema\): your outputSchema/),
    ]);
    // The other checks still judged the call.
    expect(one(outcomes, 'schema.adcp-response')?.status).toBe('fail');
    expect(one(outcomes, 'transport.call')?.status).toBe('pass');
    expect(ms).toBeGreaterThanOrEqual(timeMs);
    expect(ms).toBeLessThan(2 * timeMs + SLACK_MS);
  });

  test('without retries the same seller is an ok:false naming the pattern', async () => {
    const started = performance.now();
    const result = await judgeInSandbox(await capture('redos-native'), { schemaSource: source, budget: { timeMs: 1_500 }, retries: 0 });
    expect(result).toEqual({
      ok: false,
      reason: expect.stringMatching(
        /^your outputSchema of get_products took longer than 1500 ms to validate: pattern "\^\(\?=a\)\(a\+\)\+\$" at \/properties\/x\/pattern \(on the backtracking regex engine\); judging was stopped, during schema\.output-conformance on get_products$/,
      ),
    });
    expect(performance.now() - started).toBeLessThan(1_500 + SLACK_MS);
  });
});

describe('validation that would not end, or would not fit', () => {
  test('an anyOf nested 30 deep (2^30 paths) is stopped within its budget; the check fails naming the outputSchema', async () => {
    const timeMs = 2_000;
    const { result, ms } = await judged(await capture('exponential-anyof'), timeMs);
    expect(one(outcomesOf(result), 'schema.output-conformance')).toMatchObject({
      status: 'fail',
      found: expect.stringMatching(
        /^your outputSchema of get_products took (longer than 2000 ms|more than the 512 MB memory budget) to validate$/,
      ),
    });
    expect(ms).toBeLessThan(2 * timeMs + SLACK_MS);
  });

  test('120k empty products failing the AdCP schema: judged in bounded time, the first error listed and the rest counted', async () => {
    const c = await capture('empty-products', 120_000);
    expect(c.exchanges[0]?.outcome.kind).toBe('result');
    const { result, ms } = await judged(c);
    expect(one(outcomesOf(result), 'schema.adcp-response')).toMatchObject({
      status: 'fail',
      pointer: '/result/structuredContent/products/0',
      schemaErrorsOmitted: ERROR_CAP - 1,
    });
    expect(ms).toBeLessThan(FINISHES_MS + SLACK_MS);
  });

  test('an outputSchema demanding 40 fields of 150k empty items: judged within the memory budget', async () => {
    const c = await capture('wide-items', 150_000);
    const started = performance.now();
    const result = await judgeInSandbox(c, { schemaSource: source, budget: { timeMs: FINISHES_MS, memoryMb: 512 } });
    expect(one(outcomesOf(result), 'schema.output-conformance')).toMatchObject({
      status: 'fail',
      pointer: '/result/structuredContent/items/0',
    });
    expect(performance.now() - started).toBeLessThan(FINISHES_MS + SLACK_MS);
  });

  test('2000 tools with outputSchemas, one called: only that one is compiled, the rest checked; all pass within the budget', async () => {
    const c = await capture('huge-tools', 1_999);
    expect(c.toolsList?.ok && c.toolsList.tools.length).toBe(2_000);
    const { result, ms } = await judged(c);
    const schemaOutcomes = outcomesOf(result).filter((o) => o.check === 'schema.output-schema');
    expect(schemaOutcomes).toHaveLength(2_000);
    expect(schemaOutcomes.filter((o) => o.status !== 'pass')).toEqual([]);
    expect(ms).toBeLessThan(FINISHES_MS + SLACK_MS);
  });

  test('a memory budget too small for the capture itself: stopped with the budget named', async () => {
    const c = await capture('huge-tools', 1_999);
    const result = await judgeInSandbox(c, { schemaSource: source, budget: { timeMs: 5_000, memoryMb: 16 }, reuse: false });
    expect(result).toEqual({
      ok: false,
      reason: expect.stringMatching(/^judging used more than its memory budget of 16 MB and was stopped while preparing \(/),
    });
  });
});

test('the worker starts the way the CLI runs (tsx registered through its API, not vitest), from another directory', () => {
  // The same bootstrap as bin/adcp-conformance.js, then one agent judged in the sandbox; the working
  // directory is not the project's (the worker must find tsx and its entry from the module, not the cwd).
  const at = (rel: string) => JSON.stringify(pathToFileURL(path.join(PROJECT, rel)).href);
  const script = `
    const { register } = await import(${JSON.stringify(import.meta.resolve('tsx/esm/api'))});
    register();
    const { judgeInSandbox, closeJudgeSandboxes } = await import(${at('harness/run/judge/judge-sandbox.ts')});
    const { sdkSchemaSource } = await import(${at('harness/schemas/index.ts')});
    const capture = {
      agent: { name: 'cli', transport: 'stdio', production: false, sandbox: false },
      initialize: { ok: true, protocolVersion: '2025-11-25', serverInfo: { name: 'x', version: '1' }, durationMs: 1 },
      toolsList: { ok: true, tools: [{ name: 'get_products', inputSchema: { type: 'object' }, outputSchema: { $async: true, type: 'object' } }], pages: 1 },
      exchanges: [],
    };
    const r = await judgeInSandbox(capture, { schemaSource: sdkSchemaSource() });
    await closeJudgeSandboxes();
    console.log(JSON.stringify(r.ok ? { ok: true, outputSchema: r.outcomes.find((o) => o.check === 'schema.output-schema') } : r));
  `;
  const child = spawnSync(process.execPath, ['--input-type=module', '-e', script], { cwd: tmpdir(), encoding: 'utf8', timeout: 120_000 });
  expect(child.stderr).toBe('');
  expect(JSON.parse(child.stdout.trim().split('\n').pop() ?? 'null')).toMatchObject({
    ok: true,
    outputSchema: { status: 'fail', found: expect.stringContaining('$async') },
  });
});
