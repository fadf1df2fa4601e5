import { describe, expect, test } from 'vitest';
import { buildReportJson, reportJsonText } from '../../harness/report/json.ts';
import { exitCodeOf } from '../../harness/report/model.ts';
import { agent, outcome, sampleReport } from './fixtures.ts';
import type { RunReport } from '../../harness/report/model.ts';

describe('buildReportJson', () => {
  test('has the documented shape', () => {
    const json = buildReportJson(sampleReport());
    expect(json.schemaVersion).toBe(2);
    expect(Object.keys(json.agents[0] ?? {})).toEqual([
      'name',
      'verdict',
      'verdictLabel',
      'verdictText',
      'verdictReason',
      'transport',
      'protocolVersion',
      'server',
      'adcpVersion',
      'adcpVersionReason',
      'reachable',
      'incomplete',
      'aborted',
      'durationMs',
      'outcomes',
      'layers',
      'summary',
    ]);
    expect(json.agents[0]).toMatchObject({
      verdict: 'nonconformant',
      verdictText: 'nonconformant to AdCP 3.0 per adcp-conformance 0.1.0 (1 baselined failure not counted)',
      verdictReason: null,
    });
    expect(json.agents[0]?.layers).toEqual({ validate_root: 3, legacy_wrapper: 1, missing: 0, schema: 0 });
    expect(json.agents[0]?.outcomes[1]).toEqual({
      check: 'envelope.status',
      tool: 'get_products',
      status: 'fail',
      message: 'at /structuredContent/status: expected a task status, found "done"',
      severity: 'MUST',
      spec: 'AdCP · MCP response extraction',
      specUrl: 'https://adcontextprotocol.org/docs/building/by-layer/L0/mcp-response-extraction',
      fix: 'send status: "completed"',
      pointer: '/structuredContent/status',
      expected: 'a task status',
      found: '"done"',
      durationMs: 3,
      evidence: { request: 'get_products {"brief":"x"}', answer: 'structuredContent: {"status":"done"}' },
    });
  });

  test('counts per agent and in total; baselined failures count apart from fail', () => {
    const json = buildReportJson(sampleReport());
    const counts = { fail: 1, warn: 1, notApplicable: 1, untested: 1, baselined: 1, coveredByBaseline: 0 };
    expect(json.agents[0]?.summary).toEqual({ pass: 1, ...counts });
    expect(json.summary).toEqual({ pass: 2, ...counts });
    expect(json.agents[0]?.outcomes[5]?.baseline).toBe('known, ticket ADCP-12');
    expect(json.verdict).toBe('nonconformant');
    expect(json.exitCode).toBe(1);
    expect(json.complete).toBe(true);
  });

  test('an unreachable agent makes the report incomplete (exit 3)', () => {
    const report = {
      strict: false,
      cutShort: null,
      agents: [
        agent('down', [outcome({ check: 'transport.initialize', tool: 'initialize', status: 'fail' })], {
          reachable: false,
          protocolVersion: null,
        }),
      ],
    };
    const json = buildReportJson(report);
    expect(json.exitCode).toBe(3);
    expect(json.complete).toBe(false);
    expect(json.verdict).toBe('incomplete');
    expect(json.agents[0]?.verdictReason).toBe('initialize did not answer');
    expect(json.agents[0]?.outcomes[0]).toMatchObject({ check: 'transport.initialize', status: 'fail' });
  });
});

describe('reportJsonText', () => {
  const whole = (r: RunReport) => `${JSON.stringify(buildReportJson(r), null, 2)}\n`;
  const pieces = (r: RunReport) => [...reportJsonText(r)];

  test('the same text as the whole report serialized at once, one agent a piece', () => {
    const r = sampleReport();
    expect(pieces(r)).toHaveLength(r.agents.length + 2);
    expect(pieces(r).join('')).toBe(whole(r));
    const strict = sampleReport(true);
    expect(pieces(strict).join('')).toBe(whole(strict));
  });

  test('no agents, one agent, and seller text that imitates the agents key', () => {
    const none: RunReport = { strict: false, cutShort: null, agents: [] };
    expect(pieces(none).join('')).toBe(whole(none));
    // A seller's string holding the key as JSON writes it at the top level: escaped there, never matched.
    const sneaky = agent('x\n  "agents": []', [outcome({ check: 'envelope.flat', tool: '\n  "agents": []', status: 'pass' })]);
    const one: RunReport = { strict: false, cutShort: '\n  "agents": [] }', agents: [sneaky] };
    expect(pieces(one).join('')).toBe(whole(one));
    expect(JSON.parse(pieces(one).join('')).agents[0].name).toBe('x\n  "agents": []');
  });
});

describe('exitCodeOf', () => {
  const pass = outcome({ check: 'envelope.flat', tool: 't', status: 'pass' });
  const warn = outcome({ check: 'error.recovery', tool: 't', status: 'warn', severity: 'SHOULD' });
  const fail = outcome({ check: 'envelope.flat', tool: 't', status: 'fail' });
  test('0 when only passes and warnings', () =>
    expect(exitCodeOf({ strict: false, cutShort: null, agents: [agent('a', [pass, warn])] })).toBe(0));
  test('warnings fail under --strict', () =>
    expect(exitCodeOf({ strict: true, cutShort: null, agents: [agent('a', [pass, warn])] })).toBe(1));
  test('a baselined fail does not fail the run', () =>
    expect(exitCodeOf({ strict: true, cutShort: null, agents: [agent('a', [{ ...fail, baseline: 'known' }])] })).toBe(0));
  test('1 on a failure', () => expect(exitCodeOf({ strict: false, cutShort: null, agents: [agent('a', [fail])] })).toBe(1));
  test('3 beats 1 when the run was cut short or an agent is incomplete', () => {
    expect(exitCodeOf({ strict: false, cutShort: 'interrupted', agents: [agent('a', [fail])] })).toBe(3);
    expect(exitCodeOf({ strict: false, cutShort: null, agents: [agent('a', [fail], { incomplete: 'timeout' })] })).toBe(3);
  });
});
