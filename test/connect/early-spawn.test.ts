// A stdio server spawned early (connect/stdio-spawn.ts, what `probe` does) and adopted by the transport
// later behaves as one the transport spawned itself: the same inherited environment, nothing it wrote
// before the adoption lost, its exit seen, its process group reaped.
import { getDefaultEnvironment } from '@modelcontextprotocol/sdk/client/stdio.js';
import { expect, test } from 'vitest';
import { adoptEarly, inheritedEnvironment, spawnEarly, type StdioSpawnSpec } from '../../harness/connect/stdio-spawn.ts';
import { HarnessStdioTransport } from '../../harness/connect/stdio-transport.ts';

function transport(spec: StdioSpawnSpec, raw: unknown[]): HarnessStdioTransport {
  return new HarnessStdioTransport({
    ...spec,
    args: [...spec.args],
    maxBytes: 1 << 20,
    onRaw: (value) => (raw.push(value), true),
    onOversize: () => {},
  });
}

test('the inherited environment is the MCP SDK default one (no other variable reaches a seller)', () => {
  expect(inheritedEnvironment()).toEqual(getDefaultEnvironment());
});

test('output written and an exit that happened before the adoption are all handed over', async () => {
  const spec: StdioSpawnSpec = {
    command: process.execPath,
    args: ['-e', 'process.stdout.write(\'{"jsonrpc":"2.0","method":"early"}\\nnot json\\n\'); console.error("boom"); process.exit(7)'],
    env: {},
  };
  spawnEarly(spec);
  await new Promise((r) => setTimeout(r, 600)); // long gone, its output unread
  const raw: unknown[] = [];
  const t = transport(spec, raw);
  await t.start();
  expect(t.spawned).toBe(true);
  await t.waitExit(2000);
  await new Promise((r) => setTimeout(r, 300));
  expect(t.exit).toEqual({ code: 7, signal: null });
  expect(t.stderr).toContain('boom');
  expect(raw).toEqual([{ jsonrpc: '2.0', method: 'early' }]);
  expect(t.stdoutJunk.join('\n')).toContain('not json');
  await t.close();
});

test('a live server adopted after it started talks normally, and close() reaps it', async () => {
  const spec: StdioSpawnSpec = {
    command: process.execPath,
    args: ['-e', 'process.stdin.on("data", (d) => process.stdout.write(d))'], // echoes each line back
    env: {},
  };
  spawnEarly(spec);
  await new Promise((r) => setTimeout(r, 300));
  const raw: unknown[] = [];
  const t = transport(spec, raw);
  await t.start();
  await t.send({ jsonrpc: '2.0', id: 1, method: 'ping' });
  for (let i = 0; i < 100 && raw.length === 0; i++) await new Promise((r) => setTimeout(r, 20));
  expect(raw).toEqual([{ jsonrpc: '2.0', id: 1, method: 'ping' }]);
  const pid = t.pid!;
  await t.close();
  expect(() => process.kill(pid, 0)).toThrow();
  expect(adoptEarly(spec)).toBeUndefined(); // handed over once
});

test('a command that cannot start is reported by the adopting transport as a spawn error', async () => {
  const spec: StdioSpawnSpec = { command: '/nonexistent/adcp-seller', args: [], env: {} };
  spawnEarly(spec);
  await new Promise((r) => setTimeout(r, 100));
  const t = transport(spec, []);
  await expect(t.start()).rejects.toThrow(/the command \/nonexistent\/adcp-seller was not found/);
  expect(t.spawned).toBe(false);
});

test('waitExit resolves once the exit is recorded, not at the exit event: a child holding the pipes delays it', async () => {
  // The server exits at once; a process it started keeps stdout and stderr open, so 'close' does not come
  // and the end is recorded EXIT_CLOSE_WAIT_MS after the exit. On a loaded machine the pipes' ends can lag
  // the exit event the same way: waiting for the event alone left `exit` unset, and a crash at start-up was
  // told as the EPIPE of the harness's own write.
  const raw: unknown[] = [];
  const t = transport(
    {
      command: process.execPath,
      args: [
        '-e',
        "require('node:child_process').spawn(process.execPath, ['-e', 'setTimeout(() => {}, 20000)'], { stdio: ['ignore', 'inherit', 'inherit'] }); process.exit(3)",
      ],
      env: {},
    },
    raw,
  );
  await t.start();
  await t.waitExit(5000);
  expect(t.exit).toEqual({ code: 3, signal: null });
  await t.close();
});
