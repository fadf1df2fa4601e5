// A token from the config never leaves the harness: a hostile seller echoes the Authorization header
// back in its error result (structuredContent and text) and in a 403 body; the token must appear in no
// report, no recording and nothing the CLI prints — while the seller really received it.
import { mkdtemp, readFile, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { startHostileHttp, type HostileHttpServer } from '../fixtures/servers/hostile-http.mjs';
import { runCli, type CliResult } from './cli.helpers.ts';

const TOKEN = 'tok_5ecret-value-that-must-never-leak';

let dir: string;
let seller: HostileHttpServer;
let run: CliResult;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'adcp-secrets-'));
  seller = await startHostileHttp({ mode: 'json' });
  const config = join(dir, 'config.yaml');
  await writeFile(
    config,
    [
      'agents:',
      '  - name: echoes-auth',
      '    transport: http',
      `    url: ${seller.url}`,
      '    headers:',
      '      Authorization: Bearer ${SELLER_TOKEN}',
      '    probes:',
      '      - { tool: echo_auth, arguments: {} }',
      '      - { tool: echo_auth_http, arguments: {} }',
      '',
    ].join('\n'),
  );
  run = await runCli(['run', '--config', config, '--out', join(dir, 'out'), '--record', join(dir, 'session.jsonl')], {
    SELLER_TOKEN: TOKEN,
  });
}, 120_000);

afterAll(async () => {
  await seller.close();
  await rm(dir, { recursive: true, force: true });
});

test('the seller received the token (so the test can fail)', () => {
  expect(seller.seen.authorization).toContain(`Bearer ${TOKEN}`);
  expect([0, 1]).toContain(run.code);
});

test('no report, recording or CLI output contains the token', async () => {
  const files = [join(dir, 'session.jsonl'), ...(await readdir(join(dir, 'out'))).map((f) => join(dir, 'out', f))];
  expect(files.length).toBeGreaterThanOrEqual(4);
  const texts: Record<string, string> = { stdout: run.stdout, stderr: run.stderr };
  for (const file of files) texts[file] = await readFile(file, 'utf8');
  const leaks = Object.entries(texts)
    .filter(([, text]) => text.includes(TOKEN))
    .map(([where]) => where);
  expect(leaks).toEqual([]);
  // The echoed error was recorded, with the token replaced.
  expect(texts[join(dir, 'session.jsonl')]).toContain('AUTH_INVALID');
});
