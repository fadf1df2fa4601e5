// The capture as the judge worker reads it back (run/judge/capture-parts.ts), from live sessions with real
// sellers: the answers and the tools/list pages go as the sellers' own text, an exchange's `advertised` as
// its tool's index, and what the worker rebuilds is the capture itself, key order included — written out,
// the same text as the capture serialized whole (the handover before texts: toJsonText of every value).
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { captureAgent } from '../../harness/capture/capture-agent.ts';
import { toJsonText } from '../../harness/capture/json-text.ts';
import type { AgentConfig } from '../../harness/config/types.ts';
import type { AgentCapture, Exchange } from '../../harness/record/exchange.ts';
import { captureFromParts, captureParts, partsBuffers, type CaptureParts } from '../../harness/run/judge/capture-parts.ts';
import {
  answerTextOf,
  HELD_AS_TEXT_BYTES,
  heldDigestOf,
  heldTextOf,
  holdAsText,
  LARGE_TEXT_CHARS,
  noteAnswerText,
  releaseHeldAnswers,
} from '../../harness/record/answer-text.ts';
import { answerDigest, textsOfAnswer } from '../../harness/extract/answer-facts.ts';
import { own } from '../../harness/json.ts';
import { judgeCapture } from '../../harness/run/judge/judge.ts';
import { sdkSchemaSource } from '../../harness/schemas/index.ts';
import { MessageChannel } from 'node:worker_threads';
import { startHttpSeller, stdioSellerCommand } from '../../sellers/launch.ts';
import { httpAgent, probes, stdioAgent } from '../connect/agents.ts';

const HOSTILE_STDIO = fileURLToPath(new URL('./servers/hostile-stdio.mjs', import.meta.url));
const RPC_STDIO = fileURLToPath(new URL('./servers/rpc-stdio.mjs', import.meta.url));

/** Parts made, then read back as the worker does (captureFromParts empties what it reads: a copy for the checks). */
function roundTrip(c: AgentCapture): { parts: CaptureParts; back: AgentCapture } {
  const parts = captureParts(c);
  const kept = { ...parts, answers: parts.answers && [...parts.answers], toolPages: parts.toolPages && [...parts.toolPages] };
  return { parts: kept, back: captureFromParts(parts) };
}

/** The exchanges with a JSON-RPC answer, and those with `advertised` schemas. */
const answered = (c: AgentCapture) => c.exchanges.map((x) => x.outcome.kind === 'result' || x.outcome.kind === 'jsonrpc-error');
const advertised = (c: AgentCapture) => c.exchanges.map((x) => x.advertised !== undefined);

function expectSentAsText(c: AgentCapture, parts: CaptureParts): void {
  expect(parts.answers?.map((a) => a !== null)).toEqual(answered(c));
  expect(parts.advertisedFrom?.map((i) => i !== null) ?? c.exchanges.map(() => false)).toEqual(advertised(c));
  if (c.toolsList?.ok) expect(parts.toolPages?.reduce((n, p) => n + p.count, 0)).toBe(c.toolsList.tools.length);
}

function referenceStdio(name: string, sandbox: boolean): AgentConfig {
  const { command, args } = stdioSellerCommand({ sandbox });
  return stdioAgent(name, { name, command, args, sandbox, timeouts: { connectMs: 20_000, callMs: 8_000, agentMs: 90_000 } });
}

describe('live captures read back as themselves', () => {
  test('the reference seller over stdio, sandbox flows and all: every answer and the tool list as text', async () => {
    const c = await captureAgent(referenceStdio('parts-stdio', true));
    expect(c.exchanges.length).toBeGreaterThan(20);
    const { parts, back } = roundTrip(c);
    expectSentAsText(c, parts);
    expect(parts.advertisedFrom?.some((i) => i !== null)).toBe(true);
    expect(toJsonText(back)).toBe(toJsonText(c));
    // The schemas are the listed tool's own values again (one copy in the worker, as in the capture).
    const x = back.exchanges.find((e) => e.advertised?.inputSchema !== undefined)!;
    const tool = (back.toolsList as { tools: Array<{ name: string; inputSchema: unknown }> }).tools.find((t) => t.name === x.tool)!;
    expect(x.advertised!.inputSchema).toBe(tool.inputSchema);
  }, 120_000);

  describe('the reference seller over HTTP', () => {
    let seller: { url: string; close(): Promise<void> };
    beforeAll(async () => {
      seller = await startHttpSeller();
    });
    afterAll(() => seller?.close());

    test('answers as text; with secrets to redact, the redacted values are serialized instead', async () => {
      const plain = await captureAgent(httpAgent(seller.url, { name: 'parts-http', headers: {}, secrets: [] }));
      const { parts, back } = roundTrip(plain);
      expectSentAsText(plain, parts);
      expect(toJsonText(back)).toBe(toJsonText(plain));

      // A capture with secrets is a redacted copy: none of the seller's texts may stand in for it.
      const redacted = await captureAgent(httpAgent(seller.url, { name: 'parts-http-secrets' }));
      const again = roundTrip(redacted);
      expect(again.parts.answers).toBeUndefined();
      expect(again.parts.toolPages).toBeUndefined();
      expect(again.parts.advertisedFrom).toBeUndefined();
      expect(toJsonText(again.back)).toBe(toJsonText(redacted));
    }, 120_000);
  });

  test.for(['duplicate-keys', 'retry-after-1e400', 'prototype-keys', 'invalid-utf8', 'lone-surrogates', 'deep-nesting', 'deep-schema'])(
    'a hostile seller (%s): the same capture, from its own text',
    async (behaviour) => {
      const c = await captureAgent(stdioAgent(behaviour, { command: process.execPath, args: [HOSTILE_STDIO, behaviour] }));
      expect(c.exchanges.length).toBeGreaterThan(0);
      const { parts, back } = roundTrip(c);
      expectSentAsText(c, parts);
      expect(toJsonText(back)).toBe(toJsonText(c));
    },
  );

  test('tools/list in two pages of which 2000 tools are kept, and JSON-RPC errors whose text repeats a key', async () => {
    const c = await captureAgent(
      stdioAgent('many-tools', { command: process.execPath, args: [RPC_STDIO, 'many-tools'], probes: probes('get_adcp_capabilities') }),
    );
    expect(c.toolsList).toMatchObject({ ok: true, pages: 2 });
    expect((c.toolsList as { tools: unknown[] }).tools).toHaveLength(2000);
    expect(c.exchanges[0]!.outcome).toEqual({
      kind: 'jsonrpc-error',
      error: { code: -32000, message: 'down', data: { n: Infinity, x: -0 } },
    });
    const { parts, back } = roundTrip(c);
    expect(parts.toolPages?.map((p) => p.count)).toEqual([1500, 500]);
    expectSentAsText(c, parts);
    expect(toJsonText(back)).toBe(toJsonText(c));
    expect(back.exchanges[0]!.outcome).toEqual(c.exchanges[0]!.outcome);
  });
});

test('a large answer is kept as its UTF-8 bytes, and handed over again after its parts were transferred (a retry)', async () => {
  // deep-nesting: a 400 KB answer carrying text outside Latin-1 (a two-byte string: twice its UTF-8 bytes).
  const c = await captureAgent(stdioAgent('deep-nesting', { command: process.execPath, args: [HOSTILE_STDIO, 'deep-nesting'] }));
  const x = c.exchanges.find((e) => e.outcome.kind === 'result')!;
  const noted = answerTextOf((x.outcome as { result: unknown }).result)!;
  expect(noted.text).toBeInstanceOf(Uint8Array);
  expect(noted.text.length).toBeGreaterThan(LARGE_TEXT_CHARS);
  const first = captureParts(c);
  // As judge-sandbox.ts hands them over: transferred, which empties every buffer on this side.
  const { port1 } = new MessageChannel();
  port1.postMessage(first, partsBuffers(first));
  port1.close();
  expect(first.answers?.every((a) => a === null || a.byteLength === 0)).toBe(true);
  const { parts, back } = roundTrip(c);
  expectSentAsText(c, parts);
  expect(toJsonText(back)).toBe(toJsonText(c));
});

test('a value changed after it was noted, or a recording, goes serialized: only a live answer goes as its text', async () => {
  const c = await captureAgent(
    stdioAgent('hostile-plain', { command: process.execPath, args: [HOSTILE_STDIO, 'duplicate-keys'], probes: probes('get_products') }),
  );
  // A recording read back from its file: no value in it came off a wire.
  const recorded = JSON.parse(toJsonText(c)) as AgentCapture;
  const replayed = roundTrip(recorded);
  expect([replayed.parts.answers, replayed.parts.toolPages, replayed.parts.advertisedFrom]).toEqual([undefined, undefined, undefined]);
  expect(toJsonText(replayed.back)).toBe(toJsonText(c));
  // An exchange whose answer is another value now (a copy) goes serialized; the others still as text.
  const first = c.exchanges[0]!;
  if (first.outcome.kind !== 'result') throw new Error('expected a result');
  c.exchanges[0] = { ...first, outcome: { kind: 'result', result: { replaced: true } } };
  const { parts, back } = roundTrip(c);
  expect(parts.answers?.[0]).toBeNull();
  expect(toJsonText(back)).toBe(toJsonText(c));
});

describe('an answer over 1 MiB is held as its text once its call is recorded', () => {
  // big-answer: 11.9 MB of structuredContent, on every call (the capabilities call and the scenario's call without context).
  let c: AgentCapture;
  beforeAll(async () => {
    c = await captureAgent(
      stdioAgent('big-answer', {
        command: process.execPath,
        args: [HOSTILE_STDIO, 'big-answer'],
        maxBytes: 16 * 1024 * 1024,
        timeouts: { connectMs: 10_000, callMs: 8000, agentMs: 30_000 },
      }),
    );
  }, 60_000);
  const heldOnes = () => c.exchanges.filter((x) => heldTextOf(x.outcome) !== undefined);

  test('the outcome reads its answer back from the bytes: the same JSON value, one parsed copy at a time', () => {
    const held = heldOnes();
    expect(held.length).toBeGreaterThanOrEqual(2);
    for (const x of held) {
      expect(Object.getOwnPropertyDescriptor(x.outcome, 'result')?.get).toBeTypeOf('function');
      expect(heldTextOf(x.outcome)!.text.length).toBeGreaterThanOrEqual(HELD_AS_TEXT_BYTES);
      const catalog = own(own(own(x.outcome, 'result'), 'structuredContent'), 'catalog') as unknown[];
      expect(catalog).toHaveLength(44_000);
      expect(catalog[43_999]).toEqual({ id: 'item_43999', name: 'Item 43999 ', description: 'd'.repeat(200), tags: ['a', 'b', 'c'] });
    }
    // Read twice in a row: the same copy. Another answer read in between: parsed again.
    const [a, b] = held as [Exchange, Exchange];
    const first = own(a.outcome, 'result');
    expect(own(a.outcome, 'result')).toBe(first);
    own(b.outcome, 'result');
    expect(own(a.outcome, 'result')).not.toBe(first);
    // A copy made by spreading reads the answer back: it holds the value itself, not the text.
    const copy = { ...a, outcome: { ...a.outcome } };
    expect(heldTextOf(copy.outcome)).toBeUndefined();
    expect(toJsonText(copy.outcome)).toBe(toJsonText(a.outcome));
  });

  test('the hand-over sends the held text without reading the answer back, and the worker rebuilds the capture', () => {
    const [a] = heldOnes() as [Exchange];
    const read = own(a.outcome, 'result');
    const { parts, back } = roundTrip(c);
    expect(own(a.outcome, 'result')).toBe(read); // no other answer was read back meanwhile
    expectSentAsText(c, parts);
    expect(toJsonText(back)).toBe(toJsonText(c));
  });

  test('judged and reported exactly as the same capture holding plain values (a recording read back)', async () => {
    const plainCopy = JSON.parse(toJsonText(c)) as AgentCapture;
    expect(heldOnes().length).toBeGreaterThanOrEqual(2);
    expect(plainCopy.exchanges.some((x) => heldTextOf(x.outcome) !== undefined)).toBe(false);
    const opts = { index: 0, schemaSource: sdkSchemaSource(), secrets: [], strict: false };
    const [held, plain] = [await judgeCapture(c, opts), await judgeCapture(plainCopy, opts)];
    expect(
      held.outcomes.some(
        (o) => o.check === 'envelope.size' && o.status === 'fail' && o.evidence?.answer?.startsWith('structuredContent: {'),
      ),
    ).toBe(true);
    expect(held.facts.adcpVersionReason).toMatch(/served: /);
    expect(held).toEqual(plain);
  }, 60_000);

  test('what the reports read of it (texts, error code, echoed version) is what they read of the value', () => {
    for (const x of heldOnes()) {
      const plain = { kind: 'result', result: own(x.outcome, 'result') } as const;
      expect(heldDigestOf(x.outcome)).toEqual(answerDigest(plain));
      expect(textsOfAnswer(x.outcome)).toEqual(textsOfAnswer(plain));
      expect(textsOfAnswer(x.outcome)[0]).toMatch(/^structuredContent: \{.*…$/s);
    }
  });
});

test('holdAsText: only a noted answer of 1 MiB or more is held; every way of reading sees it; setting a value drops the text', () => {
  const value = { structuredContent: { note: 'x'.repeat(HELD_AS_TEXT_BYTES) } };
  const digest = () => ({ texts: [], errorCode: undefined, echoedVersion: undefined });
  const message = JSON.stringify({ jsonrpc: '2.0', id: 1, result: value });
  const small = { kind: 'result', result: { ok: true } };
  noteAnswerText(small.result, JSON.stringify({ jsonrpc: '2.0', id: 1, result: small.result }), 'result');
  expect(holdAsText(small, digest)).toBe(small);
  const unnoted = { kind: 'result', result: value };
  expect(holdAsText(unnoted, digest)).toBe(unnoted);
  noteAnswerText(value, message, 'result');
  const held = holdAsText<{ kind: string; result: unknown }>({ kind: 'result', result: value }, digest);
  expect(heldTextOf(held)?.member).toBe('result');
  expect(held.result).toBe(value); // the value at hand stays the copy read, until another is read back
  expect(releaseHeldAnswers()).toBe(true);
  expect(held.result).toEqual(value);
  expect(held.result).not.toBe(value);
  expect(releaseHeldAnswers()).toBe(false);
  // Every way of reading it sees the value: own(), spread, JSON, and the writer of non-finite numbers. (The text
  // says 1e400 where the value noted says 1: what is read back is the text's.)
  const finite = { data: 'x'.repeat(HELD_AS_TEXT_BYTES), n: 1 };
  noteAnswerText(finite, `{"jsonrpc":"2.0","id":2,"error":${JSON.stringify(finite).replace('"n":1', '"n":1e400')}}`, 'error');
  const error = holdAsText({ kind: 'jsonrpc-error', error: finite }, digest);
  releaseHeldAnswers();
  expect(own(own(error, 'error'), 'n')).toBe(Infinity);
  expect({ ...error }.error).toEqual({ data: finite.data, n: Infinity });
  expect(toJsonText({ outcome: error })).toBe(`{"outcome":{"kind":"jsonrpc-error","error":{"data":"${finite.data}","n":1e400}}}`);
  held.result = { replaced: true };
  expect(held.result).toEqual({ replaced: true });
  expect([heldTextOf(held), heldDigestOf(held)]).toEqual([undefined, undefined]); // it goes serialized, as itself
  expect(Object.keys(held)).toEqual(['kind', 'result']);
});
