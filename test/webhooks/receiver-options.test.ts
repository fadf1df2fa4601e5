// --webhook-url / --webhook-port / --webhook-wait, and the run's shared receiver they make.
import { createServer } from 'node:net';
import { describe, expect, test } from 'vitest';
import { parseRunArgs, UsageError } from '../../harness/run/options.ts';
import { sharedReceiver } from '../../harness/webhooks/agent-receiver.ts';

describe('the webhook options', () => {
  test('absent: no webhook options (each sandbox agent gets an ephemeral loopback receiver)', () => {
    expect(parseRunArgs([]).webhooks).toBeUndefined();
  });

  test('--webhook-url with --webhook-port, and --webhook-wait', () => {
    expect(
      parseRunArgs(['--webhook-url', 'https://hooks.example.test/fwd/', '--webhook-port', '8443', '--webhook-wait', '500']).webhooks,
    ).toEqual({
      publicBase: 'https://hooks.example.test/fwd',
      port: 8443,
      lateMs: 500,
    });
    expect(parseRunArgs(['--webhook-wait', '3000']).webhooks).toEqual({ lateMs: 3000 });
  });

  test.for([
    [['--webhook-url', 'http://hooks.example.test', '--webhook-port', '1'], /https:\/\//],
    [['--webhook-url', 'https://hooks.example.test/?a=1', '--webhook-port', '1'], /without query/],
    [['--webhook-url', 'https://u:p@hooks.example.test', '--webhook-port', '1'], /credentials/],
    [['--webhook-url', 'not a url', '--webhook-port', '1'], /expected a public/],
    [['--webhook-url', 'https://hooks.example.test'], /needs --webhook-port/],
    [['--webhook-port', '8443'], /needs --webhook-url/],
    [['--webhook-url', 'https://hooks.example.test', '--webhook-port', '70000'], /1-65535/],
    [['--webhook-wait', '0'], /positive integer/],
    [['--merge-reports', 'dir', '--webhook-wait', '10'], /takes no --webhook-wait/],
  ] as const)('%j is a usage error', ([argv, message]) => {
    expect(() => parseRunArgs([...argv])).toThrow(UsageError);
    expect(() => parseRunArgs([...argv])).toThrow(message);
  });
});

describe('the shared receiver (--webhook-url)', () => {
  test('listens on the given loopback port; its URLs name the public base; none without a sandbox agent', async () => {
    const port = await freePort();
    expect(await sharedReceiver({ publicBase: 'https://hooks.example.test', port }, [{ sandbox: false }])).toBeUndefined();
    expect(await sharedReceiver(undefined, [{ sandbox: true }])).toBeUndefined();
    const r = (await sharedReceiver({ publicBase: 'https://hooks.example.test', port }, [{ sandbox: true }]))!;
    try {
      const a = r.register();
      const b = r.register();
      expect(a.urlFor(2, 'op')).toBe(`https://hooks.example.test/${a.token}/2`);
      expect(b.token).not.toBe(a.token);
      const res = await fetch(`http://127.0.0.1:${port}/${b.token}/2`, { method: 'POST', body: '{}' }).catch(() => undefined);
      expect(res?.status).toBe(404); // b was never handed call 2: recorded on b, not a
      expect(b.capture().deliveries).toHaveLength(1);
      expect(a.capture().deliveries).toHaveLength(0);
    } finally {
      await r.close();
    }
  });

  test('a port already taken is a usage error naming it', async () => {
    const taken = createServer();
    await new Promise<void>((resolve) => taken.listen(0, '127.0.0.1', resolve));
    const port = (taken.address() as { port: number }).port;
    try {
      await expect(sharedReceiver({ publicBase: 'https://hooks.example.test', port }, [{ sandbox: true }])).rejects.toThrow(
        new RegExp(`--webhook-port ${port}: the webhook receiver could not listen`),
      );
    } finally {
      taken.close();
    }
  });
});

async function freePort(): Promise<number> {
  const s = createServer();
  await new Promise<void>((resolve) => s.listen(0, '127.0.0.1', resolve));
  const port = (s.address() as { port: number }).port;
  await new Promise((resolve) => s.close(resolve));
  return port;
}
