// A `${VAR}` from the config is a secret wherever it is used, not only in headers and env: here a token
// in a stdio seller's args and in its probes' arguments, a secret working directory, and a command line
// that cannot start (its error message quotes the command). The seller repeats all of it back on every
// channel it has (stderr, junk stdout, answers, error messages); none of it may reach a report, the
// recording, or what the CLI prints — while the seller provably received every value.
import { existsSync } from 'node:fs';
import { mkdir, readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { beforeAll, expect, test } from 'vitest';
import { runCli, tempDirs, type CliResult } from '../run/cli.helpers.ts';

const ECHO = fileURLToPath(new URL('./servers/echo-config.mjs', import.meta.url));
const TOKEN = 'tok_args-and-probes-5ecret-0001';
const CWD_SECRET = 'cwd-5ecret-0002';
const tmp = tempDirs();

let dir: string;
let seenFile: string;
let run: CliResult;

beforeAll(async () => {
  dir = await tmp('config-secrets');
  seenFile = join(dir, 'seen.json');
  const cwd = join(dir, `work-${CWD_SECRET}`);
  await mkdir(cwd);
  const config = join(dir, 'agents.yaml');
  await writeFile(
    config,
    [
      'agents:',
      '  - name: echo-config',
      '    transport: stdio',
      `    command: ${JSON.stringify(process.execPath)}`,
      `    args: [${JSON.stringify(ECHO)}, ${JSON.stringify(`--seen=${seenFile}`)}, "--api-token=\${ARG_TOKEN}"]`,
      '    cwd: ${SELLER_CWD}',
      '    timeouts: { connect: 10000, call: 10000, agent: 30000 }',
      '    probes:',
      '      - { tool: get_adcp_capabilities, arguments: { credentials: { token: "${ARG_TOKEN}" } } }',
      '      - { tool: get_products, arguments: { brief: "shoes for ${ARG_TOKEN}", context: { correlation: "${ARG_TOKEN}" } }, intent: invalid }',
      '  - name: cannot-start',
      '    transport: stdio',
      '    command: /nonexistent/${ARG_TOKEN}/seller',
      '    args: ["--token", "${ARG_TOKEN}"]',
      '    timeouts: { connect: 5000, call: 5000, agent: 10000 }',
      '',
    ].join('\n'),
  );
  run = await runCli(['run', '--config', config, '--out', join(dir, 'out'), '--record', join(dir, 'session.jsonl')], {
    ARG_TOKEN: TOKEN,
    SELLER_CWD: cwd,
  });
}, 120_000);

test('the seller received the token in its args and both probes, and ran in the secret directory (so the test can fail)', async () => {
  expect(run.stderr).not.toContain('internal error');
  expect([1, 3], run.stdout + run.stderr).toContain(run.code);
  const seen = JSON.parse(await readFile(seenFile, 'utf8')) as { argv: string[]; cwd: string; calls: unknown[] };
  expect(seen.argv).toContain(`--api-token=${TOKEN}`);
  expect(seen.cwd).toContain(CWD_SECRET);
  expect(JSON.stringify(seen.calls)).toContain(`"token":"${TOKEN}"`);
  expect(JSON.stringify(seen.calls)).toContain(`shoes for ${TOKEN}`);
});

test('no report, recording or CLI output contains the token or the working directory; what was echoed is there, redacted', async () => {
  const out = join(dir, 'out');
  const files = [
    join(dir, 'session.jsonl'),
    ...(await readdir(out, { recursive: true })).map((f) => join(out, f)).filter((f) => !f.endsWith('/blob')),
  ];
  for (const f of ['junit.xml', 'report.json', 'summary.md']) expect(existsSync(join(out, f)), f).toBe(true);
  const texts: Record<string, string> = { stdout: run.stdout, stderr: run.stderr };
  for (const file of files) texts[file] = await readFile(file, 'utf8');
  const leaks = Object.entries(texts)
    .filter(([, text]) => text.includes(TOKEN) || text.includes(CWD_SECRET))
    .map(([where]) => where);
  expect(leaks).toEqual([]);
  // The echoes were recorded (with the values replaced), and the command that could not start is reported.
  const recording = texts[join(dir, 'session.jsonl')]!;
  expect(recording).toContain('--api-token=[REDACTED]');
  expect(recording).toContain('"correlation":"[REDACTED]"');
  const report = texts[join(out, 'report.json')]!;
  expect(report).toContain('[REDACTED]');
  expect(report).toContain('cannot-start');
});
