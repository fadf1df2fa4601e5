// Hostile values through a recording: a number too large for a double (1e400, parsed as Infinity) and an
// answer nested 200k levels deep are written and read back as they were captured. JSON.stringify wrote
// the first as `null` (a replay then said "found null") and threw on the second (the recording was lost).
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, expect, test } from 'vitest';
import type { AgentCapture } from '../../harness/record/exchange.ts';
import { toJsonText } from '../../harness/capture/json-text.ts';
import { readRecording, writeRecording } from '../../harness/capture/recording.ts';

const dirs: string[] = [];
afterAll(() => Promise.all(dirs.map((d) => rm(d, { recursive: true, force: true }))));

function capture(structuredContent: unknown): AgentCapture {
  return {
    agent: { name: 'hostile', transport: 'stdio', production: false, sandbox: false },
    initialize: { ok: true, protocolVersion: '2025-11-25', serverInfo: { name: 's', version: '1' }, durationMs: 1 },
    exchanges: [
      {
        agent: 'hostile',
        tool: 'get_adcp_capabilities',
        intent: 'valid',
        request: { name: 'get_adcp_capabilities', arguments: {} },
        outcome: { kind: 'result', result: { isError: true, content: [], structuredContent } },
        startedAt: new Date(0).toISOString(),
        durationMs: 1,
      },
    ],
  };
}

async function roundTrip(c: AgentCapture, secrets: string[] = []): Promise<AgentCapture> {
  const dir = await mkdtemp(join(tmpdir(), 'adcp-recording-'));
  dirs.push(dir);
  await writeRecording(join(dir, 'r.jsonl'), [c], secrets);
  expect(await readFile(join(dir, 'r.jsonl'), 'utf8')).not.toContain('tok_roundtrip_5ecret');
  return (await readRecording(join(dir, 'r.jsonl')))[0]!;
}

const scOf = (c: AgentCapture): unknown => (c.exchanges[0]!.outcome as { result: { structuredContent: unknown } }).result.structuredContent;

test('retry_after 1e400 is recorded as a number that parses back to Infinity, not null', async () => {
  const sc = JSON.parse('{"adcp_error":{"code":"RATE_LIMITED","message":"m","retry_after":1e400,"low":-1e400}}') as unknown;
  const back = scOf(await roundTrip(capture(sc), ['tok_roundtrip_5ecret']));
  expect(back).toEqual({ adcp_error: { code: 'RATE_LIMITED', message: 'm', retry_after: Infinity, low: -Infinity } });
});

test('an answer nested 200k levels deep (a secret inside) is recorded, redacted, and read back whole', async () => {
  const depth = 200_000;
  const sc = JSON.parse(`{"deep":${'['.repeat(depth)}"tok_roundtrip_5ecret"${']'.repeat(depth)}}`) as unknown;
  let node = (scOf(await roundTrip(capture(sc), ['tok_roundtrip_5ecret'])) as { deep: unknown }).deep;
  let levels = 0;
  while (Array.isArray(node)) {
    node = node[0];
    levels++;
  }
  expect(levels).toBe(depth);
  expect(node).toBe('[REDACTED]');
});

test('toJsonText writes what JSON.stringify writes for plain data', () => {
  const value = JSON.parse('{"a":[1,"x",null,true,{"b":{}}],"__proto__":{"c":2},"e":"\\u2028\\ud800"}') as unknown;
  expect(toJsonText(value)).toBe(JSON.stringify(value));
  expect(toJsonText({ a: undefined, b: [undefined], n: NaN })).toBe(JSON.stringify({ a: undefined, b: [undefined], n: NaN }));
});
