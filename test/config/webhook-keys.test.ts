// The agent's `webhookKeys`: a JWKS file path (relative to the config) or an inline JWKS, validated at
// load (public Ed25519 / P-256 keys with kids) with one config error pointing into the config, and
// carried into the capture's agent facts for webhook.signature.
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { ConfigError, loadConfig } from '../../harness/config/index.ts';
import { agentFacts } from '../../harness/capture/agent-facts.ts';

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'adcp-webhook-keys-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

let n = 0;
async function load(doc: unknown) {
  const file = join(dir, `c${n++}.json`);
  await writeFile(file, JSON.stringify(doc));
  return loadConfig(file, {});
}
async function configError(doc: unknown): Promise<string> {
  try {
    await load(doc);
  } catch (err) {
    if (err instanceof ConfigError) return `${err.pointer}: ${err.expected}`;
    throw err;
  }
  throw new Error('loaded without error');
}

const KEY = {
  kid: 'k1',
  kty: 'OKP',
  crv: 'Ed25519',
  x: 'RebhuZ2e1h0NQdpqJ6Lt7CejlpDtD1tQY636BWOKafU',
  use: 'sig',
  key_ops: ['verify'],
  adcp_use: 'request-signing',
};
const agent = (extra: Record<string, unknown> = {}) => ({ name: 'a', transport: 'stdio', command: 'seller', ...extra });

describe('config `webhookKeys`', () => {
  test('an inline JWKS loads; absent stays absent; the agent facts carry it', async () => {
    const cfg = await load({ agents: [agent({ webhookKeys: { keys: [KEY] } }), agent({ name: 'b' })] });
    expect(cfg.agents[0]!.webhookKeys).toEqual({ keys: [KEY], source: 'inline' });
    expect(cfg.agents[1]!.webhookKeys).toBeUndefined();
    expect(agentFacts(cfg.agents[0]!).webhookKeys).toEqual({ keys: [KEY], source: 'inline' });
    expect(agentFacts(cfg.agents[1]!)).not.toHaveProperty('webhookKeys');
  });

  test('a JWKS file path is read relative to the config; the defaults give it to every agent', async () => {
    await writeFile(join(dir, 'seller-jwks.json'), JSON.stringify({ keys: [KEY] }));
    const cfg = await load({ defaults: { webhookKeys: './seller-jwks.json' }, agents: [agent()] });
    expect(cfg.agents[0]!.webhookKeys).toEqual({ keys: [KEY], source: join(dir, 'seller-jwks.json') });
  });

  test('the reference seller publishes its JWKS as a file a config can name', async () => {
    const cfg = await load({ agents: [agent({ webhookKeys: join(import.meta.dirname, '../../sellers/reference/webhook-jwks.json') })] });
    expect(cfg.agents[0]!.webhookKeys?.keys[0]).toMatchObject({ kid: 'reference-seller-webhook-2026', kty: 'OKP' });
  });

  test('refused: a missing file, a file that is not a JWKS, private key material, a key without kid, an RSA key', async () => {
    expect(await configError({ agents: [agent({ webhookKeys: './nope.json' })] })).toMatch(
      /^\/agents\/0\/webhookKeys: cannot read the JWKS file '\.\/nope\.json' \(ENOENT/,
    );
    await writeFile(join(dir, 'not-jwks.json'), '{"keys": []}');
    expect(await configError({ agents: [agent({ webhookKeys: './not-jwks.json' })] })).toMatch(
      /^\/agents\/0\/webhookKeys: the JWKS in '\.\/not-jwks\.json' must be a JWKS/,
    );
    expect(await configError({ agents: [agent({ webhookKeys: { keys: [{ ...KEY, d: 'secret' }] } })] })).toBe(
      '/agents/0/webhookKeys: keys[0] holds private key material ("d"): give the public key only',
    );
    expect(await configError({ agents: [agent({ webhookKeys: { keys: [{ kty: 'OKP' }] } })] })).toMatch(/^\/agents\/0\/webhookKeys/);
    expect(await configError({ agents: [agent({ webhookKeys: { keys: [{ kid: 'r', kty: 'RSA' }] } })] })).toMatch(
      /^\/agents\/0\/webhookKeys/,
    );
    expect(await configError({ defaults: { webhookKeys: 42 }, agents: [agent()] })).toMatch(
      /^\/defaults\/webhookKeys: must be a JWKS file path/,
    );
  });
});
