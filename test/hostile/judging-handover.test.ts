// The judge sandbox's own mechanics: the capture handed to the worker (even nested deeper than the call
// stack), the checks it runs, Ctrl-C mid-judging, and a worker never reused after it failed.
import { afterAll, expect, test } from 'vitest';
import type { AgentCapture } from '../../harness/record/exchange.ts';
import { closeJudgeSandboxes, judgeInSandbox } from '../../harness/run/judge/judge-sandbox.ts';
import { captureBytes, captureFromParts, captureParts } from '../../harness/run/judge/capture-parts.ts';
import { toJsonText } from '../../harness/capture/json-text.ts';
import { sdkSchemaSource } from '../../harness/schemas/index.ts';
import { capture, exchange } from '../schemas/helpers.ts';

const source = sdkSchemaSource();
afterAll(() => closeJudgeSandboxes());

/** A get_products call whose structuredContent the caller shapes, at MCP 2025-11-25. */
function withAnswer(structuredContent: Record<string, unknown>, outputSchema?: unknown): AgentCapture {
  const x = exchange(
    'get_products',
    { products: [] },
    { protocolVersion: '2025-11-25', ...(outputSchema ? { advertised: { outputSchema } } : {}) },
  );
  (x.outcome as { result: { structuredContent: unknown } }).result.structuredContent = structuredContent;
  const c = capture({ exchanges: [x] });
  c.toolsList = {
    ok: true,
    tools: [{ name: 'get_products', inputSchema: { type: 'object' }, ...(outputSchema ? { outputSchema } : {}) }],
    pages: 1,
  };
  return c;
}

test('the capture is handed over as JSON; past the call stack (200k levels) without recursion, with the same text', async () => {
  const small = { a: [1, 'x', null, { b: undefined, c: -0, d: Number.POSITIVE_INFINITY, e: '\u2028' }], u: undefined };
  // As JSON.stringify, except that a seller's non-finite number stays one (1e400 parses back to Infinity).
  expect(toJsonText(small)).toBe(JSON.stringify(small).replace('"d":null', '"d":1e400'));
  let deep: Record<string, unknown> = {};
  const root = deep;
  for (let i = 0; i < 200_000; i++) deep = deep.a = {};
  const c = withAnswer({ products: [], deep: root });
  expect(() => JSON.stringify(c)).toThrow(RangeError);
  expect(captureBytes(c).byteLength).toBeGreaterThan(200_000 * 6);
  const result = await judgeInSandbox(c, { schemaSource: source });
  expect(result.ok).toBe(true);
});

test('in parts (the capture with its exchanges emptied, then each exchange), it reads back as the same capture, 1e400 and all', () => {
  const c = withAnswer({ products: [], n: Number.POSITIVE_INFINITY, s: '\u2028é' });
  c.exchanges.push(c.exchanges[0]!, c.exchanges[0]!);
  const text = (b: Uint8Array) => Buffer.from(b).toString('utf8');
  const parts = captureParts(c);
  expect(parts.exchanges).toHaveLength(3);
  expect(JSON.parse(text(parts.frame))).toMatchObject({ exchanges: [] });
  const whole = JSON.parse(text(captureBytes(c))) as unknown;
  const back = captureFromParts(parts);
  expect(back).toEqual(whole);
  expect(back.exchanges.map((x) => (x.outcome as { result: { structuredContent: { n: number } } }).result.structuredContent.n)).toEqual([
    Infinity,
    Infinity,
    Infinity,
  ]);
  // A broken record whose exchanges are not a list goes whole, as the frame.
  const broken = { ...c, exchanges: 'none' } as unknown as AgentCapture;
  expect(captureParts(broken)).toEqual({ frame: captureBytes(broken), exchanges: null });
});

test('select: only the selected checks run (a function, as judge.ts passes it, or the ids)', async () => {
  const c = withAnswer({ products: [] });
  for (const select of [(id: string) => id === 'schema.adcp-response', ['schema.adcp-response']]) {
    const result = await judgeInSandbox(c, { schemaSource: source, select });
    expect(result.ok && [...new Set(result.outcomes.map((o) => o.check))]).toEqual(['schema.adcp-response']);
  }
});

test('Ctrl-C mid-judging stops the worker at once and says what was running; the next agent gets a fresh worker', async () => {
  const hostile = withAnswer(
    { x: `${'a'.repeat(40)}b` },
    { type: 'object', properties: { x: { type: 'string', pattern: '^(?=a)(a+)+$' } } },
  );
  const controller = new AbortController();
  const judging = judgeInSandbox(hostile, { schemaSource: source, budget: { timeMs: 60_000 }, signal: controller.signal });
  // Abort once judging is under way (the worker starts, prepares, then reaches the pattern).
  await new Promise((r) => setTimeout(r, 4_000));
  const started = performance.now();
  controller.abort();
  const result = await judging;
  expect(performance.now() - started).toBeLessThan(10_000); // at once; loose for a busy machine
  expect(result).toEqual({
    ok: false,
    reason: expect.stringMatching(
      /^judging was interrupted while (running schema\.output-conformance on get_products: validating get_products against its outputSchema|preparing)/,
    ),
  });
  const after = await judgeInSandbox(withAnswer({ products: [] }), { schemaSource: source });
  expect(after.ok).toBe(true);
});
