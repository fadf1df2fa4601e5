// Re-verification asks only read-only calls again: which calls qualify (unit), and, live through the
// CLI against a seller of our own that logs every call, that a failing create_media_buy or
// sync_creatives is never repeated while a failing get_adcp_capabilities is asked exactly once more.
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { stringify } from 'yaml';
import { describe, expect, test } from 'vitest';
import type { AgentCapture, Exchange } from '../../harness/record/exchange.ts';
import type { ReportOutcome } from '../../harness/report/model.ts';
import { READ_ONLY_TASKS } from '../../harness/adcp-tasks.ts';
import { repeatableCalls } from '../../harness/run/judge/reverify.ts';
import { runCli, tempDirs } from './cli.helpers.ts';
import { NIGHTLY_SELLER } from './nightly.helpers.ts';

const tmp = tempDirs();

describe('which failing calls are asked again', () => {
  const x = (tool: string, extra: Partial<Exchange> = {}): Exchange => ({
    agent: 'a',
    tool,
    intent: 'valid',
    request: { name: tool, arguments: {} },
    outcome: { kind: 'result', result: {} },
    startedAt: '2026-12-01T00:00:00.000Z',
    durationMs: 1,
    ...extra,
  });
  const capture: AgentCapture = {
    agent: { name: 'a', transport: 'stdio', production: false, sandbox: true },
    initialize: { ok: true, protocolVersion: '2025-11-25', serverInfo: {}, durationMs: 1 },
    exchanges: [
      x('get_products'),
      x('create_media_buy'),
      x('sync_creatives'),
      x('get_products', { intent: 'invalid' }),
      x('get_products', { scenario: { name: 'pagination', step: 'page-2' } } as Partial<Exchange>),
      x('list_creatives'),
      x('vendor_tool'),
    ],
  };
  const o = (call: number, status: ReportOutcome['status'], extra: Partial<ReportOutcome> = {}): ReportOutcome => ({
    check: 'envelope.flat',
    tool: 't',
    status,
    severity: 'MUST',
    message: '',
    spec: 's',
    specUrl: 'https://example.org',
    call,
    ...extra,
  });

  test('read-only AdCP tasks only, never a mutating call, a scenario step or an unknown tool; passing and baselined calls not at all', () => {
    const outcomes = [
      o(0, 'fail'),
      o(1, 'fail'),
      o(2, 'fail'),
      o(3, 'fail'),
      o(4, 'fail'),
      o(5, 'fail', { baseline: 'known' }),
      o(6, 'fail'),
      o(0, 'fail'),
    ];
    expect(repeatableCalls(capture, { outcomes }, false)).toEqual([0, 3]);
    expect(repeatableCalls(capture, { outcomes: [o(0, 'pass'), o(5, 'warn')] }, false)).toEqual([]);
    // A warning fails the run only under --strict: only then is it asked again.
    expect(repeatableCalls(capture, { outcomes: [o(5, 'warn')] }, true)).toEqual([5]);
    expect(
      READ_ONLY_TASKS.has('create_media_buy') || READ_ONLY_TASKS.has('sync_creatives') || READ_ONLY_TASKS.has('update_media_buy'),
    ).toBe(false);
  });

  test('a call that got no answer (timed out, connection lost) is never asked again; an error answer is', () => {
    const unanswered: AgentCapture = {
      ...capture,
      exchanges: [
        x('get_products', {
          outcome: { kind: 'transport-error', failure: { kind: 'timeout', message: 'tools/call: no answer within 30000 ms' } },
        }),
        x('get_signals', { outcome: { kind: 'transport-error', failure: { kind: 'closed', message: 'the server process exited' } } }),
        x('list_creatives', { outcome: { kind: 'jsonrpc-error', error: { code: -32603, message: 'boom' } } }),
        x('get_products', { outcome: { kind: 'transport-error', failure: { kind: 'oversize', message: 'answer passed the cap' } } }),
        x('get_products', { outcome: { kind: 'transport-error', failure: { kind: 'network', message: 'ECONNRESET' } } }),
      ],
    };
    const outcomes = [0, 1, 2, 3, 4].map((i) => o(i, 'fail'));
    // An answer that broke a transport rule (past the byte cap) is still an answer: asked again.
    expect(repeatableCalls(unanswered, { outcomes }, false)).toEqual([2, 3]);
  });
});

describe('live: a seller whose every answer fails', () => {
  test('the failing read-only call is asked once more in a fresh session; create_media_buy and sync_creatives never twice', async () => {
    const dir = await tmp('reverify');
    const state = join(dir, 'seller.state.json');
    await writeFile(state, JSON.stringify({ mode: 'mutating' }));
    const config = join(dir, 'sellers.yaml');
    await writeFile(
      config,
      stringify({
        agents: [
          {
            name: 'writer',
            transport: 'stdio',
            command: process.execPath,
            args: [NIGHTLY_SELLER, state],
            probes: [
              { tool: 'get_adcp_capabilities', arguments: {} },
              { tool: 'create_media_buy', arguments: { idempotency_key: 'k-1', packages: [] } },
              { tool: 'sync_creatives', arguments: { idempotency_key: 'k-2', creatives: [] } },
            ],
          },
        ],
      }),
    );
    const cli = await runCli(['run', '--config', config, '--out', join(dir, 'out'), '--reporter', 'json']);
    expect(cli.code, cli.stdout + cli.stderr).toBe(1);
    const calls = (await readFile(`${state}.log`, 'utf8')).trim().split('\n');
    expect(calls.filter((c) => c === 'create_media_buy')).toHaveLength(1);
    expect(calls.filter((c) => c === 'sync_creatives')).toHaveLength(1);
    // The probe, the call without context (context-not-fabricated), and the one re-verification.
    expect(calls.filter((c) => c === 'get_adcp_capabilities')).toHaveLength(3);
    expect(cli.stderr).toContain('writer  re-verify: 1 failing read-only call(s) in a fresh session');
    expect(cli.stderr).toContain('writer  re-verified: 0 flaky, 1 confirmed');
    const report = JSON.parse(await readFile(join(dir, 'out', 'report.json'), 'utf8')) as { agents: Array<{ outcomes: ReportOutcome[] }> };
    const failing = report.agents[0]!.outcomes.filter((x) => x.status === 'fail');
    expect(new Set(failing.map((x) => x.tool))).toEqual(new Set(['get_adcp_capabilities', 'create_media_buy', 'sync_creatives']));
    expect(failing.filter((x) => x.flaky)).toEqual([]);
  }, 120_000);
});
