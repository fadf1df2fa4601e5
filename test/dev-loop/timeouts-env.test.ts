// Timeouts for people and the stdio environment, through the CLI as a user runs it: `--timeout` bounds a
// hanging call of a command-line agent, a waiting line on stderr says which agent and call is slow, the
// timed-out call is not asked again by re-verification; `--env` reaches a stdio seller (and nothing of
// the harness's own environment does), its values redacted like a config's env values.
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, test } from 'vitest';
import { SELLER_ENTRY } from '../../sellers/launch.ts';
import { readReport, runCli, tempDirs } from '../run/cli.helpers.ts';

const tmp = tempDirs();
const hangingSeller = `'${process.execPath}' '${SELLER_ENTRY}' --transport stdio --fault hang-on-call`;

describe('--timeout and the waiting line', () => {
  test('run --stdio --timeout 6: the hanging call times out at 6 s, a waiting line names it, it is not re-verified', async () => {
    const out = await tmp('timeout-run');
    const r = await runCli(['run', '--stdio', hangingSeller, '--timeout', '6', '--out', out, '--reporter', 'json']);
    expect(r.code, r.stdout + r.stderr).toBe(1);
    // CI=1 (runCli): plain progress lines, the agent first, then what it waits on; once at 5 s of a 6 s budget.
    const waiting = r.stderr.split('\n').filter((l) => /waiting on tools\/call get_signals/.test(l));
    expect(waiting, r.stderr).toEqual([
      expect.stringMatching(/^node reference-seller\.js\s+waiting on tools\/call get_signals \(5 s of 6 s\)$/),
    ]);
    // The timed-out call got no answer: nothing is asked again (the fault's only failure is that call).
    expect(r.stderr).not.toMatch(/re-verif/);
    const report = await readReport(out);
    const failed = report.agents[0]!.outcomes.filter((o) => o.status === 'fail');
    expect(failed.map((o) => [o.check, o.tool])).toEqual([['transport.call', 'get_signals']]);
    expect(failed[0]!.message).toMatch(/no answer within 6000 ms/);
  }, 120_000);

  // The first waiting line comes at 5 s, or at half a timeout of 5 s or less (whole seconds, at least 1 s).
  test.each([
    [6, 5],
    [4, 2],
  ])(
    'probe --stdio --timeout %i: one waiting line naming the agent and the call, at %i s; exit 1 on the timeout',
    async (timeout, at) => {
      const r = await runCli(['probe', 'get_signals', '--stdio', hangingSeller, '--timeout', String(timeout)]);
      expect(r.code, r.stdout + r.stderr).toBe(1);
      expect(r.stderr).toContain(`waiting on node reference-seller.js: tools/call get_signals (${at} s of ${timeout} s)\n`);
      expect(r.stderr.match(/waiting on/g)).toHaveLength(1);
      expect(r.stdout).toMatch(new RegExp(`no answer within ${timeout}000 ms`));
    },
    120_000,
  );

  test('probe --stdio --agent-timeout 4: the whole session is cut at 4 s, before the 30 s call timeout', async () => {
    const r = await runCli(['probe', 'get_signals', '--stdio', hangingSeller, '--agent-timeout', '4']);
    expect(r.code, r.stdout + r.stderr).toBe(1);
    expect(r.stdout).toMatch(/agent timeout: the agent did not finish within 4000 ms/);
  }, 120_000);

  test('run --stdio --connect-timeout 6: a seller that never answers initialize is waited on, then unreachable (exit 3)', async () => {
    const out = await tmp('connect-timeout');
    const silent = `'${process.execPath}' -e 'setInterval(() => {}, 1000)'`;
    const r = await runCli(['run', '--stdio', silent, '--connect-timeout', '6', '--out', out, '--reporter', 'json']);
    expect(r.code, r.stdout + r.stderr).toBe(3);
    expect(r.stderr).toMatch(/^node\s+waiting on initialize \(5 s of 6 s\)$/m);
    const report = await readReport(out);
    expect(report.agents[0]!.reachable).toBe(false);
    expect(JSON.stringify(report.agents[0])).toMatch(/no answer to initialize within 6000 ms/);
  }, 120_000);

  test('bad timeouts, or timeouts without a command-line agent, are usage errors (exit 2)', async () => {
    const cases: Array<[string[], RegExp]> = [
      [['run', '--stdio', 'node x.js', '--timeout', '0'], /--timeout: expected a positive number of seconds/],
      [['run', '--url', 'http://127.0.0.1:1/mcp', '--connect-timeout', 'soon'], /--connect-timeout: expected a positive number/],
      [['probe', 'get_products', '--stdio', 'node x.js', '--agent-timeout', '-5'], /--agent-timeout/],
      [['run', '--timeout', '5'], /go with --url or --stdio/],
      [['probe', 'get_products', '--env', 'A=b'], /--env goes with --stdio/],
      [['run', '--url', 'http://127.0.0.1:1/mcp', '--env', 'A=b'], /--env goes with --stdio/],
    ];
    for (const [args, message] of cases) {
      const r = await runCli(args);
      expect(r.code, `${args.join(' ')}: ${r.stderr}`).toBe(2);
      expect(r.stderr).toMatch(message);
    }
  }, 60_000);
});

describe('--env: the stdio seller’s environment', () => {
  test('given variables arrive, KEY alone passes this shell’s value, the harness’s own environment does not; values are redacted', async () => {
    const dir = await tmp('env');
    const dump = join(dir, 'env.json');
    const seller = join(dir, 'env-seller.mjs');
    // A seller that writes down the environment it got and logs its token, then serves as the reference seller.
    await writeFile(
      seller,
      [
        "import { writeFileSync } from 'node:fs';",
        'writeFileSync(process.env.ENV_DUMP, JSON.stringify(process.env));',
        'process.stderr.write(`starting with token ${process.env.SELLER_TOKEN}\\n`);',
        `await import(${JSON.stringify(pathToFileURL(SELLER_ENTRY).href)});`,
      ].join('\n'),
    );
    const token = 'seller-token-5c1e9a';
    const recording = join(dir, 'session.jsonl');
    const r = await runCli(
      [
        'run',
        '--stdio',
        `'${process.execPath}' '${seller}' --transport stdio`,
        '--env',
        `ENV_DUMP=${dump}`,
        '--env',
        `SELLER_TOKEN=${token}`,
        '--env',
        'PASSED_ON',
        '--out',
        join(dir, 'out'),
        '--reporter',
        'json',
        '--record',
        recording,
      ],
      { NODE_ENV: 'production', HARNESS_SECRET: 'never-for-the-seller', PASSED_ON: 'asked-for-by-name' },
    );
    expect(r.code, r.stdout + r.stderr).toBe(0);
    const env = JSON.parse(await readFile(dump, 'utf8')) as Record<string, string>;
    expect(env).toMatchObject({ ENV_DUMP: dump, SELLER_TOKEN: token, PASSED_ON: 'asked-for-by-name' });
    // Only the MCP SDK's short list is inherited: an exported NODE_ENV, CI or a secret of ours never arrives.
    expect(env.NODE_ENV).toBeUndefined();
    expect(env.HARNESS_SECRET).toBeUndefined();
    expect(env.CI).toBeUndefined();
    expect(env.PATH).toBe(process.env.PATH);
    // The seller's log line carried the token: redacted in the recording, as in every other output.
    const recorded = await readFile(recording, 'utf8');
    expect(recorded).toContain('starting with token [REDACTED]');
    for (const text of [recorded, r.stdout, r.stderr, await readFile(join(dir, 'out', 'report.json'), 'utf8')])
      expect(text).not.toContain(token);
  }, 120_000);
});
