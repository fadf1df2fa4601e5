// Recordings: live captures written as JSON Lines read back deep-equal, give the same check outcomes,
// and never contain a secret.
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { AgentCapture } from '../../harness/record/exchange.ts';
import { readRecording, writeRecording } from '../../harness/capture/recording.ts';
import { judgeAgent } from '../../harness/checks/engine.ts';
import { captureAgent } from '../../harness/capture/capture-agent.ts';
import { startHostileHttp } from '../fixtures/servers/hostile-http.mjs';
import { httpAgent, probes, stdioAgent, TOKEN } from './agents.ts';

let dir: string;
let captures: AgentCapture[];
let secrets: string[];

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'adcp-rec-'));
  const server = await startHostileHttp({ mode: 'sse' });
  try {
    const http = httpAgent(server.url, {
      name: 'rec-http',
      probes: probes('get_adcp_capabilities', 'odd_result', 'echo_auth', 'echo_auth_http', 'html500', 'get_products'),
    });
    const stdio = stdioAgent('hostile-stdio.mjs', { name: 'rec-stdio', probes: probes('odd_result', 'junk', 'bad_envelope', 'crash') });
    secrets = [...http.secrets, ...stdio.secrets];
    captures = [await captureAgent(http), await captureAgent(stdio)];
  } finally {
    await server.close();
  }
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('recording', () => {
  test('round trip: read back deep-equal (odd keys included), one agent line then its exchanges', async () => {
    const file = join(dir, 'run.jsonl');
    await writeRecording(file, captures, secrets);
    const lines = (await readFile(file, 'utf8'))
      .trimEnd()
      .split('\n')
      .map((l) => JSON.parse(l) as { type: string });
    expect(lines.map((l) => l.type)).toEqual([
      'agent',
      ...captures[0]!.exchanges.map(() => 'exchange'),
      'agent',
      ...captures[1]!.exchanges.map(() => 'exchange'),
    ]);
    const back = await readRecording(file);
    expect(back).toStrictEqual(captures);
    const odd = back[0]!.exchanges[1]!.outcome as { result: { structuredContent: object } };
    expect(Object.keys(odd.result.structuredContent)).toEqual(['__proto__', 'constructor', 'a']);
  });

  test('a replay gives the same check outcomes as the live capture', async () => {
    const file = join(dir, 'replay.jsonl');
    await writeRecording(file, captures, secrets);
    const back = await readRecording(file);
    for (const [i, live] of captures.entries()) expect(judgeAgent(back[i]!, {})).toEqual(judgeAgent(live, {}));
  });

  test('no configured secret appears in a recording, even one the capture still held', async () => {
    const file = join(dir, 'secret.jsonl');
    const leaky: AgentCapture = {
      ...captures[0]!,
      exchanges: [
        {
          ...captures[0]!.exchanges[0]!,
          outcome: { kind: 'result', result: { content: [{ type: 'text', text: `echo Bearer ${TOKEN}` }] } },
        },
      ],
    };
    await writeRecording(file, [leaky], secrets);
    const text = await readFile(file, 'utf8');
    expect(text).not.toContain(TOKEN);
    expect(text).toContain('[REDACTED]');
  });

  test('a bad line is reported with its line number', async () => {
    const file = join(dir, 'bad.jsonl');
    const good = (await readFile(join(dir, 'run.jsonl'), 'utf8')).split('\n').slice(0, 2).join('\n');
    await writeFile(file, `${good}\n{"type":"exchange", oops\n`);
    await expect(readRecording(file)).rejects.toThrow(/bad\.jsonl:3: not JSON/);
    await writeFile(file, '{"type":"exchange","agent":"x","tool":"t","request":{},"outcome":{}}\n');
    await expect(readRecording(file)).rejects.toThrow(/:1: an exchange line before any agent line/);
  });
});
