// One agent's capture → the data its suite needs: sanitized facts and outcomes, baseline applied.
// Everything a seller controls passes through sellerText() here, once, before any report sees it.
import type { AgentCapture } from '../capture/exchange.ts';
import type { CheckContext, Outcome } from '../checks/check.ts';
import { judgeAgent, layerCounts } from '../checks/engine.ts';
import { createSchemaService, type SchemaSource } from '../schemas/index.ts';
import type { AgentFacts, ReportOutcome } from '../report/model.ts';
import { optionalText, sellerText } from '../sanitize.ts';
import type { AgentSuiteData } from './suite-data.ts';

export interface JudgeOptions {
  index: number;
  schemaSource: SchemaSource;
  select?: (checkId: string) => boolean;
  /** The agent's `expect` baseline: check id or `id › tool` → reason. */
  expect?: Readonly<Record<string, string>>;
  secrets: readonly string[];
  strict: boolean;
}

const INITIALIZE_SPEC = 'MCP lifecycle · initialize';

export async function judgeCapture(capture: AgentCapture, opts: JudgeOptions): Promise<AgentSuiteData> {
  const secrets = opts.secrets;
  const notes: string[] = [];
  const ctx: CheckContext = {};
  let adcpVersion: { version: string; reason: string } | null = null;
  if (capture.initialize.ok) {
    try {
      const schemas = await createSchemaService(capture, opts.schemaSource);
      ctx.schemas = schemas;
      adcpVersion = schemas.adcpVersion;
    } catch (err) {
      // Schema checks then skip with their own reason; the run itself goes on.
      process.stderr.write(`adcp-conformance: ${sellerText(capture.agent.name, secrets, 200)}: AdCP schemas unavailable, schema checks skip: ${sellerText(err instanceof Error ? err.message : String(err), secrets)}\n`);
    }
  }

  let outcomes: Outcome[];
  try {
    outcomes = judgeAgent(capture, ctx, opts.select);
  } catch (err) {
    outcomes = [];
    notes.push(`judging failed: ${err instanceof Error ? err.message : String(err)}`);
  }
  // An unreachable agent always shows its failing handshake, whatever --check selected.
  if (!capture.initialize.ok && !outcomes.some((o) => o.check === 'transport.initialize' && o.status === 'fail')) {
    const failure = capture.initialize.failure;
    outcomes.unshift({
      check: 'transport.initialize',
      tool: 'initialize',
      status: 'fail',
      severity: 'MUST',
      message: `at /initialize: expected an initialize answer, found ${failure.kind}: ${failure.message}`,
      pointer: '/initialize',
      expected: 'an initialize answer',
      found: `${failure.kind}: ${failure.message}`,
      spec: INITIALIZE_SPEC,
    });
  }

  const init = capture.initialize;
  const serverInfo: unknown = init.ok ? init.serverInfo : undefined;
  const aborted = capture.aborted ? `${capture.aborted.kind}: ${capture.aborted.message}` : null;
  const facts: AgentFacts = {
    name: sellerText(capture.agent.name, secrets, 200),
    index: opts.index,
    transport: capture.agent.transport,
    protocolVersion: init.ok ? optionalText(init.protocolVersion, secrets) : null,
    server: { name: optionalText(field(serverInfo, 'name'), secrets), version: optionalText(field(serverInfo, 'version'), secrets) },
    adcpVersion: adcpVersion ? sellerText(adcpVersion.version, secrets, 100) : null,
    adcpVersionReason: adcpVersion ? sellerText(adcpVersion.reason, secrets, 200) : null,
    layers: layerCounts(capture),
    reachable: init.ok,
    incomplete: notes.length ? sellerText(notes.join('; '), secrets) : null,
    aborted: aborted === null ? null : sellerText(aborted, secrets),
  };
  return { facts, outcomes: outcomes.map((o) => reportOutcome(o, opts.expect, secrets)), strict: opts.strict };
}

function reportOutcome(o: Outcome, expect: Readonly<Record<string, string>> | undefined, secrets: readonly string[]): ReportOutcome {
  const out: ReportOutcome = {
    check: sellerText(o.check, secrets, 200),
    tool: sellerText(o.tool, secrets, 200),
    status: o.status,
    severity: o.severity,
    message: sellerText(o.message, secrets),
    spec: sellerText(o.spec, secrets, 300),
  };
  if (o.pointer !== undefined) out.pointer = sellerText(o.pointer, secrets, 300);
  if (o.expected !== undefined) out.expected = sellerText(o.expected, secrets, 500);
  if (o.found !== undefined) out.found = sellerText(o.found, secrets, 500);
  if (o.status === 'fail' || o.status === 'warn') {
    const reason = baselineReason(expect, o.check, o.tool);
    if (reason !== undefined) out.baseline = sellerText(reason, secrets, 300);
  }
  return out;
}

/** `id › tool` first (the narrower entry; `id > tool` is accepted too), then the bare check id. */
export function baselineReason(expect: Readonly<Record<string, string>> | undefined, check: string, tool: string): string | undefined {
  if (!expect) return undefined;
  const own = (key: string) => (Object.prototype.hasOwnProperty.call(expect, key) ? expect[key] : undefined);
  return own(`${check} › ${tool}`) ?? own(`${check} > ${tool}`) ?? own(check);
}

function field(obj: unknown, key: string): unknown {
  return obj !== null && typeof obj === 'object' && Object.prototype.hasOwnProperty.call(obj, key) ? (obj as Record<string, unknown>)[key] : undefined;
}
