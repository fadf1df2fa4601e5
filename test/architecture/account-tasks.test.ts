// The fact "this task takes an `account`" (adcp-tasks.ts takesAccount) is read off the shipped request
// schemas: the tasks whose request has a top-level `account` that is an AdCP account reference
// (core/account-ref.json), in AdCP 3.0 (@adcp/sdk) and 3.1.19 (../shared, when present). A configured
// account is sent exactly on these.
import { existsSync } from 'node:fs';
import { describe, expect, test } from 'vitest';
import { SDK_30, SHARED_31, tasksTaking } from './request-schemas.helpers.ts';
import { ACCOUNT_TASKS, ADCP_TASKS } from '../../harness/adcp-tasks.ts';

const accountTasks = (dir: string): Set<string> => tasksTaking(dir, 'account', '/core/account-ref.json');

describe('the tasks that take an account', () => {
  const v30 = accountTasks(SDK_30);
  const v31 = existsSync(SHARED_31) ? accountTasks(SHARED_31) : undefined;

  test('the schema walk finds the media-buy tasks (it reads the trees it claims to)', () => {
    for (const t of ['create_media_buy', 'update_media_buy', 'get_products', 'sync_creatives']) expect(v30.has(t), t).toBe(true);
    // comply_test_controller's `account` is a sandbox assertion, not an account reference: never sent ours.
    expect(v30.has('comply_test_controller') || v31?.has('comply_test_controller')).toBe(false);
  });

  test('every task whose 3.0 request takes an account reference is marked', () => {
    expect([...v30].filter((t) => !ACCOUNT_TASKS.has(t))).toEqual([]);
  });

  test.skipIf(!v31)('the marked tasks are exactly those of 3.0 and 3.1.19 together (skipped when ../shared is absent)', () => {
    const union = new Set([...v30, ...v31!].filter((t) => ADCP_TASKS.has(t)));
    expect([...ACCOUNT_TASKS].sort()).toEqual([...union].sort());
  });

  test('the marked tasks are AdCP tasks of the table', () => {
    for (const t of ACCOUNT_TASKS) expect(ADCP_TASKS.has(t), t).toBe(true);
  });
});
