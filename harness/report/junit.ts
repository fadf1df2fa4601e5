// junit.xml comes from vitest's own junit reporter. Vitest names a <testsuite> after its file, has no
// place for suite <properties>, writes an assertion's stack as the failure body and a test's own time,
// so this one small pass over its output renames each agent's suite, adds the agent facts (verdict,
// counts, not-applicable count) as <properties>, and rewrites each testcase (one per check × tool, see
// test-cases.ts) from its outcomes: the failure message is the diagnosis of each failing call (bounded),
// the body their evidence (no stack frame of ours), `time` the judged calls' real durations added up, and
// <skipped> carries the reason. Each suite's `time` is its agent's real wall time.
// It relies only on what vitest guarantees for its XML: every attribute value and text node is escaped,
// so a literal `<` always starts a tag and `</testcase>` never occurs inside one.
import { escapeXml } from '../sanitize.ts';
import { HARNESS_VERSION } from '../version.ts';
import { agentVerdict, incompleteReason, LAYERS, storyboardCounts, verdictText, type AgentReport } from './model.ts';
import { catalogCounts } from './counts.ts';
import { verdictLabel } from './gate.ts';
import { caseFailureBody, type TestCase } from './test-cases.ts';
import { accountLine, createdHeading, createdText, ENABLE_STATE_RULES, outOfReachLine } from './sandbox-notes.ts';
import { deliveryText, traceCallText, webhookHeading } from './task-notes.ts';

export interface JunitSuiteInfo {
  /** Base name of the suite file vitest ran for this agent (what vitest puts in `<testsuite name>`). */
  file: string;
  /** The agent's name, to replace the file name. */
  name: string;
  properties: ReadonlyArray<readonly [string, string]>;
  /** Each testcase (its outcomes aggregated), by the name vitest writes (`<describe> > <test>`). */
  cases: ReadonlyMap<string, TestCase>;
  /** The agent's real wall time (session and judging), in ms: the suite's `time`. Null when unknown (a replay). */
  durationMs?: number | null;
}

const SUITE_TAG = /<(\/?)(testsuites|testsuite)\b([^>]*?)(\/?)>/g;
const TESTCASE = /<testcase\b([^>]*?)(?:\/>|>([\s\S]*?)<\/testcase>)/g;
const SYSTEM_OUT = /<system-(?:out|err)>[\s\S]*?<\/system-(?:out|err)>/g;

export function decorateJunit(xml: string, suites: readonly JunitSuiteInfo[], runName = 'adcp-conformance'): string {
  const byFile = new Map(suites.map((s) => [s.file, s]));
  // Pass 1: each testcase from its outcome (suite membership does not matter: names are `agent > case`).
  const allCases = new Map<string, TestCase>();
  for (const s of suites) for (const [name, c] of s.cases) allCases.set(name, c);
  const rewritten = xml.replace(TESTCASE, (whole: string, attrs: string, body: string | undefined) => {
    const name = attr(attrs, 'name');
    const c = name === undefined ? undefined : allCases.get(name);
    return c ? testcase(attrs, body ?? '', c) : whole;
  });
  // Pass 2: suites renamed after their agent, with the agent's facts as properties.
  return rewritten.replace(SUITE_TAG, (tag: string, closing: string, element: string, attrs: string, selfClosing: string) => {
    if (closing) return tag;
    if (element === 'testsuites') return `<testsuites${withAttr(attrs, 'name', runName)}${selfClosing}>`;
    const name = attr(attrs, 'name');
    const suite = name === undefined ? undefined : byFile.get(baseName(name));
    if (!suite) return tag;
    const props = suite.properties.map(([k, v]) => `<property name="${escapeXml(k)}" value="${escapeXml(v)}"/>`);
    // vitest's suite time is the time its own test callbacks took (milliseconds of replaying verdicts): the agent's is the real one.
    const timed = typeof suite.durationMs === 'number' ? withAttr(attrs, 'time', (suite.durationMs / 1000).toFixed(3)) : attrs;
    const open = `<testsuite${withAttr(timed, 'name', suite.name)}${selfClosing}>`;
    return selfClosing ? open : `${open}\n<properties>${props.join('')}</properties>`;
  });
}

function testcase(attrs: string, body: string, c: TestCase): string {
  const time = c.durationMs !== undefined ? (c.durationMs / 1000).toFixed(3) : undefined;
  const head = `<testcase${time === undefined ? attrs : withAttr(attrs, 'time', time)}>`;
  if (c.status === 'pass' && !body.includes('<')) return `${head}${body}</testcase>`; // the common case: nothing to rewrite
  const kept = (body.match(SYSTEM_OUT) ?? []).join('\n');
  const hasFailure = /<(failure|error)\b/.test(body);
  if (hasFailure && c.status === 'fail') {
    const failure = `<failure message="${escapeXml(c.message)}" type="${escapeXml(c.check)}">${escapeXml(caseFailureBody(c))}</failure>`;
    return `${head}\n${failure}${kept ? `\n${kept}` : ''}\n</testcase>`;
  }
  if (/<skipped\b/.test(body) && c.status === 'skip') {
    return `${head}\n<skipped message="${escapeXml(c.message)}"/>${kept ? `\n${kept}` : ''}\n</testcase>`;
  }
  return `${head}${body}</testcase>`;
}

/** The JUnit properties of one agent's suite: its facts, its verdict and its counts. */
export function agentProperties(agent: AgentReport, strict: boolean): Array<[string, string]> {
  const verdict = agentVerdict(agent, strict);
  // The catalog's counts, as the tables and report.json's summary; the storyboards' apart.
  const counts = catalogCounts(agent);
  const props: Array<[string, string]> = [
    ['agent', agent.name],
    ['verdict', verdict],
    ['verdict.label', verdictLabel(agent, strict)],
    ['verdict.text', verdictText(verdict, agent.adcpVersion, HARNESS_VERSION, counts.baselined)],
    ['transport', agent.transport],
    ['protocolVersion', agent.protocolVersion ?? ''],
    ['server.name', agent.server.name ?? ''],
    ['server.version', agent.server.version ?? ''],
    ['adcpVersion', agent.adcpVersion ?? ''],
    ['adcpVersion.reason', agent.adcpVersionReason ?? ''],
    ['reachable', String(agent.reachable)],
    ['harnessVersion', HARNESS_VERSION],
  ];
  const why = incompleteReason(agent, strict);
  if (why !== null) props.push(['incomplete', why]);
  if (agent.aborted !== null) props.push(['aborted', agent.aborted]);
  if (agent.stderrTail !== undefined) props.push(['stderrTail', agent.stderrTail]);
  if (agent.durationMs !== null) props.push(['durationMs', String(agent.durationMs)]);
  if (agent.baseline !== undefined) {
    const n = agent.baseline.entries;
    const entries = `${n} entr${n === 1 ? 'y' : 'ies'}`;
    props.push(['baseline', n === 0 ? 'none' : agent.baseline.applied ? `applied: ${entries}` : `not applied (--no-baseline): ${entries}`]);
  }
  const account = accountLine(agent);
  if (account !== null) props.push(['account', account]);
  const reach = outOfReachLine(agent);
  if (reach !== null) props.push(['stateRules.outOfReach', reach], ['stateRules.enable', ENABLE_STATE_RULES]);
  const created = createdHeading(agent);
  if (created !== null) {
    props.push(['created', created]);
    for (const [i, c] of (agent.created ?? []).entries()) props.push([`created.${i}`, createdText(c)]);
  }
  if (agent.taskTrace) {
    props.push(['taskLifecycle', agent.taskTrace.text]);
    for (const [i, c] of agent.taskTrace.calls.entries())
      props.push([`taskLifecycle.${i}`, `${traceCallText(c)} — sent: ${c.request}${c.answer ? ` — answered: ${c.answer}` : ''}`]);
  }
  if (agent.webhooks) {
    props.push(['webhooks', webhookHeading(agent.webhooks)]);
    for (const [i, d] of agent.webhooks.deliveries.entries()) props.push([`webhooks.${i}`, deliveryText(d)]);
  }
  for (const [k, v] of Object.entries(counts)) props.push([`count.${k}`, String(v)]);
  for (const [k, v] of Object.entries(storyboardCounts(agent) ?? {})) props.push([`storyboards.${k}`, String(v)]);
  for (const layer of LAYERS) props.push([`layers.${layer}`, String(agent.layers[layer])]);
  return props;
}

/** An attribute's pattern, made once per name (every testcase is read and rewritten through them). */
const attrPatterns = new Map<string, { value: RegExp; whole: RegExp }>();
function attrPattern(name: string): { value: RegExp; whole: RegExp } {
  let p = attrPatterns.get(name);
  if (!p) attrPatterns.set(name, (p = { value: new RegExp(`\\s${name}="([^"]*)"`), whole: new RegExp(`(\\s${name}=)"[^"]*"`) }));
  return p;
}

function attr(attrs: string, name: string): string | undefined {
  const m = attrPattern(name).value.exec(attrs);
  return m?.[1] === undefined ? undefined : unescapeXml(m[1]);
}

function withAttr(attrs: string, name: string, value: string): string {
  const re = attrPattern(name).whole;
  const escaped = `"${escapeXml(value)}"`;
  return re.test(attrs) ? attrs.replace(re, (_m, head: string) => head + escaped) : `${attrs} ${name}=${escaped}`;
}

function unescapeXml(text: string): string {
  if (!text.includes('&')) return text;
  return text.replace(/&(amp|lt|gt|quot|apos|#x?[0-9a-fA-F]+);/g, (_m, e: string) => {
    if (e.startsWith('#x')) return String.fromCodePoint(parseInt(e.slice(2), 16));
    if (e.startsWith('#')) return String.fromCodePoint(parseInt(e.slice(1), 10));
    return ({ amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" } as Record<string, string>)[e] ?? '';
  });
}

function baseName(path: string): string {
  return path.slice(Math.max(path.lastIndexOf('/'), path.lastIndexOf('\\')) + 1);
}
