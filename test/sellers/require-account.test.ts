// `--require-account ID`: the reference seller serves one account and refuses a call that takes an
// `account` without it — ACCOUNT_REQUIRED (correctable, with the available accounts) when none is named,
// ACCOUNT_NOT_FOUND (terminal) when the reference does not resolve to it — as AdCP's accounts page says;
// its capabilities say an account is required. (A whole run against it, with and without the harness's
// `account`: test/run/account-and-state.test.ts.)
import { describe, expect, test } from 'vitest';
import { AdcpFailure } from '../../sellers/reference/adcp-error.ts';
import { requireAccount, takesAccount } from '../../sellers/reference/account.ts';
import { parseSellerArgs, UsageError } from '../../sellers/reference/options.ts';
import { SellerState } from '../../sellers/reference/state.ts';
import { toolSpecs } from '../../sellers/reference/tools.ts';

const refusal = (fn: () => void): AdcpFailure['body'] | undefined => {
  try {
    fn();
  } catch (err) {
    if (err instanceof AdcpFailure) return err.body;
    throw err;
  }
  return undefined;
};

describe('--require-account', () => {
  test('parses; a malformed id is a usage error', async () => {
    expect((await parseSellerArgs(['--transport', 'stdio', '--require-account', 'acc_123'])).requireAccount).toBe('acc_123');
    expect((await parseSellerArgs(['--transport', 'stdio'])).requireAccount).toBeUndefined();
    await expect(parseSellerArgs(['--transport', 'stdio', '--require-account', 'acc 1'])).rejects.toThrow(UsageError);
  });

  test('no account → ACCOUNT_REQUIRED (correctable) naming the available account', () => {
    expect(refusal(() => requireAccount('acc_123', 'get_products', { buying_mode: 'brief' }))).toEqual({
      code: 'ACCOUNT_REQUIRED',
      message: expect.stringContaining('needs an account'),
      recovery: 'correctable',
      field: 'account',
      details: { available_accounts: [{ account_id: 'acc_123' }] },
    });
  });

  test('another account, a natural key or garbage → ACCOUNT_NOT_FOUND (terminal), the same answer for each', () => {
    const answers = [{ account_id: 'acc_999' }, { brand: { domain: 'a.example' }, operator: 'a.example', sandbox: true }, 'acc_123'].map(
      (account) => refusal(() => requireAccount('acc_123', 'create_media_buy', { account })),
    );
    for (const a of answers) expect(a).toMatchObject({ code: 'ACCOUNT_NOT_FOUND', recovery: 'terminal', field: 'account' });
    expect(new Set(answers.map((a) => JSON.stringify(a))).size).toBe(1);
  });

  test('the account itself, a task that takes none, or no --require-account: served', () => {
    expect(refusal(() => requireAccount('acc_123', 'get_products', { account: { account_id: 'acc_123' } }))).toBeUndefined();
    expect(takesAccount('get_adcp_capabilities')).toBe(false);
    expect(refusal(() => requireAccount('acc_123', 'get_adcp_capabilities', {}))).toBeUndefined();
    expect(refusal(() => requireAccount(undefined, 'get_products', {}))).toBeUndefined();
  });

  test('the capabilities say an account is required (and by id)', async () => {
    const caps = toolSpecs.find((s) => s.name === 'get_adcp_capabilities')!;
    const state = new SellerState();
    const required = (await caps.run({}, { state, sandbox: true, requireAccount: 'acc_123' }))['account'];
    expect(required).toMatchObject({ required_for_products: true, require_operator_auth: true });
    const open = (await caps.run({}, { state, sandbox: true }))['account'];
    expect(open).toMatchObject({ required_for_products: false });
    expect(open).not.toHaveProperty('require_operator_auth');
  });
});
