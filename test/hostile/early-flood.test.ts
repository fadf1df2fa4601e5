// A stdio seller that floods stdout from its first instant, while `probe` is still loading (probe spawns
// it early: connect/stdio-spawn.ts). What is kept before the transport adopts it is bounded; after that
// the byte cap cuts the answer as always: a readable failure, the seller killed, bounded memory.
import { expect, test } from 'vitest';
import { adoptEarly, EARLY_OUTPUT_BYTES, spawnEarly } from '../../harness/connect/stdio-spawn.ts';
import { runCli } from '../run/cli.helpers.ts';

const FLOOD = `'${process.execPath}' -e 'const b = "x".repeat(1 << 16); (function w() { while (process.stdout.write(b)); process.stdout.once("drain", w); })()'`;

test('probe of a seller flooding stdout before the session: cut at the byte cap, exit 3, memory bounded', async () => {
  const r = await runCli(['probe', 'get_products', '--stdio', FLOOD]);
  expect(r.code, r.stdout + r.stderr).toBe(3);
  expect(r.stdout).toMatch(
    /unreachable: initialize failed: the server wrote more than the byte cap in one message: answer passed the 1114112-byte cap/,
  );
  expect(r.stderr).not.toMatch(/internal error|heap out of memory/);
}, 60_000);

test('before its adoption an early seller flooding stdout is held at the bound (its pipe paused), then killed', async () => {
  const spec = {
    command: process.execPath,
    args: ['-e', 'const b = "x".repeat(1 << 16); (function w() { while (process.stdout.write(b)); process.stdout.once("drain", w); })()'],
    env: {},
  };
  spawnEarly(spec);
  const early = adoptEarly(spec)!;
  await early.spawned;
  await new Promise((r) => setTimeout(r, 1500)); // unbounded, this would be hundreds of MB by now
  expect(early.kept()).toBeGreaterThan(EARLY_OUTPUT_BYTES);
  expect(early.kept()).toBeLessThan(EARLY_OUTPUT_BYTES + 1024 * 1024);
  process.kill(-early.child.pid!, 'SIGKILL');
});
