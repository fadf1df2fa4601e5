// The self-test matrix: the harness against the clean reference seller (stdio and HTTP) gives zero
// failures, zero warnings and no MUST left untested; against each fault mode exactly the ids the fault
// declares trip, each with its declared status (fail or warn), and no other id fails or warns. Faults
// that declare a per-version difference run again (stdio) against the AdCP 3.1.19 schemas from
// ../shared, and must trip `trips` overlaid with that version's entries. Every check id in the catalog
// must be proven by some fault. A fault that declares `agent.credentials` runs over HTTP against a seller
// started with `--token`, the agent sending it as `Authorization: Bearer …`; the clean seller runs that way
// too, so the call without credentials is proven refused as well as proven served by the fault.
// ADCP_MATRIX_FAULTS=name1,name2 limits the runs to those faults (and the clean seller).
import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import pLimit from 'p-limit';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { AgentConfig } from '../../harness/config/types.ts';
import type { Outcome } from '../../harness/checks/check.ts';
import { catalog } from '../../harness/checks/catalog.ts';
import { judgeAgent } from '../../harness/checks/engine.ts';
import { DEFAULT_MAX_BYTES } from '../../harness/config/index.ts';
import { captureAgent } from '../../harness/capture/capture-agent.ts';
import { createSchemaService, dirSchemaSource, sdkSchemaSource, type SchemaSource } from '../../harness/schemas/index.ts';
import { faults, namedIds, trippedIds, tripsAt, type Fault } from '../../sellers/faults.ts';
import { startHttpSeller, stdioSellerCommand } from '../../sellers/launch.ts';

// Timeouts short enough that the hang fault stays cheap, long enough for a loaded 2-core CI machine
// (the clean seller answers in milliseconds when the machine is idle).
const timeouts = { connectMs: 20_000, callMs: 8_000, agentMs: 90_000 };

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');

/** Schema trees for the AdCP releases faults may declare differences at (`tripsByAdcpVersion` keys). */
const VERSION_TREES: Record<string, string> = { '3.1': '3.1.19' };
const treeDir = (tree: string): string => path.resolve(root, '..', 'shared', 'adcp', 'schemas', tree);
const treePresent = (tree: string): boolean => existsSync(path.join(treeDir(tree), 'index.json'));

/** The faults this run covers: all, or the ones ADCP_MATRIX_FAULTS names. */
const selectedNames = (process.env['ADCP_MATRIX_FAULTS'] ?? '')
  .split(',')
  .map((s) => s.trim())
  .filter(Boolean);
const unknownSelected = selectedNames.filter((name) => !faults.some((f) => f.name === name));
const selected = selectedNames.length ? faults.filter((f) => selectedNames.includes(f.name)) : faults;

interface Judged {
  outcomes: Outcome[];
  /** The AdCP schema version the harness judged at. */
  adcpVersion: string;
}

function stdioAgent(name: string, fault: Fault | undefined): AgentConfig {
  const { command, args } = stdioSellerCommand({ faults: fault ? [fault.name] : [] });
  return {
    name,
    transport: 'stdio',
    command,
    args,
    env: {},
    timeouts,
    production: fault?.agent?.production ?? false,
    sandbox: fault?.agent?.sandbox ?? true,
    maxBytes: DEFAULT_MAX_BYTES,
    secrets: [],
  };
}

/** The bearer token of the credentials runs (the seller's `--token`). */
const TOKEN = 'matrix-token-0123456789';

function httpAgent(name: string, url: string, fault: Fault | undefined, credentials: boolean): AgentConfig {
  return {
    name,
    transport: 'http',
    url,
    headers: credentials ? { Authorization: `Bearer ${TOKEN}` } : {},
    timeouts,
    production: fault?.agent?.production ?? false,
    sandbox: fault?.agent?.sandbox ?? true,
    maxBytes: DEFAULT_MAX_BYTES,
    secrets: credentials ? [TOKEN] : [],
  };
}

async function judge(agent: AgentConfig, source: SchemaSource): Promise<Judged> {
  const capture = await captureAgent(agent);
  const schemas = await createSchemaService(capture, source);
  return { outcomes: judgeAgent(capture, { schemas, agent: capture.agent }), adcpVersion: schemas.adcpVersion.version };
}

interface Run {
  name: string;
  fault: Fault | undefined;
  transport: 'stdio' | 'http';
  /** AdCP release whose `tripsByAdcpVersion` entries apply; undefined = the default source (@adcp/sdk). */
  adcp?: string;
  /** HTTP with a bearer token (the fault's `agent.credentials`, or the clean seller's credentials run). */
  credentials?: boolean;
}

async function judgeRun(run: Run): Promise<Judged> {
  const label = `${run.name}-${run.transport}${run.credentials ? '-token' : ''}${run.adcp ? `-adcp${run.adcp}` : ''}`;
  const source = run.adcp ? dirSchemaSource(treeDir(VERSION_TREES[run.adcp]!)) : sdkSchemaSource();
  if (run.transport === 'stdio') return judge(stdioAgent(label, run.fault), source);
  const credentials = run.credentials === true;
  const seller = await startHttpSeller({ faults: run.fault ? [run.fault.name] : [], ...(credentials ? { token: TOKEN } : {}) });
  try {
    return await judge(httpAgent(label, seller.url, run.fault, credentials), source);
  } finally {
    await seller.close();
  }
}

/**
 * The status each tripped id got (`fail` or `warn`; `fail+warn` when its outcomes disagree), and the
 * first message of each, for readable assertion diffs.
 */
function tripped(outcomes: Outcome[]): { statuses: Record<string, string>; messages: Record<string, string> } {
  const seen = new Map<string, Set<string>>();
  const messages: Record<string, string> = {};
  for (const o of outcomes) {
    if (o.status !== 'fail' && o.status !== 'warn') continue;
    if (!seen.has(o.check)) seen.set(o.check, new Set());
    seen.get(o.check)!.add(o.status);
    messages[o.check] ??= `${o.status} ${o.tool}: ${o.message}`;
  }
  const statuses = Object.fromEntries([...seen].map(([id, s]) => [id, [...s].sort().join('+')]));
  return { statuses, messages };
}

const sorted = (record: Record<string, string>): Record<string, string> =>
  Object.fromEntries(Object.entries(record).sort(([a], [b]) => a.localeCompare(b)));

/** One run per (fault, transport) the fault applies to (both, unless the fault names one). */
const cases: Run[] = selected.flatMap((fault) =>
  (fault.transports ?? (['stdio', 'http'] as const)).map((transport) => ({
    name: fault.name,
    fault,
    transport,
    ...(fault.agent?.credentials ? { credentials: true } : {}),
  })),
);

/** One more run per declared AdCP release of each fault that has one: stdio, unless the fault is HTTP-only. */
const versionCases: Run[] = selected.flatMap((fault) =>
  Object.keys(fault.tripsByAdcpVersion ?? {}).map((adcp) => ({
    name: fault.name,
    fault,
    transport: fault.transports?.includes('stdio') === false ? ('http' as const) : ('stdio' as const),
    adcp,
    ...(fault.agent?.credentials ? { credentials: true } : {}),
  })),
);
const runnableVersionCases = versionCases.filter((r) => VERSION_TREES[r.adcp!] !== undefined && treePresent(VERSION_TREES[r.adcp!]!));

const results = new Map<string, Judged | Error>();
const key = (run: Pick<Run, 'name' | 'transport' | 'adcp' | 'credentials'>): string =>
  `${run.name}/${run.transport}${run.credentials ? '+token' : ''}/${run.adcp ?? 'default'}`;

/** The clean seller's runs: stdio, HTTP, and HTTP with a bearer token. */
const cleanRuns: Run[] = [
  { name: 'clean', fault: undefined, transport: 'stdio' },
  { name: 'clean', fault: undefined, transport: 'http' },
  { name: 'clean', fault: undefined, transport: 'http', credentials: true },
];

beforeAll(async () => {
  const limit = pLimit(4);
  const runs: Run[] = [...cleanRuns, ...cases, ...runnableVersionCases];
  await Promise.all(
    runs.map((run) =>
      limit(async () => {
        try {
          results.set(key(run), await judgeRun(run));
        } catch (err) {
          results.set(key(run), err instanceof Error ? err : new Error(String(err)));
        }
      }),
    ),
  );
}, 400_000);

afterAll(() => results.clear());

function judged(run: Pick<Run, 'name' | 'transport' | 'adcp' | 'credentials'>): Judged {
  const r = results.get(key(run));
  if (!r) throw new Error(`no result for ${key(run)}`);
  if (r instanceof Error) throw r;
  return r;
}

test('ADCP_MATRIX_FAULTS names only known faults', () => {
  expect(unknownSelected).toEqual([]);
});

describe('the clean reference seller', () => {
  test.for(cleanRuns.map((r) => [`${r.transport}${r.credentials ? ' with a bearer token' : ''}`, r] as const))(
    'over %s: zero failures, zero warnings, no MUST untested',
    ([, run]) => {
      const { outcomes } = judged(run);
      expect(tripped(outcomes).messages).toEqual({});
      const untestedMust = outcomes.filter((o) => o.status === 'untested' && o.severity === 'MUST');
      expect(untestedMust.map((o) => `${o.check} ${o.tool}: ${o.message}`)).toEqual([]);
      expect(outcomes.filter((o) => o.status === 'pass').length).toBeGreaterThan(20);
      // The business-rule scenarios ran and passed (the mutating ones: the matrix agents are sandbox).
      const rules = [
        'error.version-unsupported',
        'error.unknown-reference',
        'idempotency.replay',
        'idempotency.conflict',
        'idempotency.missing-key',
        'pagination.cursor',
      ];
      if (run.credentials) rules.push('auth.unauthenticated');
      for (const id of rules)
        expect(
          outcomes.filter((o) => o.check === id).map((o) => o.status),
          id,
        ).toContain('pass');
    },
  );
});

/** Declared vs observed statuses; a mismatch shows the first message of every tripped id. */
function expectTrips(j: Judged, expected: Record<string, string>): void {
  const { statuses, messages } = tripped(j.outcomes);
  expect(sorted(statuses), `tripped at AdCP ${j.adcpVersion}:\n${JSON.stringify(sorted(messages), null, 2)}`).toEqual(sorted(expected));
}

describe('each fault trips exactly the ids it declares, with the declared status', () => {
  test.for(cases.map((c) => [c.name, c.transport, c] as const))('%s over %s', ([, , run]) => {
    expectTrips(judged(run), tripsAt(run.fault!));
  });
});

describe('each per-version difference a fault declares holds at that AdCP version', () => {
  const declaredReleases = [...new Set(versionCases.map((r) => r.adcp!))];
  const absentTrees = declaredReleases.filter((v) => VERSION_TREES[v] !== undefined && !treePresent(VERSION_TREES[v]));

  test('every declared AdCP release has a schema tree the matrix knows', () => {
    expect(declaredReleases.filter((v) => VERSION_TREES[v] === undefined)).toEqual([]);
  });

  for (const v of absentTrees) {
    test.skip(`../shared/adcp/schemas/${VERSION_TREES[v]!} is absent: per-version fault statuses not checked`, () => {});
  }

  test.for(runnableVersionCases.map((c) => [c.name, c.transport, c.adcp!, c] as const))('%s over %s at AdCP %s', ([, , adcp, run]) => {
    const fault = run.fault!;
    const j = judged(run);
    // Judged at that release, or the comparison says nothing about it.
    expect(j.adcpVersion.startsWith(`${adcp}.`) || j.adcpVersion === adcp).toBe(true);
    expectTrips(j, tripsAt(fault, adcp));
  });
});

describe('the matrix covers the catalog', () => {
  test('every check id is proven by at least one fault, or by the live test its definition names (provenBy)', () => {
    const proven = new Set(faults.flatMap(trippedIds));
    // A check that judges the harness's own config (no seller answer can trip it) names the live test that proves it
    // (test/checks/catalog.test.ts holds that file to exist and to exercise the check).
    expect(catalog.filter((c) => !proven.has(c.id) && c.provenBy === undefined).map((c) => c.id)).toEqual([]);
  });

  test('every id a fault names is in the catalog', () => {
    const ids = new Set(catalog.map((c) => c.id));
    expect(faults.flatMap(namedIds).filter((id) => !ids.has(id))).toEqual([]);
  });

  test('fault names are unique', () => {
    const names = faults.map((f) => f.name);
    expect(new Set(names).size).toBe(names.length);
  });
});
