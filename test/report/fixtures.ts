// A small RunReport with every kind of outcome, for the report unit tests.
import type { AgentReport, ReportOutcome, RunReport } from '../../harness/report/model.ts';

export const outcome = (o: Partial<ReportOutcome> & Pick<ReportOutcome, 'check' | 'tool' | 'status'>): ReportOutcome => ({
  severity: 'MUST',
  message: '',
  spec: 'AdCP · MCP response extraction',
  specUrl: 'https://adcontextprotocol.org/docs/building/by-layer/L0/mcp-response-extraction',
  ...o,
});

export const agent = (name: string, outcomes: ReportOutcome[], extra: Partial<AgentReport> = {}): AgentReport => ({
  name,
  index: 0,
  transport: 'stdio',
  protocolVersion: '2025-11-25',
  server: { name: 'ref', version: '1.0.0' },
  adcpVersion: '3.0',
  adcpVersionReason: 'default',
  layers: { validate_root: 3, legacy_wrapper: 1, missing: 0, schema: 0 },
  reachable: true,
  incomplete: null,
  aborted: null,
  durationMs: 120,
  outcomes,
  ...extra,
});

export function sampleReport(strict = false): RunReport {
  return {
    strict,
    cutShort: null,
    agents: [
      agent('alpha', [
        outcome({ check: 'envelope.flat', tool: 'get_products', status: 'pass' }),
        outcome({
          check: 'envelope.status',
          tool: 'get_products',
          status: 'fail',
          message: 'at /structuredContent/status: expected a task status, found "done"',
          pointer: '/structuredContent/status',
          expected: 'a task status',
          found: '"done"',
          fix: 'send status: "completed"',
          durationMs: 3,
          evidence: { request: 'get_products {"brief":"x"}', answer: 'structuredContent: {"status":"done"}' },
        }),
        outcome({
          check: 'error.recovery',
          tool: 'get_products',
          status: 'warn',
          severity: 'SHOULD',
          message: 'at /adcp_error/recovery: expected transient|correctable|terminal, found absent',
          pointer: '/adcp_error/recovery',
          expected: 'transient|correctable|terminal',
          found: 'absent',
        }),
        outcome({
          check: 'capabilities.tool',
          tool: 'get_adcp_capabilities',
          status: 'untested',
          severity: 'SHOULD',
          message: 'tool absent',
        }),
        outcome({
          check: 'error.code',
          tool: 'get_products',
          status: 'not-applicable',
          message: 'not an error result (isError is not true)',
        }),
        outcome({
          check: 'envelope.context-echo',
          tool: 'get_products',
          status: 'fail',
          message: 'at /context: expected the sent context, found absent',
          baseline: 'known, ticket ADCP-12',
        }),
      ]),
      agent('beta | <b>', [outcome({ check: 'envelope.flat', tool: 'list_creatives', status: 'pass' })], {
        index: 1,
        transport: 'http',
        server: { name: null, version: null },
      }),
    ],
  };
}
