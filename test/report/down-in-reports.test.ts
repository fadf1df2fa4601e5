// An unreachable agent's down reason is the one text every report gives for it: the verdict reason,
// report.json's `down` (valid against report.schema.json), the JUnit `incomplete` property and the
// comparison's "newly unreachable" line.
import { describe, expect, test } from 'vitest';
import { compareReports } from '../../harness/report/compare.ts';
import { buildReportJson } from '../../harness/report/json.ts';
import { agentProperties } from '../../harness/report/junit.ts';
import { incompleteReason, type AgentReport, type RunReport } from '../../harness/report/model.ts';
import { reportSchemaErrors } from '../run/nightly.helpers.ts';
import { agent, outcome } from './fixtures.ts';

const detail = "the server exited with code 1 before answering initialize: Error: Cannot find module 'x'";
const down: AgentReport = agent(
  'crashes',
  [
    outcome({
      check: 'transport.initialize',
      tool: 'initialize',
      status: 'fail',
      message: `at initialize: expected an answer; found ${detail}`,
    }),
  ],
  {
    reachable: false,
    protocolVersion: null,
    down: { cause: 'exited', detail, fix: 'run the command yourself, from the same directory, and fix the error it prints' },
  },
);
const report: RunReport = { agents: [down], strict: false, cutShort: null };

describe('down in the reports', () => {
  test('the verdict reason is `unreachable: <detail>`; without a down reason the old words stay', () => {
    expect(incompleteReason(down, false)).toBe(`unreachable: ${detail}`);
    const { down: _gone, ...without } = down;
    expect(incompleteReason(without, false)).toBe('initialize did not answer');
  });

  test('report.json carries it, and still validates', () => {
    const json = buildReportJson(report);
    expect(json.agents[0]).toMatchObject({ down: down.down, verdictReason: `unreachable: ${detail}` });
    expect(reportSchemaErrors(json)).toBeNull();
    const bad = { ...json, agents: [{ ...json.agents[0], down: { cause: 'gremlins', detail: 'x', fix: 'y' } }] };
    expect(reportSchemaErrors(bad)).not.toBeNull();
  });

  test('the JUnit incomplete property says it', () => {
    expect(agentProperties(down, false)).toContainEqual(['incomplete', `unreachable: ${detail}`]);
  });

  test('a comparison names why an agent is newly unreachable', () => {
    const previous = { run: null, strict: false, agents: [{ name: 'crashes', reachable: true, outcomes: [] }] };
    expect(compareReports(previous, report).newlyUnreachable).toEqual([{ agent: 'crashes', message: detail }]);
  });
});
