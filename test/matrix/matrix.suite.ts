// The self-test matrix: the harness against the clean reference seller (stdio and HTTP) gives zero
// failures, zero warnings and no MUST left untested; against each fault mode exactly the ids the fault
// declares trip, each with its declared status (fail or warn), and no other id fails or warns. Faults
// that declare a per-version difference run again (stdio) against the AdCP 3.1.19 schemas from
// ../shared, and must trip `trips` overlaid with that version's entries. Every check id in the catalog
// must be proven by some fault. A fault that declares `agent.credentials` runs over HTTP against a seller
// started with `--token`, the agent sending it as `Authorization: Bearer …`; the clean seller runs that way
// too, so the call without credentials is proven refused as well as proven served by the fault.
// ADCP_MATRIX_FAULTS=name1,name2 limits the runs to those faults (and the clean seller).
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import pLimit from 'p-limit';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { AgentConfig } from '../../harness/config/types.ts';
import type { Outcome } from '../../harness/checks/check.ts';
import { catalog } from '../../harness/checks/catalog.ts';
import { judgeAgent } from '../../harness/checks/engine.ts';
import { DEFAULT_MAX_BYTES } from '../../harness/config/index.ts';
import { parseJwks } from '../../harness/config/webhook-keys.ts';
import { captureAgent } from '../../harness/capture/capture-agent.ts';
import {
  compositeSchemaSource,
  createSchemaService,
  dirSchemaSource,
  sdkSchemaSource,
  type SchemaSource,
} from '../../harness/schemas/index.ts';
import { faults, namedIds, trippedIds, tripsAt, type Fault } from '../../sellers/faults.ts';
import { startHttpSeller, stdioSellerCommand } from '../../sellers/launch.ts';

// Timeouts short enough that the hang fault stays cheap, long enough for a loaded 2-core CI machine
// (the clean seller answers in milliseconds when the machine is idle).
/**
 * The matrix, shard `shard` of `shards` (test/matrix/matrix-*.test.ts): each shard runs every `shards`-th
 * fault case, so the shards spread over vitest's workers; the first also runs the clean seller and the
 * catalog checks.
 */
export function matrixSuite(shard: number, shards: number): void {
  const first = shard === 0;
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

  function stdioAgent(name: string, fault: Fault | undefined, pin?: string): AgentConfig {
    const { command, args } = stdioSellerCommand({ faults: fault ? [fault.name] : [] });
    return {
      name,
      ...(pin ? { adcpVersion: pin } : {}),
      transport: 'stdio',
      command,
      args,
      env: {},
      timeouts,
      production: fault?.agent?.production ?? false,
      sandbox: fault?.agent?.sandbox ?? true,
      webhookKeys: webhookKeys(),
      maxBytes: DEFAULT_MAX_BYTES,
      secrets: [],
    };
  }

  /** The reference seller's webhook signing keys (its public JWKS), as a config's `webhookKeys` names them. */
  const JWKS_FILE = path.join(root, 'sellers', 'reference', 'webhook-jwks.json');
  const webhookKeys = (): AgentConfig['webhookKeys'] => {
    const parsed = parseJwks(JSON.parse(readFileSync(JWKS_FILE, 'utf8')));
    if (!('keys' in parsed)) throw new Error(`sellers/reference/webhook-jwks.json: ${parsed.problem}`);
    return { keys: parsed.keys, source: JWKS_FILE };
  };

  /** The bearer token of the credentials runs (the seller's `--token`). */
  const TOKEN = 'matrix-token-0123456789';

  function httpAgent(name: string, url: string, fault: Fault | undefined, credentials: boolean, pin?: string): AgentConfig {
    return {
      name,
      ...(pin ? { adcpVersion: pin } : {}),
      transport: 'http',
      url,
      headers: credentials ? { Authorization: `Bearer ${TOKEN}` } : {},
      timeouts,
      production: fault?.agent?.production ?? false,
      sandbox: fault?.agent?.sandbox ?? true,
      webhookKeys: webhookKeys(),
      maxBytes: DEFAULT_MAX_BYTES,
      secrets: credentials ? [TOKEN] : [],
    };
  }

  async function judge(agent: AgentConfig, source: SchemaSource): Promise<Judged> {
    // The releases the harness has trees for: the pin is the newest one the seller declares (as a run does).
    const capture = await captureAgent(agent, { adcpReleases: await source.versions() });
    const schemas = await createSchemaService(capture, source);
    return { outcomes: judgeAgent(capture, { schemas, agent: capture.agent }), adcpVersion: schemas.adcpVersion.version };
  }

  interface Run {
    name: string;
    fault: Fault | undefined;
    transport: 'stdio' | 'http';
    /**
     * AdCP release whose `tripsByAdcpVersion` entries apply: the harness has that release's tree from ../shared
     * beside the @adcp/sdk trees (3.0.6), so it pins the newest release the seller declares; undefined = the
     * @adcp/sdk trees alone (the seller is pinned to, and judged at, 3.0).
     */
    adcp?: string;
    /** Pin this release (the agent's `adcpVersion`) although a newer one is available. */
    pin?: string;
    /** HTTP with a bearer token (the fault's `agent.credentials`, or the clean seller's credentials run). */
    credentials?: boolean;
  }

  async function judgeRun(run: Run): Promise<Judged> {
    const label = `${run.name}-${run.transport}${run.credentials ? '-token' : ''}${run.adcp ? `-adcp${run.adcp}` : ''}${run.pin ? `-pin${run.pin}` : ''}`;
    const source = run.adcp
      ? compositeSchemaSource([dirSchemaSource(treeDir(VERSION_TREES[run.adcp]!)), sdkSchemaSource()])
      : sdkSchemaSource();
    if (run.transport === 'stdio') return judge(stdioAgent(label, run.fault, run.pin), source);
    const credentials = run.credentials === true;
    const seller = await startHttpSeller({ faults: run.fault ? [run.fault.name] : [], ...(credentials ? { token: TOKEN } : {}) });
    try {
      return await judge(httpAgent(label, seller.url, run.fault, credentials, run.pin), source);
    } finally {
      await seller.close();
    }
  }

  /**
   * The status each tripped id got — the worst of its outcomes: `fail` when any call failed it. A rule's level
   * follows the release each call was served at (its `adcp_version` echo), so one fault can make a MUST fail on
   * the calls served at 3.1 and only warn on those served at 3.0; the fault declares the worst. The first
   * message of each (a failure first), for readable assertion diffs.
   */
  function tripped(outcomes: Outcome[]): { statuses: Record<string, string>; messages: Record<string, string> } {
    const seen = new Map<string, Set<string>>();
    const messages: Record<string, string> = {};
    for (const o of outcomes) {
      if (o.status !== 'fail' && o.status !== 'warn') continue;
      if (!seen.has(o.check)) seen.set(o.check, new Set());
      if (messages[o.check] === undefined || (o.status === 'fail' && !seen.get(o.check)!.has('fail')))
        messages[o.check] = `${o.status} ${o.tool}: ${o.message}`;
      seen.get(o.check)!.add(o.status);
    }
    const statuses = Object.fromEntries([...seen].map(([id, s]) => [id, s.has('fail') ? 'fail' : 'warn']));
    return { statuses, messages };
  }

  const sorted = (record: Record<string, string>): Record<string, string> =>
    Object.fromEntries(Object.entries(record).sort(([a], [b]) => a.localeCompare(b)));

  /** One run per (fault, transport) the fault applies to (both, unless the fault names one). */
  const allCases: Run[] = selected.flatMap((fault) =>
    (fault.transports ?? (['stdio', 'http'] as const)).map((transport) => ({
      name: fault.name,
      fault,
      transport,
      ...(fault.agent?.credentials ? { credentials: true } : {}),
    })),
  );

  /** One more run per declared AdCP release of each fault that has one: stdio, unless the fault is HTTP-only. */
  const cases = allCases.filter((_, i) => i % shards === shard);
  const versionCases: Run[] = selected.flatMap((fault) =>
    Object.keys(fault.tripsByAdcpVersion ?? {}).map((adcp) => ({
      name: fault.name,
      fault,
      transport: fault.transports?.includes('stdio') === false ? ('http' as const) : ('stdio' as const),
      adcp,
      ...(fault.agent?.credentials ? { credentials: true } : {}),
    })),
  );
  const runnableVersionCases = versionCases
    .filter((_, i) => i % shards === shard)
    .filter((r) => VERSION_TREES[r.adcp!] !== undefined && treePresent(VERSION_TREES[r.adcp!]!));

  const results = new Map<string, Judged | Error>();
  const key = (run: Pick<Run, 'name' | 'transport' | 'adcp' | 'credentials' | 'pin'>): string =>
    `${run.name}/${run.transport}${run.credentials ? '+token' : ''}/${run.adcp ?? 'default'}${run.pin ? `/pin${run.pin}` : ''}`;

  /** The clean seller's runs: stdio, HTTP, and HTTP with a bearer token (at 3.0, the only release the SDK trees hold). */
  const cleanRuns: Run[] = [
    { name: 'clean', fault: undefined, transport: 'stdio' },
    { name: 'clean', fault: undefined, transport: 'http' },
    { name: 'clean', fault: undefined, transport: 'http', credentials: true },
  ];
  /**
   * The clean seller with the 3.1.19 tree beside 3.0: served and judged at 3.1 (its newest release) over both
   * transports, and pinned to 3.0 by the agent's config: conformant at each release it serves.
   */
  const cleanReleaseRuns: Run[] = [
    { name: 'clean', fault: undefined, transport: 'stdio', adcp: '3.1' },
    { name: 'clean', fault: undefined, transport: 'http', adcp: '3.1', credentials: true },
    { name: 'clean', fault: undefined, transport: 'stdio', adcp: '3.1', pin: '3.0' },
  ];
  const runnableCleanReleaseRuns = cleanReleaseRuns.filter((r) => treePresent(VERSION_TREES[r.adcp!]!));

  beforeAll(async () => {
    const limit = pLimit(4);
    const runs: Run[] = [...(first ? [...cleanRuns, ...runnableCleanReleaseRuns] : []), ...cases, ...runnableVersionCases];
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

  function judged(run: Pick<Run, 'name' | 'transport' | 'adcp' | 'credentials' | 'pin'>): Judged {
    const r = results.get(key(run));
    if (!r) throw new Error(`no result for ${key(run)}`);
    if (r instanceof Error) throw r;
    return r;
  }

  (first ? test : test.skip)('ADCP_MATRIX_FAULTS names only known faults', () => {
    expect(unknownSelected).toEqual([]);
  });

  /** The business-rule checks that must have passed on a clean run (the matrix agents are sandbox). */
  function cleanRules(run: Run): string[] {
    const rules = [
      'error.version-unsupported',
      'error.unknown-reference',
      'idempotency.replay',
      'idempotency.conflict',
      'idempotency.missing-key',
      'idempotency.replayed-flag',
      'idempotency.error-not-cached',
      'idempotency.malformed-key',
      'idempotency.concurrent',
      'pagination.cursor',
    ];
    if (run.credentials) rules.push('auth.unauthenticated', 'auth.invalid-credentials', 'auth.public-discovery');
    // The reference seller declares 3.1 whatever it is pinned to and judged at: the negotiation and protocol-field
    // rules apply to every run; the rules whose level is set by the release judged only when judged at 3.1.
    rules.push(
      'version.echo',
      'version.release-negotiation',
      'version.major-mismatch',
      'envelope.protocol-fields',
      'envelope.context-not-fabricated',
    );
    if (run.adcp === '3.1' && run.pin === undefined) rules.push('capabilities.required-tasks', 'auth.credential-in-args');
    return rules;
  }

  function expectClean(run: Run): Judged {
    const j = judged(run);
    const { outcomes } = j;
    expect(tripped(outcomes).messages).toEqual({});
    const untestedMust = outcomes.filter((o) => o.status === 'untested' && o.severity === 'MUST');
    expect(untestedMust.map((o) => `${o.check} ${o.tool}: ${o.message}`)).toEqual([]);
    expect(outcomes.filter((o) => o.status === 'pass').length).toBeGreaterThan(20);
    for (const id of cleanRules(run))
      expect(
        outcomes.filter((o) => o.check === id).map((o) => o.status),
        id,
      ).toContain('pass');
    return j;
  }

  (first ? describe : describe.skip)('the clean reference seller', () => {
    test.for(cleanRuns.map((r) => [`${r.transport}${r.credentials ? ' with a bearer token' : ''}`, r] as const))(
      'over %s: zero failures, zero warnings, no MUST untested',
      ([, run]) => {
        expect(expectClean(run).adcpVersion).toMatch(/^3\.0\./);
      },
    );
  });

  (first ? describe : describe.skip)('the clean reference seller at each release it serves', () => {
    if (runnableCleanReleaseRuns.length < cleanReleaseRuns.length)
      test.skip(`../shared/adcp/schemas/${VERSION_TREES['3.1']!} is absent: the clean seller is not judged at 3.1`, () => {});
    test.for(runnableCleanReleaseRuns.map((r) => [r.transport, r.pin ? `pinned to ${r.pin}` : `at ${r.adcp!}`, r] as const))(
      'over %s %s: zero failures, zero warnings, no MUST untested',
      ([, , run]) => {
        const j = expectClean(run);
        expect(j.adcpVersion).toBe(run.pin === '3.0' ? '3.0.6' : VERSION_TREES[run.adcp!]);
        // Judged at 3.1, the 3.1-only rules were judged, not set aside.
        if (!run.pin) expect(j.outcomes.filter((o) => o.check === 'auth.credential-in-args').map((o) => o.status)).toContain('pass');
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

  (first ? describe : describe.skip)('the matrix covers the catalog', () => {
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
}
