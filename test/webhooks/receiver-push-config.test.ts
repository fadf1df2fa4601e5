// PushConfigs (pure): which calls carry a push_notification_config, and a replay carries its original's.
import { describe, expect, test } from 'vitest';
import { bodyHash, PushConfigs } from '../../harness/webhooks/push-config.ts';

const target = () => {
  const issued: Array<[number, string]> = [];
  return { token: 'tok', issued, urlFor: (i: number, op: string) => (issued.push([i, op]), `http://127.0.0.1:1/tok/${i}`) };
};

describe('PushConfigs', () => {
  test('a push-taking task gets a per-call URL and operation_id, without authentication; others nothing', () => {
    const t = target();
    const p = new PushConfigs(t);
    const args = { idempotency_key: 'k-1234567890abcdef', packages: [] };
    const out = p.withPushConfig('create_media_buy', args, 4);
    expect(out).not.toBe(args);
    expect(args).not.toHaveProperty('push_notification_config');
    expect(out['push_notification_config']).toEqual({ url: 'http://127.0.0.1:1/tok/4', operation_id: 'adcp-conformance.tok.4' });
    expect(t.issued).toEqual([[4, 'adcp-conformance.tok.4']]);
    expect(p.withPushConfig('get_media_buys', { x: 1 }, 5)).toEqual({ x: 1 });
    expect(p.withPushConfig('get_products', { brief: 'b' }, 6)['push_notification_config']).toMatchObject({
      operation_id: 'adcp-conformance.tok.6',
    });
    expect(/^[A-Za-z0-9_.:-]{1,255}$/.test('adcp-conformance.tok.4')).toBe(true); // the schema's operation_id pattern
  });

  test('a call that names its own keeps it', () => {
    const p = new PushConfigs(target());
    const mine = {
      push_notification_config: { url: 'https://buyer.example/h', authentication: { schemes: ['Bearer'], credentials: 'x'.repeat(32) } },
    };
    expect(p.withPushConfig('create_media_buy', mine, 0)).toBe(mine);
  });

  test('a replay (same key, same body but context) carries the identical config; another body or key a new one', () => {
    const p = new PushConfigs(target());
    const args = { idempotency_key: 'k-1234567890abcdef', packages: [{ budget: 100 }], context: { correlation_id: 'a' } };
    const first = p.withPushConfig('create_media_buy', args, 1)['push_notification_config'];
    const replay = p.withPushConfig('create_media_buy', { ...args, context: { correlation_id: 'b' } }, 2)['push_notification_config'];
    expect(replay).toEqual(first);
    const conflict = p.withPushConfig('create_media_buy', { ...args, packages: [{ budget: 150 }] }, 3)['push_notification_config'];
    expect(conflict).not.toEqual(first);
    const otherKey = p.withPushConfig('create_media_buy', { ...args, idempotency_key: 'k-other-1234567890' }, 4)[
      'push_notification_config'
    ];
    expect(otherKey).not.toEqual(first);
    const noKey = { packages: [{ budget: 100 }] };
    expect(p.withPushConfig('create_media_buy', noKey, 5)['push_notification_config']).not.toEqual(
      p.withPushConfig('create_media_buy', noKey, 6)['push_notification_config'],
    );
  });

  test('bodyHash ignores key order and the fields payload equivalence leaves out, nothing else', () => {
    expect(bodyHash({ a: 1, b: { c: 2, d: 3 } })).toBe(bodyHash({ b: { d: 3, c: 2 }, a: 1 }));
    expect(bodyHash({ a: 1, idempotency_key: 'x', context: { q: 1 }, governance_context: 'g' })).toBe(bodyHash({ a: 1 }));
    expect(bodyHash({ a: 1, ext: { r: 1 } })).not.toBe(bodyHash({ a: 1, ext: { r: 2 } }));
    expect(bodyHash({ a: null })).not.toBe(bodyHash({}));
  });
});
