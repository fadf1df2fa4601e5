// The agent's `account`: an AdCP account reference (core/account-ref.json), in an agent or in the
// defaults, validated at load with one config error pointing into the config; `${VAR}` values in it are
// secrets like every other spliced value.
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { ConfigError, loadConfig } from '../../harness/config/index.ts';

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'adcp-account-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

let n = 0;
async function load(doc: unknown, env: NodeJS.ProcessEnv = {}) {
  const file = join(dir, `c${n++}.json`);
  await writeFile(file, JSON.stringify(doc));
  return loadConfig(file, env);
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

const agent = (extra: Record<string, unknown> = {}) => ({ name: 'a', transport: 'stdio', command: 'seller', ...extra });

describe('config `account`', () => {
  test('an account_id or a natural key loads as written; absent stays absent', async () => {
    const cfg = await load({
      agents: [
        agent({ account: { account_id: 'acc_123' } }),
        agent({
          name: 'b',
          account: { brand: { domain: 'acme-corp.com', brand_id: 'spark' }, operator: 'pinnacle-media.com', sandbox: true },
        }),
        agent({ name: 'c' }),
      ],
    });
    expect(cfg.agents[0]!.account).toEqual({ account_id: 'acc_123' });
    expect(cfg.agents[1]!.account).toEqual({
      brand: { domain: 'acme-corp.com', brand_id: 'spark' },
      operator: 'pinnacle-media.com',
      sandbox: true,
    });
    expect(cfg.agents[2]!.account).toBeUndefined();
  });

  test('the shipped example names one', async () => {
    const example = await loadConfig(fileURLToPath(new URL('../../config/example.yaml', import.meta.url)), {
      ACME_TOKEN: 'acme-token-1',
      SELLER_API_KEY: 'seller-key-1',
    });
    expect(example.agents[0]!.account).toEqual({ account_id: 'acc_acme_sandbox' });
  });

  test('the defaults’ account is inherited; an agent’s own wins whole (never merged key by key)', async () => {
    const cfg = await load({
      defaults: { account: { brand: { domain: 'acme-corp.com' }, operator: 'acme-corp.com' } },
      agents: [agent(), agent({ name: 'b', account: { account_id: 'acc_9' } })],
    });
    expect(cfg.agents[0]!.account).toEqual({ brand: { domain: 'acme-corp.com' }, operator: 'acme-corp.com' });
    expect(cfg.agents[1]!.account).toEqual({ account_id: 'acc_9' });
  });

  test('a ${VAR} in the account is resolved and is a secret', async () => {
    const cfg = await load({ agents: [agent({ account: { account_id: '${SELLER_ACCOUNT}' } })] }, { SELLER_ACCOUNT: 'acc_secret_77' });
    expect(cfg.agents[0]!.account).toEqual({ account_id: 'acc_secret_77' });
    expect(cfg.agents[0]!.secrets).toContain('acc_secret_77');
  });

  test.for([
    [{ account: 'acc_123' }, '/agents/0/account: must be an AdCP account reference: {"account_id": "…"}'],
    [{ account: {} }, '/agents/0/account: must be an AdCP account reference'],
    [{ account: { account_id: '' } }, '/agents/0/account/account_id: must be a seller-assigned account id (a non-empty string)'],
    [{ account: { account_id: 7 } }, '/agents/0/account/account_id: must be a seller-assigned account id (a non-empty string)'],
    [{ account: { account_id: 'a', operator: 'x.com' } }, '/agents/0/account: must be an AdCP account reference'],
    [
      { account: { brand: { domain: 'Acme.COM' }, operator: 'acme.com' } },
      '/agents/0/account/brand/domain: must be a lowercase domain name',
    ],
    [
      { account: { brand: { domain: 'acme.com' }, operator: 'https://acme.com' } },
      '/agents/0/account/operator: must be a lowercase domain name',
    ],
    [{ account: { brand: 'acme.com', operator: 'acme.com' } }, '/agents/0/account/brand: must be a brand reference'],
    [
      { account: { brand: { domain: 'acme.com' }, operator: 'acme.com', sandbox: 'yes' } },
      '/agents/0/account/sandbox: must be true (a sandbox account) or false',
    ],
  ] as const)('%j is refused: %s', async ([extra, expected]) => {
    expect(await configError({ agents: [agent(extra)] })).toMatch(new RegExp(`^${expected.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')}`));
  });

  test('a malformed account in the defaults points into the defaults', async () => {
    expect(await configError({ defaults: { account: { operator: 'acme.com' } }, agents: [agent()] })).toMatch(
      /^\/defaults\/account: must be an AdCP account reference/,
    );
  });
});
