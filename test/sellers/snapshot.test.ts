// The reference seller's startup snapshot (scripts/seller-snapshot.mjs), which the suite's stdio sellers start
// from (test/setup/seller-snapshot.ts): it is the same seller as sellers/reference-seller.js — the same
// verdicts over stdio and HTTP, the same faults (built into it, not imported by path), a fresh state per
// process.
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, test } from 'vitest';
import type { AgentConfig } from '../../harness/config/types.ts';
import type { Outcome } from '../../harness/checks/check.ts';
import { judgeAgent } from '../../harness/checks/engine.ts';
import { DEFAULT_MAX_BYTES } from '../../harness/config/index.ts';
import { captureAgent } from '../../harness/capture/capture-agent.ts';
import { createSchemaService, sdkSchemaSource } from '../../harness/schemas/index.ts';
import { faultByName, tripsAt } from '../../sellers/faults.ts';
import { SELLER_ENTRY, SELLER_SNAPSHOT_ENV, startHttpSeller, stdioSellerCommand } from '../../sellers/launch.ts';
import { TEST_TMP_ENV } from '../setup/tmp-root.ts';

const snapshot = process.env[SELLER_SNAPSHOT_ENV];

/** The seller's command line: from the snapshot, or from its entry script as a user starts it. */
function sellerArgs(fromSnapshot: boolean, args: string[]): string[] {
  return fromSnapshot ? ['--snapshot-blob', snapshot!, '--', ...args] : [SELLER_ENTRY, ...args];
}

async function judge(agent: AgentConfig): Promise<Outcome[]> {
  const source = sdkSchemaSource();
  const capture = await captureAgent(agent, { adcpReleases: await source.versions() });
  const schemas = await createSchemaService(capture, source);
  return judgeAgent(capture, { schemas, agent: capture.agent });
}

const common = {
  timeouts: { connectMs: 20_000, callMs: 8_000, agentMs: 90_000 },
  production: false,
  sandbox: true,
  maxBytes: DEFAULT_MAX_BYTES,
  secrets: [],
};

async function judged(transport: 'stdio' | 'http', fromSnapshot: boolean, faults: string[]): Promise<Outcome[]> {
  const name = fromSnapshot ? 'snapshot' : 'entry';
  if (transport === 'stdio') {
    const args = sellerArgs(fromSnapshot, ['--transport', 'stdio', ...faults.flatMap((f) => ['--fault', f])]);
    return judge({ name, transport, command: process.execPath, args, env: {}, ...common });
  }
  const seller = await startHttpSeller({ faults, snapshot: fromSnapshot ? snapshot! : null });
  try {
    return await judge({ name, transport, url: seller.url, headers: {}, ...common });
  } finally {
    await seller.close();
  }
}

/**
 * Each check × tool's statuses, once each (messages name per-process ids and times). How many times the task
 * flow polls tasks/get follows the clock, not the seller, and so does the number of each call after the polls:
 * `poll-N` and `call N` count as one.
 */
const statuses = (outcomes: Outcome[]): string[] =>
  [
    ...new Set(
      outcomes.map((o) => `${o.check} › ${o.tool.replace(/\bpoll-\d+\)/, 'poll-N)').replace(/\(call \d+\)/, '(call N)')}: ${o.status}`),
    ),
  ].sort();

/** The ids that failed or warned, with the worst status. */
function tripped(outcomes: Outcome[]): Record<string, string> {
  const worst: Record<string, string> = {};
  for (const o of outcomes) if (o.status === 'fail' || (o.status === 'warn' && worst[o.check] !== 'fail')) worst[o.check] = o.status;
  return Object.fromEntries(Object.entries(worst).sort(([a], [b]) => a.localeCompare(b)));
}

/** The command lines of this process's children (Linux /proc), each as its arguments. */
function childCommandLines(): string[][] {
  return readdirSync('/proc')
    .filter((pid) => /^\d+$/.test(pid))
    .flatMap((pid) => {
      try {
        const ppid = /^\d+ \(.*\) \S (\d+)/s.exec(readFileSync(`/proc/${pid}/stat`, 'utf8'))?.[1];
        return ppid === String(process.pid) ? [readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').filter(Boolean)] : [];
      } catch {
        return []; // gone meanwhile
      }
    });
}

test('the suite builds the snapshot, and its stdio and HTTP sellers start from it', async () => {
  expect(snapshot, `${SELLER_SNAPSHOT_ENV} (test/setup/seller-snapshot.ts)`).toBeTruthy();
  expect(existsSync(snapshot!)).toBe(true);
  expect(stdioSellerCommand({ faults: ['hang-on-call'] }).args).toEqual(
    sellerArgs(true, ['--transport', 'stdio', '--fault', 'hang-on-call']),
  );
  if (!existsSync('/proc/self/stat')) return;
  const seller = await startHttpSeller({ faults: ['hang-on-call'] });
  try {
    expect(childCommandLines().map((args) => args.slice(1))).toContainEqual(
      sellerArgs(true, ['--transport', 'http', '--port', '0', '--response-mode', 'json', '--exit-on-stdin-end', '--fault', 'hang-on-call']),
    );
  } finally {
    await seller.close();
  }
});

test("a snapshot of another project's dist/ is not used (an installed copy that a test runs inherits the variable)", async () => {
  const dir = await mkdtemp(path.join(process.env[TEST_TMP_ENV] ?? tmpdir(), 'foreign-snapshot-'));
  const foreign = path.join(dir, 'seller.blob');
  writeFileSync(foreign, 'not a snapshot');
  writeFileSync(`${foreign}.json`, JSON.stringify({ dist: path.join(dir, 'dist') }));
  expect(stdioSellerCommand({ snapshot: foreign }).args).toEqual(sellerArgs(false, ['--transport', 'stdio']));
  expect(stdioSellerCommand({ snapshot: null }).args).toEqual(sellerArgs(false, ['--transport', 'stdio']));
});

describe.skipIf(!snapshot)('started from the snapshot, the seller is the one sellers/reference-seller.js starts', () => {
  // creative-list-misses-synced keeps state of its own across calls (what it saw synced); two faults, two
  // modules looked up among the built-in ones.
  test.for([
    ['stdio', []],
    ['stdio', ['creative-list-misses-synced', 'context-not-echoed']],
    ['http', ['creative-list-misses-synced']],
  ] as const)('over %s, faults %j: the same outcomes', async ([transport, faults]) => {
    const [fromSnapshot, fromEntry] = await Promise.all([judged(transport, true, [...faults]), judged(transport, false, [...faults])]);
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
});
