// One `probe`: a session with one agent (get_adcp_capabilities first when listed, for the AdCP version),
// the probed call, judging by the whole catalog, and the text shown for that call: request, raw answer,
// extracted payload, and every check's verdict on it with the fix hint. Judged exactly as `run` judges
// (judgeCapture); only the probed call's outcomes are shown and decide the exit code.
import type { AgentCapture, Exchange } from '../../record/exchange.ts';
import { captureAgent } from '../../capture/capture-agent.ts';
import { defaultProbes, INVALID_PROBE } from '../../capture/probes.ts';
import type { AgentConfig, Probe } from '../../config/types.ts';
import { extractError } from '../../extract/error.ts';
import { locateSuccess } from '../../extract/success.ts';
import { agentVerdict, countOutcomes, verdictText, type AgentReport, type ReportOutcome } from '../../report/model.ts';
import { paintFor, type Paint } from '../../report/terminal.ts';
import type { SchemaSource } from '../../schemas/index.ts';
import { escapeVisible, sellerText, truncate } from '../../sanitize.ts';
import { HARNESS_VERSION } from '../../version.ts';
import { NOT_A_TOOL_RESULT, SUCCESS_RULES_NOT_APPLICABLE } from '../../checks/views.ts';
import { nearest } from '../nearest.ts';
import { waitingLine } from '../progress.ts';
import type { RunSnapshot } from './watch.ts';
import { judgeCapture, warmJudge } from '../judge/index.ts';
import { wireLogger } from '../wire-log.ts';
import initializeCheck from '../../checks/transport/initialize.ts';
import toolsListCheck from '../../checks/transport/tools-list.ts';

const CAPABILITIES = 'get_adcp_capabilities';

export interface ProbeRun {
  agent: AgentConfig;
  probe: Probe;
  /** No --args: the harness's own arguments for the AdCP tasks it knows. */
  defaultArgs: boolean;
  strict: boolean;
  schemaSource: SchemaSource;
  verbose: boolean;
  signal: AbortSignal;
  /** Colour (default: stdout's). */
  paint?: Paint;
  /** The judge worker warming up, started by the caller (default: started here). */
  warming?: () => Promise<void>;
}

export interface ProbeShown {
  text: string;
  code: 0 | 1 | 2 | 3;
  snapshot: RunSnapshot;
  /** A usage error found only by asking the agent (a tool it does not list): one line, for stderr. */
  usage?: string;
}

/** What a valid request answered with an error leaves unverified (the probe's verdict cannot be green). */
export const NOT_EXERCISED = 'success rules not exercised';

/** The arguments of the probe: as given, or the harness's own valid (or invalid) probe for a known task. */
export function probeArguments(probe: Probe, defaultArgs: boolean, agent: AgentConfig): Record<string, unknown> {
  if (!defaultArgs) return probe.arguments;
  if (probe.intent === 'invalid') return probe.tool === INVALID_PROBE.tool ? { ...INVALID_PROBE.arguments } : {};
  const known = defaultProbes([{ name: probe.tool }], { ...agent, sandbox: true }).find(
    (p) => p.tool === probe.tool && p.intent !== 'invalid',
  );
  return known ? known.arguments : {};
}

export async function probeOnce(r: ProbeRun): Promise<ProbeShown> {
  const { probes: _configured, ...agent } = r.agent; // the config's own probes are not this call
  const probe: Probe = { ...r.probe, arguments: probeArguments(r.probe, r.defaultArgs, r.agent) };
  const started = performance.now();
  // The judge worker starts and compiles our schemas while the seller starts and answers (warm-schemas.ts).
  const warming = r.warming ? r.warming() : warmJudge(r.schemaSource, r.agent, [CAPABILITIES, probe.tool], r.signal);
  const adcpReleases = await r.schemaSource.versions().catch(() => []);
  // A slow call says what it waits on, on stderr (bounded: at 5 s or half a shorter timeout, then every WAITING_EVERY_MS).
  const waiting = waitingLine(process.stderr, process.env, agent.secrets);
  const capture = await captureAgent(agent, {
    scenarios: false,
    signal: r.signal,
    adcpReleases,
    // get_adcp_capabilities goes first by itself (the handshake, capture-agent.ts). A tool the agent does
    // not list is not called: that is the user's typo, told below, not the seller's failure.
    probes: (tools, listed) => (listed && !tools.some((t) => t.name === probe.tool) ? [] : [probe]),
    ...(r.verbose ? { onWire: wireLogger(agent.name, agent.secrets) } : {}),
    onWaiting: waiting.notice,
  });
  waiting.clear();
  await warming;
  const unlisted = unlistedTool(capture, probe.tool, r.agent.secrets);
  if (unlisted) {
    const text = `adcp-conformance probe: ${unlisted.message}\n${unlisted.listing}\n`;
    const statuses = new Map<string, string>();
    return { text, code: 2, usage: text, snapshot: { code: 2, verdict: 'usage error', statuses } };
  }
  const data = await judgeCapture(capture, {
    index: 0,
    schemaSource: r.schemaSource,
    secrets: agent.secrets,
    strict: r.strict,
    interrupted: r.signal.aborted,
    durationMs: performance.now() - started,
  });
  const last = capture.exchanges.length - 1;
  const call = last >= 0 && capture.exchanges[last]?.tool === probe.tool ? last : undefined;
  const judged =
    call !== undefined
      ? data.outcomes.filter((o) => o.call === call)
      : data.outcomes.filter((o) => o.check === initializeCheck.id || o.check === toolsListCheck.id);
  const x = call === undefined ? undefined : capture.exchanges[call];
  const refused = x ? errorAnswerToValid(x) : false;
  const outcomes = refused ? judged.map(notExercised) : judged;
  const report: AgentReport = { ...data.facts, outcomes };
  let verdict = agentVerdict(report, r.strict);
  // Never green on the unverified: whatever the catalog said, an error answer left the success rules unrun.
  if (refused && verdict === 'conformant') verdict = 'incomplete';
  const code = verdict === 'incomplete' ? 3 : verdict === 'nonconformant' ? 1 : 0;
  const paint = r.paint ?? paintFor(process.stdout, process.env);
  const said = verdictText(verdict, report.adcpVersion, HARNESS_VERSION);
  const text = render(capture, x, report, refused ? `${said}: ${NOT_EXERCISED}` : said, code, r, paint, refused);
  return { text, code, snapshot: snapshotOf(outcomes, verdict, code) };
}

/**
 * The probed tool when the agent's tools/list answered without it: a usage error (exit 2) with the listed
 * name closest to it, not a call the seller is blamed for. Undefined when listed or when tools/list failed.
 */
function unlistedTool(capture: AgentCapture, tool: string, secrets: readonly string[]): { message: string; listing: string } | undefined {
  const list = capture.toolsList;
  if (!capture.initialize.ok || !list?.ok) return undefined;
  const names = list.tools.flatMap((t) => {
    const name = t !== null && typeof t === 'object' && Object.hasOwn(t, 'name') ? (t as { name: unknown }).name : undefined;
    return typeof name === 'string' ? [name] : [];
  });
  if (names.includes(tool)) return undefined;
  const near = nearest(tool, names);
  const shown = (name: string) => `'${escapeVisible(sellerText(name, secrets, 128), 128)}'`;
  const message = `the agent lists no tool ${shown(tool)}${near ? ` (did you mean ${shown(near)}?)` : ''}`;
  const first = names.slice(0, 20).map(shown).join(', ');
  const listing = names.length
    ? `  the agent lists ${names.length} tool(s): ${first}${names.length > 20 ? `, … (+${names.length - 20})` : ''}`
    : '  the agent lists no tools at all';
  return { message, listing };
}

/** A call made as a valid request that got an error answer (an AdCP error result or a JSON-RPC error). */
function errorAnswerToValid(x: Exchange): boolean {
  if (x.intent !== 'valid') return false;
  const o = x.outcome;
  if (o.kind === 'jsonrpc-error') return true;
  return o.kind === 'result' && o.result !== null && typeof o.result === 'object' && (o.result as { isError?: unknown }).isError === true;
}

/**
 * A success rule that did not apply only because the valid request got an error answer: it applied to the
 * call the user asked for and was never exercised — untested, so the verdict cannot be green.
 */
function notExercised(o: ReportOutcome): ReportOutcome {
  if (o.status !== 'not-applicable') return o;
  const success = o.message === SUCCESS_RULES_NOT_APPLICABLE || (o.message === NOT_A_TOOL_RESULT && !o.check.startsWith('error.'));
  if (!success) return o;
  return { ...o, status: 'untested', message: `${NOT_EXERCISED}: the valid request got an error answer` };
}

/** The probed call's outcomes as `--watch` compares them. */
function snapshotOf(outcomes: readonly ReportOutcome[], verdict: string, code: number): RunSnapshot {
  const statuses = new Map<string, string>();
  const details = new Map<string, string>();
  for (const o of outcomes) {
    const key = `${o.check} › ${o.tool}`;
    statuses.set(key, o.status);
    if (o.status === 'fail' || o.status === 'warn') details.set(key, `${o.message}${o.fix ? ` · fix: ${o.fix}` : ''}`);
  }
  return { code, verdict, statuses, details };
}

const MARK: Record<ReportOutcome['status'], string> = { pass: '✓', fail: '✗', warn: '!', untested: '?', 'not-applicable': '–' };

function render(
  capture: AgentCapture,
  x: Exchange | undefined,
  report: AgentReport,
  verdict: string,
  code: number,
  r: ProbeRun,
  paint: Paint,
  refused = false,
): string {
  const secrets = r.agent.secrets;
  const out: string[] = [];
  const server = [report.server.name, report.server.version].filter((s) => s !== null).join(' ');
  const facts = [report.transport, report.protocolVersion ? `MCP ${report.protocolVersion}` : null, server || null]
    .filter(Boolean)
    .join(', ');
  const adcp = report.adcpVersion ? ` · AdCP ${report.adcpVersion}${report.adcpVersionReason ? ` (${report.adcpVersionReason})` : ''}` : '';
  out.push(paint.bold(`probe ${escapeVisible(r.probe.tool, 128)} → ${report.name}`) + paint.dim(` (${facts})${adcp}`));
  if (report.down) out.push(paint.red(`unreachable: ${report.down.detail}`), `  ${paint.bold('fix:')} ${report.down.fix}`);
  else if (!capture.initialize.ok)
    out.push(
      paint.red(`unreachable: ${sellerText(`${capture.initialize.failure.kind}: ${capture.initialize.failure.message}`, secrets, 600)}`),
    );
  if (x) {
    out.push(
      '',
      paint.bold('request') +
        paint.dim(`  tools/call ${escapeVisible(x.tool, 128)}${x.intent === 'invalid' ? ' (the invalid-input probe)' : ''}`),
    );
    out.push(indent(prettyBounded(x.request.arguments, 3000, 60)));
    out.push('', paint.bold('answer') + paint.dim(`  ${answerFacts(x)}`));
    out.push(indent(answerText(x)));
    if (typeof x.stderrDuring === 'string' && x.stderrDuring.trim() !== '') {
      out.push(
        '',
        paint.bold('stderr during the call'),
        indent(
          x.stderrDuring
            .trim()
            .split('\n')
            .slice(-20)
            .map((l) => escapeVisible(sellerText(l, secrets, 400), 400))
            .join('\n'),
        ),
      );
    }
    out.push('', ...payloadLines(x, paint));
  } else if (capture.initialize.ok) {
    out.push('', paint.yellow(`the call was not made${capture.aborted ? `: ${sellerText(capture.aborted.message, secrets, 400)}` : ''}`));
  }
  if (x && refused) {
    const e = extractError(x.outcome);
    const field = (k: string) => (e && Object.hasOwn(e.error, k) ? e.error[k] : undefined);
    const errorCode = field('code');
    const message = field('message');
    const what = e
      ? sellerText(
          `${typeof errorCode === 'string' || typeof errorCode === 'number' ? errorCode : 'no code'}: ${typeof message === 'string' ? message : ''}`,
          secrets,
          300,
        )
      : null;
    out.push(
      '',
      paint.yellow(
        `? ${NOT_EXERCISED}: the request was sent as a valid one and the seller answered with an error` +
          `${what ? ` (${escapeVisible(what, 300)})` : ''}, so no success rule of ${escapeVisible(x.tool, 128)} ran.`,
      ),
      paint.dim('  send arguments the seller accepts (--args JSON|@FILE), or judge the error path with --invalid'),
    );
  }
  const c = countOutcomes(report.outcomes);
  out.push(
    '',
    paint.bold('checks') +
      paint.dim(`  ${c.pass} pass · ${c.fail} fail · ${c.warn} warn · ${c.untested} untested · ${c.notApplicable} n/a`),
  );
  const width = Math.max(0, ...report.outcomes.map((o) => o.check.length));
  for (const o of report.outcomes) out.push(...outcomeLines(o, width, paint));
  const line = `${code === 0 ? '✓' : code === 1 ? '✗' : '⚠'} ${verdict} (this call) · exit ${code}`;
  out.push('', code === 0 ? paint.green(line) : code === 1 ? paint.red(line) : paint.yellow(line), '');
  return out.join('\n');
}

function indent(text: string): string {
  return text
    .split('\n')
    .map((l) => `  ${l}`)
    .join('\n');
}

function answerFacts(x: Exchange): string {
  const parts = [x.outcome.kind === 'result' ? 'a JSON-RPC result' : x.outcome.kind === 'jsonrpc-error' ? 'a JSON-RPC error' : 'no answer'];
  if (typeof x.bytes === 'number') parts.push(`${x.bytes} bytes`);
  parts.push(`${x.durationMs} ms`);
  if (x.http) parts.push(`HTTP ${x.http.status} ${escapeVisible(x.http.contentType ?? '', 80)}`);
  return parts.join(' · ');
}

function answerText(x: Exchange): string {
  const o = x.outcome;
  if (o.kind === 'transport-error') return escapeVisible(`${o.failure.kind}: ${o.failure.message}`, 2000);
  return prettyBounded(o.kind === 'result' ? o.result : o.error, 5000, 80);
}

/** The payload a conformant client extracts: the success data, or the AdCP error, and where it came from. */
function payloadLines(x: Exchange, paint: Paint): string[] {
  const o = x.outcome;
  if (o.kind === 'transport-error') return [paint.bold('payload') + paint.dim('  none: the call got no answer')];
  const error = extractError(o);
  if (error)
    return [
      paint.bold('payload') + paint.dim(`  an AdCP error (from ${error.source}, at ${escapeVisible(error.pointer, 120)})`),
      indent(prettyBounded(error.error, 3000, 60)),
    ];
  if (o.kind === 'result') {
    const success = locateSuccess(o.result);
    if (success)
      return [
        paint.bold('payload') + paint.dim(`  from ${success.path} (${success.pointer})`),
        indent(prettyBounded(success.data, 3000, 40)),
      ];
  }
  return [paint.bold('payload') + paint.dim('  none: a client extracts no AdCP data from this answer (see the checks below)')];
}

function outcomeLines(o: ReportOutcome, width: number, paint: Paint): string[] {
  const colour =
    o.status === 'pass'
      ? paint.green
      : o.status === 'fail'
        ? paint.red
        : o.status === 'warn' || o.status === 'untested'
          ? paint.yellow
          : paint.dim;
  const head = `  ${colour(MARK[o.status])} ${o.check.padEnd(width)}  ${colour(o.status)}${o.status === 'fail' || o.status === 'warn' ? paint.dim(` [${o.severity}]`) : ''}`;
  if (o.status === 'pass') return [head];
  if (o.status === 'not-applicable' || o.status === 'untested') return [`${head}  ${paint.dim(o.message)}`];
  const lines = [head, `      ${o.message}`];
  for (const e of (o.schemaErrors ?? []).slice(0, 8))
    lines.push(`      schema: ${e.pointer || '/'} ${e.keyword}: expected ${e.expected}; found ${e.found}`);
  const more = (o.schemaErrors?.length ?? 0) - 8 + (o.schemaErrorsOmitted ?? 0);
  if (more > 0) lines.push(`      … ${more} more schema error(s)`);
  if (o.evidence?.diagnosis) lines.push(`      diagnosis: ${o.evidence.diagnosis}`);
  if (o.evidence?.sameCauseAs) lines.push(paint.dim(`      same root cause as ${o.evidence.sameCauseAs}`));
  if (o.fix) lines.push(`      ${paint.bold('fix:')} ${o.fix}`);
  lines.push(paint.dim(`      spec: ${o.spec} — ${o.specUrl}`));
  return lines;
}

/** Pretty JSON of a seller value, bounded, every unsafe character escaped line by line. */
export function prettyBounded(value: unknown, maxChars: number, maxLines: number): string {
  let text: string;
  try {
    text = JSON.stringify(value, null, 2) ?? String(value);
  } catch (err) {
    text = err instanceof RangeError ? '[nested too deeply to show]' : '[unserializable value]';
  }
  const lines = truncate(text, maxChars).split('\n');
  const shown = lines.slice(0, maxLines).map((l) => escapeVisible(l, 400));
  if (lines.length > maxLines) shown.push(`… (+${lines.length - maxLines} lines)`);
  return shown.join('\n');
}
