// A seller whose every failure is baselined is "conformant with baseline" in every place a verdict is shown:
// the terminal table's cell, report.json's `verdictLabel` (agent and run) and the JUnit `verdict.label`
// property. The `verdict` itself stays the three-valued enum that --compare, the badge and the exit code read.
// And a grouped baselined finding excused by two entries shows both reasons.
import { describe, expect, test } from 'vitest';
import { buildReportJson } from '../../harness/report/json.ts';
import { agentProperties } from '../../harness/report/junit.ts';
import type { RunReport } from '../../harness/report/model.ts';
import { renderTerminalSummary } from '../../harness/report/terminal.ts';
import { reportSchemaErrors } from '../run/nightly.helpers.ts';
import { agent, outcome } from './fixtures.ts';

const pass = outcome({ check: 'envelope.flat', tool: 'get_products', status: 'pass' });
const echo = (tool: string, baseline: string) =>
  outcome({ check: 'envelope.context-echo', tool, status: 'fail', message: 'context not echoed', baseline });

function run(...agents: ReturnType<typeof agent>[]): RunReport {
  return { strict: false, cutShort: null, agents: agents.map((a, index) => ({ ...a, index })) };
}

const baselined = agent('baselined', [pass, echo('get_products', 'T-1')], { baseline: { entries: 1, applied: true } });
const clean = agent('clean', [pass]);

/** The table row of an agent: its name, then its verdict cell. */
function tableRow(report: RunReport, name: string): string {
  return (
    renderTerminalSummary(report)
      .split('\n')
      .find((l) => l.startsWith(`${name} `)) ?? ''
  );
}

describe('conformant with baseline', () => {
  test('the terminal table cell says "conformant with baseline"; a clean agent just "conformant"', () => {
    const report = run(baselined, clean);
    expect(tableRow(report, 'baselined')).toMatch(/^baselined\s+conformant with baseline\s+3\.0\s/);
    expect(tableRow(report, 'clean')).toMatch(/^clean\s+conformant\s+3\.0\s/);
  });

  test('report.json: verdictLabel beside the unchanged verdict, per agent and for the run; valid against report.schema.json', () => {
    const json = buildReportJson(run(baselined, clean));
    expect(json.agents.map((a) => [a.verdict, a.verdictLabel])).toEqual([
      ['conformant', 'conformant with baseline'],
      ['conformant', 'conformant'],
    ]);
    expect([json.verdict, json.verdictLabel]).toEqual(['conformant', 'conformant with baseline']);
    expect(reportSchemaErrors(json)).toBeNull();
    expect(buildReportJson(run(clean)).verdictLabel).toBe('conformant');
    // Not conformant: the label is the verdict, whatever was baselined.
    const failing = agent('failing', [
      echo('get_products', 'T-1'),
      outcome({ check: 'envelope.status', tool: 'get_products', status: 'fail' }),
    ]);
    expect(buildReportJson(run(failing, baselined)).verdictLabel).toBe('nonconformant');
  });

  test('JUnit: a verdict.label property next to verdict', () => {
    const props = agentProperties(baselined, false);
    const at = props.findIndex(([k]) => k === 'verdict');
    expect(props.slice(at, at + 2)).toEqual([
      ['verdict', 'conformant'],
      ['verdict.label', 'conformant with baseline'],
    ]);
    expect(agentProperties(clean, false)).toContainEqual(['verdict.label', 'conformant']);
  });
});

describe('a baselined finding excused by two entries', () => {
  test("the terminal shows each entry's reason with the calls it excused, not only the first", () => {
    const two = agent('two', [pass, echo('get_products', 'T-1'), echo('get_media_buy_delivery', 'T-2')], {
      baseline: { entries: 2, applied: true },
    });
    const line = renderTerminalSummary(run(two))
      .split('\n')
      .find((l) => l.includes('envelope.context-echo'));
    expect(line).toContain('baseline: T-1 (get_products) · T-2 (get_media_buy_delivery)');
  });

  test('one reason for every call is shown once', () => {
    const one = agent('one', [pass, echo('get_products', 'T-1'), echo('get_media_buy_delivery', 'T-1')]);
    const line = renderTerminalSummary(run(one))
      .split('\n')
      .find((l) => l.includes('envelope.context-echo'));
    expect(line).toMatch(/baseline: T-1 {2}\(failed \(baselined\) on 2 of 2 calls\)$/);
  });
});
