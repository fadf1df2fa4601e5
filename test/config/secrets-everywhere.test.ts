// Every value that came from `${VAR}` or `{fromFile}` is a secret of the agent that uses it, wherever in
// the config it was spliced in: url, headers, command, args, env, cwd, probe arguments (the agent's own
// or inherited from defaults). Another agent's variables are not its secrets.
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { loadConfig } from '../../harness/config/index.ts';

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'adcp-cfg-secrets-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

const ENV = {
  ARG_TOKEN: 'arg-token-0001',
  PROBE_TOKEN: 'probe-token-0002',
  DEFAULT_PROBE_TOKEN: 'default-probe-0003',
  CWD_PART: 'cwd-part-0004',
  BIN_DIR: 'bin-dir-0005',
  OTHER_TOKEN: 'other-agent-0006',
  HTTP_PROBE: 'http-probe-0007',
  URL_USER: 'url-user-0008',
};

test('a ${VAR} in args, probe arguments (own and inherited), cwd and command is a secret of its agent only', async () => {
  const file = join(dir, 'config.yaml');
  await writeFile(
    file,
    [
      'defaults:',
      '  probes: [{ tool: get_products, arguments: { context: { t: "x-${DEFAULT_PROBE_TOKEN}" } } }]',
      'agents:',
      '  - name: local',
      '    transport: stdio',
      '    command: ./${BIN_DIR}/seller',
      '    args: [--token, "--key=${ARG_TOKEN}"]',
      '    cwd: sub/${CWD_PART}',
      '  - name: own-probes',
      '    transport: stdio',
      '    command: node',
      '    args: ["${OTHER_TOKEN}"]',
      '    probes: [{ tool: get_products, arguments: { deep: [{ a: "${PROBE_TOKEN}" }] } }]',
      '  - name: remote',
      '    transport: http',
      '    url: https://${URL_USER}@seller.example/mcp',
      '    probes: [{ tool: get_products, arguments: { key: "${HTTP_PROBE}" } }]',
      '',
    ].join('\n'),
  );
  const [local, ownProbes, remote] = (await loadConfig(file, ENV)).agents;
  expect(local).toMatchObject({
    command: join(dir, 'bin-dir-0005/seller'),
    args: ['--token', '--key=arg-token-0001'],
    cwd: join(dir, 'sub/cwd-part-0004'),
  });
  expect(local!.probes?.[0]?.arguments).toEqual({ context: { t: 'x-default-probe-0003' } });
  expect(new Set(local!.secrets)).toEqual(new Set([ENV.BIN_DIR, ENV.ARG_TOKEN, ENV.CWD_PART, ENV.DEFAULT_PROBE_TOKEN]));
  // Its own probes replace the defaults' (the defaults' variable stays a secret: harmless, and simpler than
  // tracking which inherited setting won).
  expect(ownProbes!.probes?.[0]?.arguments).toEqual({ deep: [{ a: 'probe-token-0002' }] });
  expect(ownProbes!.secrets).toEqual(expect.arrayContaining([ENV.OTHER_TOKEN, ENV.PROBE_TOKEN]));
  expect(ownProbes!.secrets).not.toContain(ENV.ARG_TOKEN);
  expect(remote!.secrets).toEqual(expect.arrayContaining([ENV.URL_USER, ENV.HTTP_PROBE, ENV.DEFAULT_PROBE_TOKEN]));
  expect(remote!.secrets).not.toContain(ENV.OTHER_TOKEN);
  // Each secret once.
  for (const a of [local!, ownProbes!, remote!]) expect(a.secrets.length).toBe(new Set(a.secrets).size);
});

test('{fromFile} contents and literal header / env values stay secrets; a literal arg is not one', async () => {
  await writeFile(join(dir, 'key.txt'), 'file-key-0009\n');
  const file = join(dir, 'literal.json');
  await writeFile(
    file,
    JSON.stringify({
      agents: [
        {
          name: 's',
          transport: 'stdio',
          command: 'node',
          args: ['plain-arg-value'],
          env: { A: { fromFile: 'key.txt' }, B: 'literal-env-0010' },
        },
        {
          name: 'h',
          transport: 'http',
          url: 'https://seller.example/mcp',
          headers: { 'X-Key': { fromFile: 'key.txt' }, Authorization: 'Bearer lit-0011' },
        },
      ],
    }),
  );
  const [s, h] = (await loadConfig(file, {})).agents;
  expect(new Set(s!.secrets)).toEqual(new Set(['file-key-0009', 'literal-env-0010']));
  expect(new Set(h!.secrets)).toEqual(new Set(['file-key-0009', 'Bearer lit-0011', 'lit-0011']));
});
