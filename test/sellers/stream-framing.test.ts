// The 50 MiB fault streams its answer piece by piece over stdio. The harness cuts that call and sends
// the next one while the pieces still flow: the seller must still write one whole JSON-RPC message per
// line, or its tail lands on stdout as a junk line and trips a check the fault does not declare.
import { spawn } from 'node:child_process';
import { expect, test } from 'vitest';
import { stdioSellerCommand } from '../../sellers/launch.ts';
import { probeArguments } from './client.ts';
import { INITIALIZE, INITIALIZED, toolCall } from './raw.ts';

test('a call answered while a 50 MiB answer streams waits for that line to end', async () => {
  const { command, args } = stdioSellerCommand({ faults: ['oversize-structured-50mib'] });
  const child = spawn(command, args, { stdio: ['pipe', 'pipe', 'ignore'] });
  const send = (message: unknown): boolean => child.stdin.write(`${JSON.stringify(message)}\n`);
  // Lines are checked by their first and last bytes only: 50 MiB is never held in memory.
  const lines: Array<{ head: string; last: number; bytes: number }> = [];
  let current = { head: '', last: -1, bytes: 0 };
  const answered = new Promise<void>((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`the seller exited (${code}) before answering both calls`)));
    child.stdout.on('data', (chunk: Buffer) => {
      let start = 0;
      for (let nl = chunk.indexOf(10); nl !== -1; nl = chunk.indexOf(10, start)) {
        take(chunk.subarray(start, nl));
        lines.push(current);
        current = { head: '', last: -1, bytes: 0 };
        start = nl + 1;
        if (lines.length === 3) resolve(); // the initialize answer, then two answers (or two broken lines)
      }
      take(chunk.subarray(start));
    });
  });
  const take = (part: Buffer): void => {
    if (part.length === 0) return;
    if (current.head.length < 64) current.head += part.subarray(0, 64 - current.head.length).toString('latin1');
    current.last = part[part.length - 1]!;
    current.bytes += part.length;
  };
  try {
    send(INITIALIZE);
    send(INITIALIZED);
    send(toolCall(1, 'get_products', probeArguments('get_products', 'big')));
    // Sent once the big answer is past the harness's cap and still flowing, as the harness does after its cut.
    while (current.bytes < 1_200_000) await new Promise<void>((resolve) => child.stdout.once('data', () => resolve()));
    send(toolCall(2, 'list_creative_formats', probeArguments('list_creative_formats', 'next')));
    await answered;
    for (const line of lines) {
      expect(line.head, `a line of ${line.bytes} bytes`).toMatch(/^\{"/);
      expect(String.fromCharCode(line.last)).toBe('}');
    }
    expect(lines.find((l) => l.head.includes('"id":1,'))!.bytes).toBeGreaterThan(50 * 1_048_576);
  } finally {
    child.kill('SIGKILL');
  }
}, 60_000);
