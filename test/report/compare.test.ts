// --compare: outcome identity, what counts as new / fixed / still failing, agents that went down, came
// back, appeared or disappeared, message normalisation, the exit gate, and the previous report's checks.
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';
import {
  compareReports,
  comparisonHeadline,
  loadPreviousReport,
  normaliseMessage,
  type PreviousReport,
} from '../../harness/report/compare.ts';
import { buildReportJson } from '../../harness/report/json.ts';
import { gateExitCode, type AgentReport, type ReportOutcome, type RunReport } from '../../harness/report/model.ts';
import { agent, outcome } from './fixtures.ts';

const fail = (check: string, tool: string, extra: Partial<ReportOutcome> = {}) =>
  outcome({ check, tool, status: 'fail', message: `${check} failed on ${tool}`, ...extra });
const pass = (check: string, tool: string) => outcome({ check, tool, status: 'pass' });
const init = (ok: boolean) =>
  ok
    ? pass('transport.initialize', 'initialize')
    : fail('transport.initialize', 'initialize', { message: 'at /initialize: found connect: ECONNREFUSED 127.0.0.1:40123 after 10000 ms' });

/** A previous report as report.json carries it (the same builder the CLI uses). */
function previous(agents: AgentReport[], strict = false): PreviousReport {
  const run = {
    startedAt: '2026-11-30T07:00:00.000Z',
    endedAt: '2026-11-30T07:01:00.000Z',
    harnessVersion: '0.0.9',
    node: '20',
    mcpSdkVersion: 'x',
    adcpSdkVersion: 'y',
    schemaSource: { kind: 'sdk', location: 'sdk', versions: [] },
    config: null,
  };
  return JSON.parse(JSON.stringify(buildReportJson({ agents, strict, cutShort: null, run }))) as PreviousReport;
}
const now = (agents: AgentReport[], extra: Partial<RunReport> = {}): RunReport => ({ agents, strict: false, cutShort: null, ...extra });
const ids = (entries: Array<{ agent: string; check?: string; tool?: string; probe?: number }>) =>
  entries.map((e) => [e.agent, e.check, e.tool, e.probe].filter((x) => x !== undefined).join(' · '));

describe('compareReports', () => {
  test('identity is agent · check · tool (+ the ordinal of a tool judged twice); new, fixed and still failing', () => {
    const before = previous([
      agent('a', [
        init(true),
        fail('envelope.flat', 'get_products'),
        pass('envelope.status', 'get_products'),
        pass('envelope.flat', 'list_creatives'),
        fail('error.code', 'get_products (invalid input)'),
      ]),
    ]);
    const c = compareReports(
      before,
      now([
        agent('a', [
          init(true),
          pass('envelope.flat', 'get_products'),
          fail('envelope.status', 'get_products'),
          pass('envelope.flat', 'list_creatives'),
          fail('envelope.flat', 'list_creatives'),
          fail('error.code', 'get_products (invalid input)'),
        ]),
      ]),
    );
    expect(ids(c.newFailures)).toEqual(['a · envelope.status · get_products', 'a · envelope.flat · list_creatives · 2']);
    expect(ids(c.fixed)).toEqual(['a · envelope.flat · get_products']);
    expect(c.stillFailing).toBe(1);
    expect(c.fixed[0]!.message).toBe('envelope.flat failed on get_products');
    expect(c.against).toEqual({ startedAt: '2026-11-30T07:00:00.000Z', harnessVersion: '0.0.9' });
  });

  test('a failure that became untested or not-applicable is not "fixed"; a baselined one was not failing', () => {
    const before = previous([
      agent('a', [
        init(true),
        fail('envelope.flat', 't1'),
        fail('envelope.flat', 't2'),
        fail('envelope.flat', 't3', { baseline: 'known' }),
      ]),
    ]);
    const c = compareReports(
      before,
      now([
        agent('a', [
          init(true),
          outcome({ check: 'envelope.flat', tool: 't1', status: 'untested', message: 'no answer' }),
          outcome({ check: 'envelope.flat', tool: 't2', status: 'not-applicable' }),
          fail('envelope.flat', 't3'),
        ]),
      ]),
    );
    expect(c.fixed).toEqual([]);
    expect(ids(c.newFailures)).toEqual(['a · envelope.flat · t3']);
  });

  test('flaky failures are listed apart, never new; a flaky failure that failed before is still failing', () => {
    const before = previous([agent('a', [init(true), pass('envelope.flat', 't'), fail('envelope.status', 't')])]);
    const c = compareReports(
      before,
      now([agent('a', [init(true), fail('envelope.flat', 't', { flaky: true }), fail('envelope.status', 't', { flaky: true })])]),
    );
    expect(c.newFailures).toEqual([]);
    expect(ids(c.flaky)).toEqual(['a · envelope.flat · t', 'a · envelope.status · t']);
    expect(c.stillFailing).toBe(1);
  });

  test('agents: newly unreachable, back online, added, removed — each one line, their outcomes not diffed', () => {
    const before = previous([
      agent('down-now', [init(true), pass('envelope.flat', 't')]),
      agent('back', [init(false)], { reachable: false }),
      agent('still-down', [init(false)], { reachable: false }),
      agent('gone', [init(true)]),
    ]);
    const c = compareReports(
      before,
      now([
        agent('down-now', [init(false)], { reachable: false }),
        agent('back', [init(true), fail('envelope.flat', 't'), fail('envelope.status', 't')]),
        agent('still-down', [init(false)], { reachable: false }),
        agent('new', [init(true), fail('envelope.flat', 't')]),
      ]),
    );
    expect(c.newlyUnreachable).toEqual([
      { agent: 'down-now', message: 'at /initialize: found connect: ECONNREFUSED 127.0.0.1:<port> after <duration>' },
    ]);
    expect(c.backOnline).toEqual([{ agent: 'back' }]);
    expect(c.added).toEqual([{ agent: 'new' }]);
    expect(c.removed).toEqual([{ agent: 'gone' }]);
    // Neither the seller back online nor the new one buries the list with its failures.
    expect(c.newFailures).toEqual([]);
    expect(c.fixed).toEqual([]);
    expect(comparisonHeadline(c)).toBe(
      'Since the run of 2026-11-30T07:00:00.000Z (adcp-conformance 0.0.9): 0 new failures · 0 fixed · 0 flaky · 0 still failing · 1 newly unreachable · 1 back online · 1 agent added · 1 agent removed',
    );
  });

  test('each run is read with its own --strict: a warning counts as failing only where it failed the run', () => {
    const warn = outcome({ check: 'error.recovery', tool: 't', status: 'warn', severity: 'SHOULD', message: 'w' });
    expect(
      ids(compareReports(previous([agent('a', [init(true), warn])]), now([agent('a', [init(true), warn])], { strict: true })).newFailures),
    ).toEqual(['a · error.recovery · t']);
    expect(
      compareReports(previous([agent('a', [init(true), warn])], true), now([agent('a', [init(true), warn])], { strict: true }))
        .stillFailing,
    ).toBe(1);
  });
});

describe('normaliseMessage', () => {
  test('run-specific ids, times and durations become placeholders; the finding stays', () => {
    expect(
      normaliseMessage('expected {"correlation_id":"adcp-conformance.acme.dev.3.1b4e28ba-2fa1-11d2-883f-0016d3cca427"}; found absent'),
    ).toBe('expected {"correlation_id":"<correlation-id>"}; found absent');
    expect(normaliseMessage('media_buy 0f8fad5b-d9cb-469f-a165-70867728950e not found')).toBe('media_buy <uuid> not found');
    expect(normaliseMessage('at 2026-12-01T07:00:04.123Z and 2026-12-01 07:00 and 1764572404123')).toBe(
      'at <time> and <time> and <epoch-ms>',
    );
    expect(normaliseMessage('no answer within 30000 ms; took 1.5s; 12ms')).toBe('no answer within <duration>; took <duration>; <duration>');
    expect(normaliseMessage('http://127.0.0.1:41234/mcp and localhost:8080')).toBe('http://127.0.0.1:<port>/mcp and localhost:<port>');
    expect(normaliseMessage('session 9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08')).toBe('session <hex-id>');
    expect(normaliseMessage('/tmp/adcp-conformance-work-AbC123/x')).toBe('/tmp/adcp-conformance-work-<dir>/x');
    // What identifies the finding is kept: the MCP revision, limits, codes.
    expect(normaliseMessage('MCP 2025-11-25: retry_after 86400 > 3600; 4096 bytes')).toBe(
      'MCP 2025-11-25: retry_after 86400 > 3600; 4096 bytes',
    );
  });
});

describe('the exit gate', () => {
  const regression = {
    against: { startedAt: null, harnessVersion: null },
    newFailures: [{ agent: 'a', check: 'c.x', tool: 't', message: '' }],
    fixed: [],
    flaky: [],
    stillFailing: 0,
    newlyUnreachable: [],
    backOnline: [],
    added: [],
    removed: [],
  };
  const quiet = { ...regression, newFailures: [] };
  const down = agent('down', [init(false)], { reachable: false });
  test('--fail-on any: as before (3 beats 1)', () => {
    expect(gateExitCode(now([down, agent('b', [fail('envelope.flat', 't')])], { comparison: quiet }))).toBe(3);
  });
  test('--fail-on regressions: 1 for a regression, else 0 — an unreachable agent that is not newly so does not make it 3', () => {
    expect(gateExitCode(now([down], { failOn: 'regressions', comparison: regression }))).toBe(1);
    expect(gateExitCode(now([down, agent('b', [fail('envelope.flat', 't')])], { failOn: 'regressions', comparison: quiet }))).toBe(0);
    expect(gateExitCode(now([down], { failOn: 'regressions', comparison: { ...quiet, newlyUnreachable: [{ agent: 'down' }] } }))).toBe(1);
  });
  test('a run cut short is 3 under either; a config error found during the run is 2', () => {
    expect(gateExitCode(now([], { failOn: 'regressions', comparison: quiet, cutShort: 'interrupted' }))).toBe(3);
    expect(
      gateExitCode(
        now([agent('a', [], { configErrors: ['c.yaml: /agents/0/expect/x › y: names tool …'] })], {
          failOn: 'regressions',
          comparison: quiet,
        }),
      ),
    ).toBe(2);
  });
  test('report.json carries the gate: exitCode, failOn, and complete as the verdict has it', () => {
    const json = buildReportJson(now([down], { failOn: 'regressions', comparison: quiet }));
    expect([json.exitCode, json.failOn, json.complete, json.verdict]).toEqual([0, 'regressions', false, 'incomplete']);
    expect(json.comparison).toEqual(quiet);
  });
});

describe('loadPreviousReport', () => {
  const dirs: string[] = [];
  afterAll(async () => Promise.all(dirs.map((d) => rm(d, { recursive: true, force: true }))));
  const file = async (text: string) => {
    const dir = await mkdtemp(join(tmpdir(), 'adcp-compare-'));
    dirs.push(dir);
    await writeFile(join(dir, 'report.json'), text);
    return join(dir, 'report.json');
  };
  test('reads a report.json v2; says what is wrong with anything else', async () => {
    const good = await file(JSON.stringify(buildReportJson(now([agent('a', [init(true)])]))));
    expect((await loadPreviousReport(good)).agents.map((a) => a.name)).toEqual(['a']);
    await expect(loadPreviousReport(join(tmpdir(), 'no-such-dir-adcp', 'report.json'))).rejects.toThrow(/cannot read it \(ENOENT\)/);
    await expect(loadPreviousReport(await file('{nope'))).rejects.toThrow(/not JSON/);
    await expect(loadPreviousReport(await file('{"schemaVersion":1,"agents":[]}'))).rejects.toThrow(
      /not a report\.json of schemaVersion 2/,
    );
    await expect(loadPreviousReport(await file('{"schemaVersion":2,"agents":[{"name":"a"}]}'))).rejects.toThrow(
      /\/agents\/0 is not an agent/,
    );
    await expect(
      loadPreviousReport(await file('{"schemaVersion":2,"agents":[{"name":"a","reachable":true,"outcomes":[{"check":1}]}]}')),
    ).rejects.toThrow(/\/agents\/0\/outcomes\/0 is not an outcome/);
  });
});
