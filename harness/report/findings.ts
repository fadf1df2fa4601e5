// Findings grouped by cause: one check's failures on one agent are one finding, however many calls show
// them ("a context echo check failed on 7 of 9 calls"), with the fix and spec once, the calls listed,
// and the evidence of the first call of each distinct message. Failures, flaky failures, warnings,
// checks not verified and baselined failures are separate sections; the official storyboards apart.
// Every report (terminal, summary.md, report.html) renders these, and each section's outcome count is
// the sum of one table column (counts.ts), so the numbers agree everywhere. report.json keeps every outcome.
import { normaliseMessage } from './compare.ts';
import { bucketOf, catalogOutcomes, isStoryboard, type Bucket } from './counts.ts';
import { detailOf, type AgentReport, type ReportOutcome, type RunReport } from './model.ts';

export type FindingKind = 'fail' | 'flaky' | 'warn' | 'untested' | 'baselined' | 'covered';

/** The sections in the order every report shows them, and the table column each one adds up to. */
export const FINDING_SECTIONS: ReadonlyArray<{ kind: FindingKind; title: string; column: Bucket }> = [
  { kind: 'fail', title: 'Failures', column: 'fail' },
  { kind: 'flaky', title: 'Flaky', column: 'fail' },
  { kind: 'warn', title: 'Warnings (SHOULD)', column: 'warn' },
  { kind: 'untested', title: 'Not verified', column: 'untested' },
  { kind: 'baselined', title: 'Expected failures (baseline)', column: 'baselined' },
  { kind: 'covered', title: 'Left untested by a baselined failure', column: 'coveredByBaseline' },
];

/** The section an outcome is listed in (null: it passed or did not apply), by the column it is counted in. */
export function findingKind(o: ReportOutcome): FindingKind | null {
  switch (bucketOf(o)) {
    case 'fail':
      return o.flaky ? 'flaky' : 'fail';
    case 'warn':
      return 'warn';
    case 'untested':
      return 'untested';
    case 'baselined':
      return 'baselined';
    case 'coveredByBaseline':
      return 'covered';
    default:
      return null;
  }
}

/** The calls of a finding that share one message (ids, times and counts aside), and the first of them. */
export interface Variant {
  first: ReportOutcome;
  tools: string[];
}

export interface FindingGroup {
  agent: AgentReport;
  /** The agent's position in the report (HTML ids). */
  agentIndex: number;
  check: string;
  kind: FindingKind;
  outcomes: ReportOutcome[];
  /** The agent's outcomes of this check that applied (every status but not-applicable): the "of N calls". */
  applicable: number;
  /** Distinct messages in order of first appearance (renderers show a bounded number). */
  variants: Variant[];
}

/** An agent that could not be reached: its untested outcomes are one line, not one per check. */
export interface UnreachableUntested {
  agent: AgentReport;
  agentIndex: number;
  outcomes: number;
}

export interface FindingSection {
  kind: FindingKind;
  title: string;
  groups: FindingGroup[];
  /** Only in the `untested` section. */
  unreachable: UnreachableUntested[];
  /** Outcomes listed: the sum of the section's table column over the agents. */
  outcomes: number;
  /** Findings listed: groups plus unreachable agents. */
  findings: number;
}

/** Distinct causes are told apart by what was expected where, not by what a call happened to find. */
function variantKey(o: ReportOutcome): string {
  const parts =
    o.pointer !== undefined
      ? [o.pointer, o.expected ?? '', ...(o.schemaErrors ?? []).map((e) => `${e.pointer} ${e.keyword} ${e.expected}`)]
      : [o.message];
  if (o.evidence?.diagnosis) parts.push(o.evidence.diagnosis);
  if (o.baseline !== undefined) parts.push(o.baseline);
  // Correlation ids carry a per-call ordinal, pointers an array index: neither makes a different cause.
  return normaliseMessage(parts.join('\n')).replace(/\d+/g, '#');
}

function groupsOf(
  a: AgentReport,
  agentIndex: number,
  outcomes: readonly ReportOutcome[],
  kindOf: (o: ReportOutcome) => FindingKind | null,
): FindingGroup[] {
  const applicable = new Map<string, number>();
  for (const o of outcomes) if (o.status !== 'not-applicable') applicable.set(o.check, (applicable.get(o.check) ?? 0) + 1);
  const groups = new Map<string, FindingGroup & { byKey: Map<string, Variant> }>();
  for (const o of outcomes) {
    const kind = kindOf(o);
    if (kind === null) continue;
    const id = `${kind}\u0000${o.check}`;
    let g = groups.get(id);
    if (!g) {
      g = {
        agent: a,
        agentIndex,
        check: o.check,
        kind,
        outcomes: [],
        applicable: applicable.get(o.check) ?? 0,
        variants: [],
        byKey: new Map(),
      };
      groups.set(id, g);
    }
    g.outcomes.push(o);
    const key = variantKey(o);
    const v = g.byKey.get(key);
    if (v) v.tools.push(o.tool);
    else {
      const fresh = { first: o, tools: [o.tool] };
      g.byKey.set(key, fresh);
      g.variants.push(fresh);
    }
  }
  return [...groups.values()].map(({ byKey: _, ...g }) => g);
}

/** The catalog's findings of the run, one section per kind (always all of them, in FINDING_SECTIONS order). */
export function catalogFindings(report: RunReport): FindingSection[] {
  const sections = FINDING_SECTIONS.map(({ kind, title }): FindingSection => ({
    kind,
    title,
    groups: [],
    unreachable: [],
    outcomes: 0,
    findings: 0,
  }));
  const byKind = new Map(sections.map((s) => [s.kind, s]));
  for (const [agentIndex, a] of report.agents.entries()) {
    const outcomes = catalogOutcomes(a);
    // Everything of an agent that could not be reached is untested for one reason, said once.
    const untestedDown = a.reachable ? 0 : outcomes.filter((o) => findingKind(o) === 'untested').length;
    const listed = a.reachable ? outcomes : outcomes.filter((o) => findingKind(o) !== 'untested');
    for (const g of groupsOf(a, agentIndex, listed, findingKind)) byKind.get(g.kind)?.groups.push(g);
    if (untestedDown) byKind.get('untested')?.unreachable.push({ agent: a, agentIndex, outcomes: untestedDown });
  }
  for (const s of sections) {
    s.outcomes = s.groups.reduce((n, g) => n + g.outcomes.length, 0) + s.unreachable.reduce((n, u) => n + u.outcomes, 0);
    s.findings = s.groups.length + s.unreachable.length;
  }
  return sections;
}

/** The official storyboards' failures (fail or warn), grouped like the catalog's: counted apart, never in the sections above. */
export function storyboardFailures(report: RunReport): FindingGroup[] {
  return report.agents.flatMap((a, i) =>
    groupsOf(
      a,
      i,
      a.outcomes.filter((o) => isStoryboard(o)),
      (o) => (o.status === 'fail' || o.status === 'warn' ? 'fail' : null),
    ),
  );
}

/** `27 outcomes, 3 findings` — a section heading's counts. */
export function sectionCounts(s: Pick<FindingSection, 'outcomes' | 'findings'>): string {
  return `${s.outcomes} outcome${s.outcomes === 1 ? '' : 's'}, ${s.findings} finding${s.findings === 1 ? '' : 's'}`;
}

const VERB: Record<FindingKind, string> = {
  fail: 'failed',
  flaky: 'failed (flaky)',
  warn: 'warned',
  untested: 'not verified',
  baselined: 'failed (baselined)',
  covered: 'not verified',
};

/** One call: `check › tool`. Several: the check alone (the spread says where). */
export function groupTitle(g: FindingGroup): string {
  return g.outcomes.length === 1 ? `${g.check} › ${g.outcomes[0]?.tool ?? ''}` : g.check;
}

/** `failed on 7 of 9 calls`, or '' for a finding of one call (its tool is in the title). */
export function groupSpread(g: FindingGroup): string {
  return g.outcomes.length === 1 ? '' : `${VERB[g.kind]} on ${g.outcomes.length} of ${Math.max(g.applicable, g.outcomes.length)} calls`;
}

/**
 * The baseline reasons a group of baselined outcomes was excused by: one reason as it is; several (one
 * entry per tool) each with the calls it excused — `T-1 (get_products) · T-2 (get_media_buy_delivery)`.
 */
export function baselineReasons(g: FindingGroup): string {
  const tools = new Map<string, string[]>();
  for (const o of g.outcomes) if (o.baseline !== undefined) tools.set(o.baseline, [...(tools.get(o.baseline) ?? []), o.tool]);
  if (tools.size <= 1) return [...tools.keys()].join('');
  return [...tools].map(([reason, t]) => `${reason} (${callList(t, 3)})`).join(' · ');
}

/** Tool labels in order, a repeated label once with its count, at most `max` of them. */
export function callList(tools: readonly string[], max: number): string {
  const counted = new Map<string, number>();
  for (const t of tools) counted.set(t, (counted.get(t) ?? 0) + 1);
  const names = [...counted].map(([t, n]) => (n > 1 ? `${t} ×${n}` : t));
  return names.length > max ? `${names.slice(0, max).join(', ')}, … ${names.length - max} more` : names.join(', ');
}

/** One line of what went wrong: the diagnosis when there is one, else the detail; bounded. */
export function shortDetail(o: ReportOutcome, max = 160): string {
  const chars = Array.from(o.evidence?.diagnosis ?? detailOf(o)); // by code point: never half a surrogate pair
  return chars.length > max ? `${chars.slice(0, max).join('')}…` : chars.join('');
}

/** The distinct messages a report shows in full per finding; the rest are counted and left to report.json. */
export const VARIANTS_SHOWN = 3;
