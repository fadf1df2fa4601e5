// The fact "this task takes a `push_notification_config`" (adcp-tasks.ts takesPushNotification) is read off
// the shipped request schemas: the tasks whose request has a top-level `push_notification_config` that is
// core/push-notification-config.json, in AdCP 3.0 (@adcp/sdk) and 3.1.19 (../shared, when present). A
// sandbox agent's calls name the harness's webhook receiver exactly on these.
import { existsSync } from 'node:fs';
import { describe, expect, test } from 'vitest';
import { SDK_30, SHARED_31, tasksTaking } from './request-schemas.helpers.ts';
import { ADCP_TASKS, PUSH_NOTIFICATION_TASKS } from '../../harness/adcp-tasks.ts';

const pushTasks = (dir: string): Set<string> => tasksTaking(dir, 'push_notification_config', '/core/push-notification-config.json');

describe('the tasks that take a push_notification_config', () => {
  const v30 = pushTasks(SDK_30);
  const v31 = existsSync(SHARED_31) ? pushTasks(SHARED_31) : undefined;

  test('the schema walk finds the media-buy writes (it reads the trees it claims to)', () => {
    for (const t of ['create_media_buy', 'update_media_buy', 'sync_creatives']) expect(v30.has(t), t).toBe(true);
    expect(v30.has('get_media_buys')).toBe(false);
  });

  test('every task whose 3.0 request takes one is marked', () => {
    expect([...v30].filter((t) => !PUSH_NOTIFICATION_TASKS.has(t))).toEqual([]);
  });

  test.skipIf(!v31)('the marked tasks are exactly those of 3.0 and 3.1.19 together (skipped when ../shared is absent)', () => {
    const union = new Set([...v30, ...v31!].filter((t) => ADCP_TASKS.has(t)));
    expect([...PUSH_NOTIFICATION_TASKS].sort()).toEqual([...union].sort());
  });

  test('the marked tasks are AdCP tasks of the table', () => {
    for (const t of PUSH_NOTIFICATION_TASKS) expect(ADCP_TASKS.has(t), t).toBe(true);
  });
});
