// `run --stdio` / `run --url` (no config file) end to end against the embedded reference seller: the
// agent of the command line is judged like a config agent, its header values are secrets everywhere,
// and the command line refuses what cannot go with it.
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { REFERENCE_WEBHOOK_JWKS, SELLER_ENTRY, startHttpSeller } from '../../sellers/launch.ts';
import { readReport, runCli, tempDirs } from '../run/cli.helpers.ts';

const tmp = tempDirs();

describe('run with an agent on the command line', () => {
  const secret = 'adhoc-header-secret-51d0';
  let seller: { url: string; close(): Promise<void> };
  beforeAll(async () => {
    seller = await startHttpSeller({ token: secret }); // refuses protected calls without `Authorization: Bearer <secret>`
  }, 60_000);
  afterAll(async () => {
    await seller?.close();
  });

  test('--stdio COMMAND: one stdio agent, judged and reported like a config agent', async () => {
    const out = await tmp('adhoc-stdio');
    const r = await runCli([
      'run',
      '--stdio',
      `'${process.execPath}' '${SELLER_ENTRY}' --transport stdio`,
      '--out',
      out,
      '--reporter',
      'json,junit,summary',
    ]);
    expect(r.code, r.stdout + r.stderr).toBe(0);
    const report = await readReport(out);
    expect(report.agents.map((a) => [a.name, a.transport, a.reachable])).toEqual([['node reference-seller.js', 'stdio', true]]);
    expect(report.summary.fail).toBe(0);
    expect(report.summary.pass).toBeGreaterThan(100);
    // Not a sandbox agent unless --sandbox: the mutating tasks are not called.
    expect(report.agents[0]!.outcomes.some((o) => o.check === 'transport.call' && o.tool.startsWith('create_media_buy'))).toBe(false);
    expect(r.stdout).toMatch(/✓ conformant to AdCP/);
  });

  test('--url URL --header … --sandbox --account … --webhook-keys …: conformant; the header value never reaches a report', async () => {
    const out = await tmp('adhoc-http');
    const r = await runCli([
      'run',
      '--url',
      seller.url,
      '--header',
      `Authorization: Bearer ${secret}`,
      '--sandbox',
      '--account',
      'acc_cli_1',
      // The seller's public JWKS: its signed webhooks are verified, so the verdict can be conformant.
      '--webhook-keys',
      REFERENCE_WEBHOOK_JWKS,
      '--out',
      out,
      '--verbose',
    ]);
    expect(r.code, r.stdout + r.stderr).toBe(0);
    expect(r.stdout).toMatch(/signatures: \d+ verified/);
    const report = await readReport(out);
    const host = new URL(seller.url).host;
    expect(report.agents.map((a) => [a.name, a.transport])).toEqual([[host, 'http']]);
    expect(report.agents[0]!.outcomes.find((o) => o.check === 'webhook.signature')?.status).toBe('pass');
    expect(JSON.stringify(report.agents[0])).toContain('account: {\\"account_id\\":\\"acc_cli_1\\"} (config `account`)');
    expect(
      report.agents[0]!.outcomes.some((o) => o.tool.startsWith('create_media_buy') && o.check === 'transport.call' && o.status === 'pass'),
    ).toBe(true);
    // --verbose: the wire on stderr, for this agent.
    expect(r.stderr).toMatch(new RegExp(`^\\[${host.replace(/[.]/g, '\\.')}\\] → \\{"method":"tools/call"`, 'm'));
    for (const name of await readdir(out)) {
      const text = await readFile(join(out, name), 'utf8').catch(() => '');
      expect(text, name).not.toContain(secret);
    }
    expect(r.stdout + r.stderr).not.toContain(secret);
  });

  test.each([
    [['--stdio', 'x', '--config', 'c.json'], /--url \/ --stdio name the agent: no --config with them/],
    [['--url', 'http://127.0.0.1:1/mcp', '--agent', 'a'], /no --agent with them/],
    [['--stdio', 'x', '--shard', '1/2'], /no --shard with them/],
    [['--replay', 'r.jsonl', '--watch'], /--watch re-runs live agents: not with --replay/],
    [['--sandbox'], /--sandbox goes with --url or --stdio/],
    [['--account', 'acc_1'], /--account goes with --url or --stdio/],
    [
      ['--url', 'http://127.0.0.1:1/mcp', '--account', '{"account_id":""}'],
      /--account: \/account_id: must be a seller-assigned account id/,
    ],
    [['--url', 'http://127.0.0.1:1/mcp', '--account', '{"account_id":'], /--account: not JSON/],
    [['--url', 'http://127.0.0.1:1/mcp', '--webhook-keys', 'k.json'], /--webhook-keys goes with --sandbox/],
    [
      ['--url', 'http://127.0.0.1:1/mcp', '--sandbox', '--webhook-keys', 'missing.json'],
      /--webhook-keys: cannot read the JWKS file 'missing.json' \(ENOENT/,
    ],
    [
      ['--url', 'http://127.0.0.1:1/mcp', '--sandbox', '--webhook-keys', '{"keys":[{"kid":"k","kty":"OKP","d":"x"}]}'],
      /--webhook-keys: keys\[0\] holds private key material/,
    ],
  ])('run %j exits 2', async (args, message) => {
    const r = await runCli(['run', ...args]);
    expect(r.code, r.stdout + r.stderr).toBe(2);
    expect(r.stderr).toMatch(message);
  });
});
