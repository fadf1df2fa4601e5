// The wrapper run and probe share: exit 2 for what a user fixes (one line naming the command), --help on
// stdout, SIGINT/SIGTERM as an abort of the running command, and its signal listeners gone afterwards.
import { afterEach, describe, expect, test, vi } from 'vitest';
import { runCommand, type Command } from '../../harness/commands/command.ts';
import { ConfigError } from '../../harness/config/errors.ts';
import { UsageError } from '../../harness/run/usage-error.ts';

function capture(stream: 'stdout' | 'stderr'): () => string {
  const chunks: string[] = [];
  vi.spyOn(process[stream], 'write').mockImplementation((chunk: string | Uint8Array) => {
    chunks.push(String(chunk));
    return true;
  });
  return () => chunks.join('');
}

const command = (over: Partial<Command<{ n: number }>>): Command<{ n: number }> => ({
  name: 'demo',
  usage: 'usage: adcp-conformance demo',
  parse: () => ({ n: 1 }),
  run: async () => 0,
  ...over,
});

afterEach(() => vi.restoreAllMocks());

describe('runCommand', () => {
  test('a bad command line is exit 2 with one line naming the command, and nothing runs', async () => {
    const err = capture('stderr');
    const run = vi.fn(async () => 0);
    const code = await runCommand(
      command({
        parse: () => {
          throw new UsageError('unknown option --nope');
        },
        run,
      }),
      [],
    );
    expect(code).toBe(2);
    expect(err()).toContain('unknown option --nope');
    expect(err()).toContain('demo');
    expect(run).not.toHaveBeenCalled();
  });

  test('--help prints the usage on stdout and exits 0', async () => {
    const out = capture('stdout');
    expect(await runCommand(command({ parse: () => 'help' }), ['--help'])).toBe(0);
    expect(out()).toBe('usage: adcp-conformance demo\n');
  });

  test('a config error while running is exit 2 with the command named', async () => {
    const err = capture('stderr');
    const code = await runCommand(
      command({
        run: async () => {
          throw new ConfigError('config.yaml', '/agents/0/url', 'expected a URL');
        },
      }),
      [],
    );
    expect(code).toBe(2);
    expect(err()).toBe('adcp-conformance demo: config.yaml: /agents/0/url: expected a URL\n');
  });

  test('any other error propagates (a bug is not a usage error)', async () => {
    await expect(
      runCommand(
        command({
          run: async () => {
            throw new TypeError('boom');
          },
        }),
        [],
      ),
    ).rejects.toThrow('boom');
  });

  test.for(['SIGINT', 'SIGTERM'] as const)('%s aborts the running command, and the listeners are removed after', async (sig) => {
    const before = process.listenerCount(sig);
    let seen: unknown;
    const code = await runCommand(
      command({
        run: async (_opts, signal) => {
          expect(process.listenerCount(sig)).toBe(before + 1);
          // Call our own listener (emitting the signal would reach the test runner's too).
          const ours = process.listeners(sig).at(-1) as () => void;
          ours();
          seen = signal.aborted ? (signal.reason as Error).message : 'not aborted';
          return 3;
        },
      }),
      [],
    );
    expect(code).toBe(3);
    expect(seen).toBe('interrupted');
    expect(process.listenerCount(sig)).toBe(before);
  });
});
