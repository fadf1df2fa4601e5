// `run --compare PREVIOUS_REPORT_JSON`: what changed since the previous run. An outcome's identity is
// agent · check · tool, plus its ordinal when the same check judges the same tool label more than once
// in one agent (a tool probed twice) — nothing that depends on other agents, on timing or on order
// across the inventory. Only agents reachable in both runs are diffed outcome by outcome; an agent that
// went down, came back, appeared or disappeared is one line of its own, so a seller coming back online
// never buries the real changes. Messages are normalised (ids, times, durations the run generated).
import { readFile } from 'node:fs/promises';
import {
  failsRun,
  type AgentReport,
  type ComparedAgent,
  type ComparedOutcome,
  type Comparison,
  type ReportOutcome,
  type RunReport,
} from './model.ts';

/** The part of a previous report.json (schemaVersion 2) a comparison reads. */
export interface PreviousReport {
  run: { startedAt?: string; harnessVersion?: string } | null;
  strict: boolean;
  agents: Array<{
    name: string;
    reachable: boolean;
    outcomes: Array<Pick<ReportOutcome, 'check' | 'tool' | 'status' | 'message' | 'baseline' | 'flaky'>>;
  }>;
}

const UUID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/gi;

/**
 * A message with what differs from run to run for the same finding replaced by placeholders: the
 * harness's correlation ids (`adcp-conformance.<agent>.<n>.<uuid>`), UUIDs, ISO timestamps, epoch
 * milliseconds, durations, loopback ports, long hex ids (session ids) and the run's work directory.
 */
export function normaliseMessage(text: string): string {
  return text
    .replace(new RegExp(`adcp-conformance\\.\\S*?\\.\\d+\\.${UUID.source}`, 'gi'), '<correlation-id>')
    .replace(UUID, '<uuid>')
    .replace(/\b\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?(?:Z|[+-]\d{2}:?\d{2})?/g, '<time>')
    .replace(/\b1[5-9]\d{11}\b/g, '<epoch-ms>')
    .replace(/\b\d+(?:\.\d+)?\s?(?:ms|milliseconds?|s|secs?|seconds?)\b/g, '<duration>')
    .replace(/\b(127\.\d+\.\d+\.\d+|localhost|\[::1\]):\d{1,5}\b/g, '$1:<port>')
    .replace(/\b[0-9a-f]{32,}\b/gi, '<hex-id>')
    .replace(/adcp-conformance-work-[A-Za-z0-9]+/g, 'adcp-conformance-work-<dir>');
}

type Keyed<T> = Map<string, { o: T; probe: number }>;

/** The outcomes of one agent by identity: check · tool · ordinal of that pair within the agent. */
function keyed<T extends { check: string; tool: string }>(outcomes: readonly T[]): Keyed<T> {
  const seen = new Map<string, number>();
  const out: Keyed<T> = new Map();
  for (const o of outcomes) {
    const pair = JSON.stringify([o.check, o.tool]);
    const n = (seen.get(pair) ?? 0) + 1;
    seen.set(pair, n);
    out.set(JSON.stringify([o.check, o.tool, n]), { o, probe: n });
  }
  return out;
}

function entry(agent: string, o: { check: string; tool: string; message: string }, probe: number): ComparedOutcome {
  return { agent, check: o.check, tool: o.tool, ...(probe > 1 ? { probe } : {}), message: normaliseMessage(o.message) };
}

/** Why an unreachable agent is unreachable: its down reason, else its failing transport.initialize outcome's message. */
function unreachableWhy(a: AgentReport): string {
  const init = a.outcomes.find((o) => o.status === 'fail' && o.tool === 'initialize');
  return normaliseMessage(a.down?.detail ?? init?.message ?? a.incomplete ?? 'initialize did not answer');
}

export function compareReports(previous: PreviousReport, current: RunReport): Comparison {
  const before = new Map(previous.agents.map((a) => [a.name, a]));
  const now = new Set(current.agents.map((a) => a.name));
  const c: Comparison = {
    against: { startedAt: previous.run?.startedAt ?? null, harnessVersion: previous.run?.harnessVersion ?? null },
    newFailures: [],
    fixed: [],
    flaky: [],
    stillFailing: 0,
    newlyUnreachable: [],
    backOnline: [],
    added: [],
    removed: previous.agents.filter((a) => !now.has(a.name)).map((a): ComparedAgent => ({ agent: a.name })),
  };
  for (const a of current.agents) {
    for (const { o, probe } of keyed(a.outcomes).values())
      if (o.flaky && failsRun(o, current.strict)) c.flaky.push(entry(a.name, o, probe));
    const p = before.get(a.name);
    if (!p) {
      c.added.push({ agent: a.name });
      continue;
    }
    if (p.reachable && !a.reachable) c.newlyUnreachable.push({ agent: a.name, message: unreachableWhy(a) });
    if (!p.reachable && a.reachable) c.backOnline.push({ agent: a.name });
    if (!p.reachable || !a.reachable) continue;
    const failingBefore = new Map([...keyed(p.outcomes)].filter(([, { o }]) => failsRun(o, previous.strict)));
    for (const [key, { o, probe }] of keyed(a.outcomes)) {
      const was = failingBefore.get(key);
      if (failsRun(o, current.strict)) {
        if (was) c.stillFailing++;
        else if (!o.flaky) c.newFailures.push(entry(a.name, o, probe));
      } else if (was && o.status === 'pass') {
        c.fixed.push(entry(a.name, was.o, probe));
      }
    }
  }
  return c;
}

/** Reads and checks a previous report.json; throws an Error saying what is wrong with it. */
export async function loadPreviousReport(file: string): Promise<PreviousReport> {
  let doc: unknown;
  try {
    doc = JSON.parse(await readFile(file, 'utf8'));
  } catch (err) {
    throw new Error(
      err instanceof SyntaxError ? `not JSON (${err.message})` : `cannot read it (${(err as NodeJS.ErrnoException).code ?? String(err)})`,
      { cause: err },
    );
  }
  const d = doc as Record<string, unknown> | null;
  if (!d || typeof d !== 'object' || d['schemaVersion'] !== 2)
    throw new Error('not a report.json of schemaVersion 2 (as `run --reporter json` writes)');
  if (!Array.isArray(d['agents'])) throw new Error('its `agents` is not a list');
  const agents = (d['agents'] as unknown[]).map((a, i) => {
    const agent = a as Record<string, unknown> | null;
    const outcomes = agent?.['outcomes'];
    if (!agent || typeof agent['name'] !== 'string' || typeof agent['reachable'] !== 'boolean' || !Array.isArray(outcomes))
      throw new Error(`/agents/${i} is not an agent (name, reachable, outcomes)`);
    for (const [j, o] of outcomes.entries()) {
      const r = o as Record<string, unknown> | null;
      if (!r || typeof r['check'] !== 'string' || typeof r['tool'] !== 'string' || typeof r['status'] !== 'string')
        throw new Error(`/agents/${i}/outcomes/${j} is not an outcome (check, tool, status)`);
      if (typeof r['message'] !== 'string') r['message'] = '';
    }
    return { name: agent['name'], reachable: agent['reachable'], outcomes: outcomes as PreviousReport['agents'][number]['outcomes'] };
  });
  const run = d['run'] && typeof d['run'] === 'object' ? (d['run'] as PreviousReport['run']) : null;
  return { run, strict: d['strict'] === true, agents };
}

/** One line: what the comparison found, counted (every report opens with it). */
export function comparisonHeadline(c: Comparison): string {
  const n = (count: number, one: string, many = `${one}s`) => `${count} ${count === 1 ? one : many}`;
  const against = c.against.startedAt ? `the run of ${c.against.startedAt}` : 'the previous run';
  const version = c.against.harnessVersion ? ` (adcp-conformance ${c.against.harnessVersion})` : '';
  const parts = [
    n(c.newFailures.length, 'new failure'),
    `${c.fixed.length} fixed`,
    `${c.flaky.length} flaky`,
    `${c.stillFailing} still failing`,
    `${c.newlyUnreachable.length} newly unreachable`,
    `${c.backOnline.length} back online`,
    n(c.added.length, 'agent added', 'agents added'),
    n(c.removed.length, 'agent removed', 'agents removed'),
  ];
  return `Since ${against}${version}: ${parts.join(' · ')}`;
}

/** The listed kinds of change, in the order every report shows them. */
export const CHANGE_KINDS = [
  { key: 'newFailures', label: 'new failure', regression: true },
  { key: 'newlyUnreachable', label: 'newly unreachable', regression: true },
  { key: 'fixed', label: 'fixed', regression: false },
  { key: 'flaky', label: 'flaky', regression: false },
  { key: 'backOnline', label: 'back online', regression: false },
  { key: 'added', label: 'agent added', regression: false },
  { key: 'removed', label: 'agent removed', regression: false },
] as const;

/** Every listed change as one row: kind, agent, what (check › tool, #probe) and the message. */
export function changeRows(c: Comparison): Array<{ kind: (typeof CHANGE_KINDS)[number]; agent: string; what: string; message: string }> {
  return CHANGE_KINDS.flatMap((kind) =>
    (c[kind.key] as Array<ComparedOutcome | ComparedAgent>).map((e) => ({
      kind,
      agent: e.agent,
      what: 'check' in e ? `${e.check} › ${e.tool}${e.probe ? ` #${e.probe}` : ''}` : '',
      message: e.message ?? '',
    })),
  );
}
