// loadConfig: YAML and JSON, ${VAR} and {fromFile}, defaults, relative paths, secrets, and one-line
// ConfigErrors naming the file and the JSON pointer.
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { ConfigError, DEFAULT_MAX_BYTES, loadConfig } from '../../harness/config/index.ts';

const CONFIG_DIR = fileURLToPath(new URL('../../config/', import.meta.url));
let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'adcp-cfg-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

async function write(name: string, text: string): Promise<string> {
  const file = join(dir, name);
  await writeFile(file, text);
  return file;
}

async function configError(file: string, env: NodeJS.ProcessEnv = {}): Promise<ConfigError> {
  try {
    await loadConfig(file, env);
  } catch (err) {
    if (err instanceof ConfigError) return err;
    throw err;
  }
  throw new Error(`${file} loaded without error`);
}

describe('loadConfig: valid configs', () => {
  test('the shipped examples load (YAML and JSON)', async () => {
    const env = { ACME_TOKEN: 'acme-token-1', SELLER_API_KEY: 'seller-key-1' };
    const yaml = await loadConfig(join(CONFIG_DIR, 'example.yaml'), env);
    const json = await loadConfig(join(CONFIG_DIR, 'example.json'), env);
    expect(yaml.agents.map((a) => a.name)).toEqual(['acme-dev', 'local']);
    expect(json.agents.map((a) => a.name)).toEqual(['acme-dev', 'local']);
    expect(yaml.agents[0]).toMatchObject({
      transport: 'http',
      headers: { Authorization: 'Bearer acme-token-1' },
      sandbox: true,
      protocolVersion: '2025-11-25',
    });
    expect(yaml.agents[1]).toMatchObject({ transport: 'stdio', timeouts: { connectMs: 10_000, callMs: 10_000, agentMs: 180_000 } });
  });

  test('defaults merge under each agent; ${VAR} and {fromFile} resolve; every header and env value is a secret', async () => {
    await writeFile(join(dir, 'key.txt'), '  file-secret-42\n');
    const file = await write(
      'ok.yaml',
      [
        'defaults:',
        '  timeouts: { call: 5000 }',
        '  expect: { envelope.status: "known" }',
        '  sandbox: true',
        'agents:',
        '  - name: remote',
        '    transport: http',
        '    url: https://seller.example/mcp?key=${URL_KEY}',
        '    headers:',
        '      Authorization: Bearer ${TOKEN}',
        '      X-Api-Key: { fromFile: key.txt }',
        '    timeouts: { agent: 60000 }',
        '    expect: { error.code: "ticket 7" }',
        '  - name: local',
        '    transport: stdio',
        '    command: ./bin/seller',
        '    args: [./seller.js, --flag, plain.js, "literal $${NOT_A_VAR}"]',
        '    env: { API_KEY: "${TOKEN}" }',
        '    cwd: sub',
        '    sandbox: false',
      ].join('\n'),
    );
    const { agents, file: abs } = await loadConfig(file, { TOKEN: 'tok-abcdef', URL_KEY: 'urlkey-123' });
    expect(abs).toBe(file);
    const [remote, local] = agents;
    expect(remote).toMatchObject({
      url: 'https://seller.example/mcp?key=urlkey-123',
      headers: { Authorization: 'Bearer tok-abcdef', 'X-Api-Key': 'file-secret-42' },
      timeouts: { connectMs: 10_000, callMs: 5000, agentMs: 60_000 },
      sandbox: true,
      production: false,
      maxBytes: DEFAULT_MAX_BYTES,
      expect: { 'envelope.status': 'known', 'error.code': 'ticket 7' },
    });
    expect(remote!.secrets).toEqual(expect.arrayContaining(['Bearer tok-abcdef', 'tok-abcdef', 'file-secret-42', 'urlkey-123']));
    expect(local).toMatchObject({
      command: join(dir, 'bin/seller'),
      args: [join(dir, 'seller.js'), '--flag', 'plain.js', 'literal ${NOT_A_VAR}'],
      env: { API_KEY: 'tok-abcdef' },
      cwd: join(dir, 'sub'),
      sandbox: false,
    });
    expect(local!.secrets).toEqual(['tok-abcdef']);
  });

  test('a stdio agent without cwd runs in the config file directory', async () => {
    const file = await write(
      'cwd.json',
      JSON.stringify({ agents: [{ name: 'a', transport: 'stdio', command: 'node', args: ['seller.js'] }] }),
    );
    const { agents } = await loadConfig(file, {});
    expect(agents[0]).toMatchObject({ command: 'node', args: ['seller.js'], cwd: dir, env: {} });
  });
});

describe('loadConfig: errors name the file and the pointer, on one line', () => {
  const cases: Array<[string, string, string, RegExp]> = [
    [
      'missing variable',
      'missing-var.yaml',
      'agents:\n  - name: a\n    transport: http\n    url: http://x/mcp\n    headers: { Authorization: "Bearer ${ACME_TOKEN}" }\n',
      /: \/agents\/0\/headers\/Authorization: environment variable ACME_TOKEN is not set$/,
    ],
    [
      'bad URL (YAML)',
      'bad-url.yaml',
      'agents:\n  - name: a\n    transport: http\n    url: http://x\n  - name: b\n    transport: http\n    url: ftp://x\n',
      /: \/agents\/1\/url: must be an http\(s\) URL$/,
    ],
    [
      'bad URL (JSON)',
      'bad-url.json',
      JSON.stringify({ agents: [{ name: 'a', transport: 'http', url: 'localhost:3000' }] }),
      /bad-url\.json: \/agents\/0\/url: must be an http\(s\) URL$/,
    ],
    [
      'duplicate names',
      'dup.json',
      JSON.stringify({
        agents: [
          { name: 'a', transport: 'http', url: 'http://x' },
          { name: 'a', transport: 'stdio', command: 'node' },
        ],
      }),
      /: \/agents\/1\/name: duplicate agent name 'a'/,
    ],
    ['missing url', 'no-url.yaml', 'agents:\n  - name: a\n    transport: http\n', /: \/agents\/0\/url: is required$/],
    [
      'stdio field on http',
      'mixed.yaml',
      'agents:\n  - name: a\n    transport: http\n    url: http://x\n    command: node\n',
      /: \/agents\/0\/command: is not allowed for transport 'http'/,
    ],
    [
      'unknown key',
      'unknown.yaml',
      'agents:\n  - name: a\n    transport: http\n    url: http://x\n    timeout: 5\n',
      /: \/agents\/0\/timeout: 'timeout' is not a known setting/,
    ],
    [
      'bad timeout',
      'timeout.yaml',
      'agents:\n  - name: a\n    transport: http\n    url: http://x\n    timeouts: { call: 0 }\n',
      /: \/agents\/0\/timeouts\/call: must be a whole number of milliseconds/,
    ],
    [
      'bad probe',
      'probe.yaml',
      'agents:\n  - name: a\n    transport: http\n    url: http://x\n    probes: [{ tool: get_products, arguments: {}, intent: maybe }]\n',
      /: \/agents\/0\/probes\/0\/intent: must be one of: "valid", "invalid"$/,
    ],
    ['YAML syntax', 'syntax.yaml', 'agents:\n  - name: a\n   transport: http\n', /syntax\.yaml: \/: invalid YAML at line 3, column 1/],
    ['JSON syntax', 'syntax.json', '{"agents": [ {"name": "a",} ]}', /syntax\.json: \/: invalid JSON/],
    [
      'missing fromFile',
      'nofile.yaml',
      'agents:\n  - name: a\n    transport: stdio\n    command: node\n    env: { K: { fromFile: missing.txt } }\n',
      /: \/agents\/0\/env\/K\/fromFile: cannot read file 'missing.txt' \(ENOENT/,
    ],
    ['no agents', 'empty.yaml', 'agents: []\n', /: \/agents: must be a non-empty list of agents$/],
  ];
  test.for(cases)('%s', async ([, name, text, pattern]) => {
    const file = await write(name, text);
    const err = await configError(file);
    expect(err.message).toMatch(pattern);
    expect(err.message).not.toContain('\n');
    expect(err.file).toBe(file);
    expect(err.message.startsWith(`${file}: ${err.pointer || '/'}: ${err.expected}`)).toBe(true);
  });

  test('a URL the schema pattern accepts but WHATWG cannot parse is a ConfigError that does not echo the URL', async () => {
    const file = await write(
      'port.yaml',
      'agents:\n  - name: a\n    transport: http\n    url: http://seller.example:99999/mcp?key=${URL_KEY}\n',
    );
    const err = await configError(file, { URL_KEY: 'urlkey-secret-77' });
    expect(err.message).toMatch(/port\.yaml: \/agents\/0\/url: must be an http\(s\) URL/);
    expect(err.message).not.toContain('urlkey-secret-77');
  });

  test('a missing config file is a ConfigError too', async () => {
    const err = await configError(join(dir, 'nope.yaml'));
    expect(err.message).toMatch(/nope\.yaml: \/: cannot read the config file \(ENOENT\)/);
  });
});

describe('loadConfig: credentialHeaders (which headers carry the credential)', () => {
  test('named headers are kept as spelled in headers; absent, the setting stays unset (the default applies)', async () => {
    const file = await write(
      'cred.yaml',
      [
        'agents:',
        '  - name: named',
        '    transport: http',
        '    url: https://seller.example/mcp',
        '    headers: { Authorization: "Bearer t-123456", X-Api-Key: k-123456 }',
        '    credentialHeaders: [x-api-key]',
        '  - name: unnamed',
        '    transport: http',
        '    url: https://seller.example/mcp',
        '    headers: { Authorization: "Bearer t-123456" }',
      ].join('\n'),
    );
    const [named, unnamed] = (await loadConfig(file, {})).agents;
    expect(named).toMatchObject({ credentialHeaders: ['X-Api-Key'] });
    expect(unnamed).not.toHaveProperty('credentialHeaders');
  });

  test('a name that is not one of the agent’s headers is a ConfigError at its pointer', async () => {
    const file = await write(
      'cred-bad.yaml',
      'agents:\n  - name: a\n    transport: http\n    url: https://seller.example/mcp\n    headers: { Authorization: "Bearer t" }\n    credentialHeaders: [Authorization, X-Key]\n',
    );
    const err = await configError(file);
    expect(err.message).toMatch(
      /: \/agents\/0\/credentialHeaders\/1: must name one of this agent's headers \(its headers: Authorization\)$/,
    );
    expect(err.message).not.toContain('Bearer t');
  });

  test('stdio agents take no credentialHeaders', async () => {
    const file = await write(
      'cred-stdio.yaml',
      'agents:\n  - name: a\n    transport: stdio\n    command: node\n    credentialHeaders: [Authorization]\n',
    );
    const err = await configError(file);
    expect(err.message).toMatch(/\/agents\/0\/credentialHeaders: is not allowed for transport 'stdio'/);
  });
});
