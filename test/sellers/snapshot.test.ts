// The reference seller's startup snapshot (scripts/seller-snapshot.mjs), which the suite's stdio sellers start
// from (test/setup/seller-snapshot.ts): it is the same seller as sellers/reference-seller.js — the same
// verdicts, the same faults (built into it, not imported by path), a fresh state per process — and it says so
// when asked for what it cannot serve.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { describe, expect, test } from 'vitest';
import type { AgentConfig } from '../../harness/config/types.ts';
import type { Outcome } from '../../harness/checks/check.ts';
import { judgeAgent } from '../../harness/checks/engine.ts';
import { DEFAULT_MAX_BYTES } from '../../harness/config/index.ts';
import { captureAgent } from '../../harness/capture/capture-agent.ts';
import { createSchemaService, sdkSchemaSource } from '../../harness/schemas/index.ts';
import { faultByName, tripsAt } from '../../sellers/faults.ts';
import { SELLER_ENTRY, SELLER_SNAPSHOT_ENV, stdioSellerCommand } from '../../sellers/launch.ts';

const snapshot = process.env[SELLER_SNAPSHOT_ENV];

/** The seller's command line: from the snapshot, or from its entry script as a user starts it. */
function sellerArgs(fromSnapshot: boolean, args: string[]): string[] {
  return fromSnapshot ? ['--snapshot-blob', snapshot!, '--', ...args] : [SELLER_ENTRY, ...args];
}

async function judged(fromSnapshot: boolean, faults: string[]): Promise<Outcome[]> {
  const agent: AgentConfig = {
    name: fromSnapshot ? 'snapshot' : 'entry',
    transport: 'stdio',
    command: process.execPath,
    args: sellerArgs(fromSnapshot, ['--transport', 'stdio', ...faults.flatMap((f) => ['--fault', f])]),
    env: {},
    timeouts: { connectMs: 20_000, callMs: 8_000, agentMs: 90_000 },
    production: false,
    sandbox: true,
    maxBytes: DEFAULT_MAX_BYTES,
    secrets: [],
  };
  const source = sdkSchemaSource();
  const capture = await captureAgent(agent, { adcpReleases: await source.versions() });
  const schemas = await createSchemaService(capture, source);
  return judgeAgent(capture, { schemas, agent: capture.agent });
}

/** Each check × tool's statuses (messages name per-process ids and times). */
const statuses = (outcomes: Outcome[]): string[] => outcomes.map((o) => `${o.check} › ${o.tool}: ${o.status}`).sort();

/** The ids that failed or warned, with the worst status. */
function tripped(outcomes: Outcome[]): Record<string, string> {
  const worst: Record<string, string> = {};
  for (const o of outcomes) if (o.status === 'fail' || (o.status === 'warn' && worst[o.check] !== 'fail')) worst[o.check] = o.status;
  return Object.fromEntries(Object.entries(worst).sort(([a], [b]) => a.localeCompare(b)));
}

test('the suite builds the snapshot, and its stdio sellers start from it', () => {
  expect(snapshot, `${SELLER_SNAPSHOT_ENV} (test/setup/seller-snapshot.ts)`).toBeTruthy();
  expect(existsSync(snapshot!)).toBe(true);
  expect(stdioSellerCommand({ faults: ['hang-on-call'] }).args).toEqual(
    sellerArgs(true, ['--transport', 'stdio', '--fault', 'hang-on-call']),
  );
});

describe.skipIf(!snapshot)('started from the snapshot, the seller is the one sellers/reference-seller.js starts', () => {
  // creative-list-misses-synced keeps state of its own across calls (what it saw synced); two faults, two
  // modules looked up among the built-in ones.
  test.for([[[]], [['creative-list-misses-synced', 'context-not-echoed']]] as const)('faults %j: the same outcomes', async ([faults]) => {
    const [fromSnapshot, fromEntry] = await Promise.all([judged(true, [...faults]), judged(false, [...faults])]);
    expect(statuses(fromSnapshot)).toEqual(statuses(fromEntry));
    const expected = faults.reduce<Record<string, string>>((all, name) => ({ ...all, ...tripsAt(faultByName(name)!) }), {});
    expect(tripped(fromSnapshot)).toEqual(Object.fromEntries(Object.entries(expected).sort(([a], [b]) => a.localeCompare(b))));
  });

  test('an unknown fault is refused with the same list of the faults it knows', () => {
    const run = (fromSnapshot: boolean) =>
      spawnSync(process.execPath, sellerArgs(fromSnapshot, ['--transport', 'stdio', '--fault', 'no-such-fault']), {
        encoding: 'utf8',
        input: '',
      });
    const [a, b] = [run(true), run(false)];
    expect(b.status).toBe(2);
    expect(b.stderr).toContain("unknown fault 'no-such-fault'");
    expect(b.stderr).toMatch(/faults: .*creative-list-misses-synced/);
    expect([a.status, a.stderr]).toEqual([b.status, b.stderr]);
  });

  test('asked to serve HTTP, it says it serves stdio only', () => {
    const r = spawnSync(process.execPath, sellerArgs(true, ['--transport', 'http', '--port', '0']), {
      encoding: 'utf8',
      input: '',
      timeout: 20_000,
    });
    expect(r.status).toBe(1);
    expect(r.stderr).toContain('serves stdio only: start an HTTP seller from sellers/reference-seller.js');
  });
});
