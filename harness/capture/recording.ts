// Recordings: captures as JSON Lines, so a run can be replayed offline to the same check outcomes.
// Per agent: one `{"type":"agent", …capture without exchanges}` line, then one
// `{"type":"exchange", …exchange}` line per call, in call order. Secrets are redacted on the way out.
import { createReadStream } from 'node:fs';
import { mkdir, open } from 'node:fs/promises';
import { dirname } from 'node:path';
import { createInterface } from 'node:readline';
import type { AgentCapture, Exchange } from '../record/exchange.ts';
import { redactDeep } from '../config/redact.ts';
import { toJsonText } from './json-text.ts';

export class RecordingError extends Error {
  constructor(
    readonly file: string,
    readonly line: number,
    message: string,
  ) {
    super(`${file}:${line}: ${message}`);
    this.name = 'RecordingError';
  }
}

export async function writeRecording(file: string, captures: AgentCapture[], secrets: readonly string[] = []): Promise<void> {
  await mkdir(dirname(file), { recursive: true });
  const handle = await open(file, 'w');
  try {
    for (const capture of captures) {
      const { exchanges, ...agent } = capture;
      await handle.write(line({ type: 'agent', ...agent }, secrets));
      for (const exchange of exchanges) await handle.write(line({ type: 'exchange', ...exchange }, secrets));
    }
  } finally {
    await handle.close();
  }
}

function line(record: Record<string, unknown>, secrets: readonly string[]): string {
  // toJsonText, not JSON.stringify: `retry_after: 1e400` replays as Infinity (not null), and an answer
  // nested 200k levels deep is written instead of failing the recording.
  return toJsonText(secrets.length ? redactDeep(record, secrets) : record) + '\n';
}

export async function readRecording(file: string): Promise<AgentCapture[]> {
  const captures: AgentCapture[] = [];
  const lines = createInterface({ input: createReadStream(file, 'utf8'), crlfDelay: Infinity });
  let n = 0;
  for await (const text of lines) {
    n++;
    if (text.trim() === '') continue;
    let record: unknown;
    try {
      record = JSON.parse(text);
    } catch (err) {
      throw new RecordingError(file, n, `not JSON (${(err as Error).message})`);
    }
    if (!record || typeof record !== 'object' || Array.isArray(record)) throw new RecordingError(file, n, 'expected a JSON object');
    const { type, ...rest } = record as Record<string, unknown>;
    if (type === 'agent') {
      captures.push(agentRecord(rest, file, n));
    } else if (type === 'exchange') {
      const current = captures[captures.length - 1];
      if (!current) throw new RecordingError(file, n, 'an exchange line before any agent line');
      if (rest['agent'] !== current.agent.name) {
        throw new RecordingError(file, n, `exchange of agent ${JSON.stringify(rest['agent'])} follows agent '${current.agent.name}'`);
      }
      if (typeof rest['tool'] !== 'string' || !rest['outcome'] || typeof rest['outcome'] !== 'object' || !rest['request']) {
        throw new RecordingError(file, n, 'an exchange needs tool, request and outcome');
      }
      current.exchanges.push(rest as unknown as Exchange);
    } else {
      throw new RecordingError(file, n, `unknown record type ${JSON.stringify(type)} (expected "agent" or "exchange")`);
    }
  }
  return captures;
}

function agentRecord(rest: Record<string, unknown>, file: string, n: number): AgentCapture {
  const agent = rest['agent'] as Record<string, unknown> | undefined;
  if (!agent || typeof agent['name'] !== 'string' || (agent['transport'] !== 'http' && agent['transport'] !== 'stdio')) {
    throw new RecordingError(file, n, 'an agent line needs agent.name and agent.transport');
  }
  const init = rest['initialize'] as Record<string, unknown> | undefined;
  if (!init || typeof init['ok'] !== 'boolean') throw new RecordingError(file, n, 'an agent line needs initialize.ok');
  return { ...(rest as unknown as Omit<AgentCapture, 'exchanges'>), exchanges: [] };
}
