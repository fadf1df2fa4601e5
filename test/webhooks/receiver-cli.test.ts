// End to end through the CLI against the reference seller: a sandbox agent's report.json carries its
// receiver (loopback base, the deliveries that arrived, bounded); a read-only agent's carries none; the
// webhook flags are checked before anything runs.
import { readFile, writeFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { beforeAll, describe, expect, test } from 'vitest';
import { stdioSellerCommand } from '../../sellers/launch.ts';
import { runCli, tempDirs, type CliResult } from '../run/cli.helpers.ts';
import { reportSchemaErrors } from '../run/nightly.helpers.ts';

const tmp = tempDirs();
const timeouts = { connect: 15_000, call: 10_000, agent: 90_000 };

interface JsonAgent {
  name: string;
  webhooks?: {
    base: string;
    kind: string;
    deliveries: Array<{ call: number; answered: number; headers: string[][]; body: string }>;
    text: string;
    waitedMs: number;
  };
}

let cli: CliResult;
let report: { agents: JsonAgent[] };
let config: string;

beforeAll(async () => {
  const dir = await tmp('webhooks');
  config = join(dir, 'agents.json');
  const seller = (name: string, sandbox: boolean) => ({
    name,
    transport: 'stdio',
    ...stdioSellerCommand({}),
    timeouts,
    ...(sandbox ? { sandbox } : {}),
  });
  await writeFile(config, JSON.stringify({ agents: [seller('sandbox', true), seller('read-only', false)] }));
  cli = await runCli(['run', '--config', config, '--out', dir, '--concurrency', '2', '--webhook-wait', '500', '--reporter', 'json']);
  report = JSON.parse(await readFile(join(dir, 'report.json'), 'utf8')) as { agents: JsonAgent[] };
}, 240_000);

describe('the receiver through the CLI', () => {
  test('a sandbox agent: report.json names the loopback base and lists what arrived; it validates', () => {
    expect(cli.code, cli.stderr).not.toBe(2);
    expect(reportSchemaErrors(report)).toBeNull();
    const w = report.agents.find((a) => a.name === 'sandbox')!.webhooks!;
    expect(w).toMatchObject({ kind: 'loopback', base: expect.stringMatching(/^http:\/\/127\.0\.0\.1:\d+$/) });
    // The reference seller books guaranteed products asynchronously and delivers signed webhooks (503 first).
    expect(w.deliveries.length).toBeGreaterThan(0);
    expect(w.deliveries[0]!.answered).toBe(503);
    expect(w.deliveries[0]!.headers.map((h) => h[0])).toContain('signature');
    expect(w.text).toMatch(/webhook deliver(y|ies) received at http:\/\/127\.0\.0\.1/);
    expect(report.agents.find((a) => a.name === 'read-only')!.webhooks).toBeUndefined();
  });

  test('a --webhook-url that is not https is a usage error (exit 2), nothing probed', async () => {
    const r = await runCli(['run', '--webhook-url', 'http://hooks.example.test', '--webhook-port', '9999']);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/--webhook-url: expected a public https:\/\/ base URL/);
  });

  test('a --webhook-port already taken is a usage error (exit 2) naming it', async () => {
    const taken = createServer();
    await new Promise<void>((resolve) => taken.listen(0, '127.0.0.1', resolve));
    const port = (taken.address() as { port: number }).port;
    try {
      const r = await runCli(['run', '--config', config, '--webhook-url', 'https://hooks.example.test', '--webhook-port', String(port)]);
      expect(r.code).toBe(2);
      expect(r.stderr).toContain(`--webhook-port ${port}: the webhook receiver could not listen on 127.0.0.1`);
    } finally {
      taken.close();
    }
  }, 60_000);
});
