// Baselines that cannot rot, on the run's side: an `expect` entry naming an unknown check id is a config
// error before anything runs (exit 2, with its JSON pointer); `--write-baseline FILE` writes the run's
// failures as one `expect` block per agent, each entry with a reason to fill in. (An entry that matched
// nothing, or names a tool the agent does not expose, is judged by baseline.stale once the agent answered.)
import { parseEntryKey, toolOfLabel } from '../checks/baseline/_match.ts';
import staleCheck from '../checks/baseline/stale.ts';
import { ConfigError, pointerOf } from '../config/errors.ts';
import { failsRun, type AgentReport, type RunReport } from '../report/model.ts';
import { HARNESS_VERSION } from '../version.ts';
import { nearest } from './nearest.ts';
import type { Target } from './resolve.ts';

/** Every `expect` entry must name a check of the catalog: a mistyped id would silently excuse nothing. */
export function checkExpectIds(targets: readonly Target[], file: string, knownIds: readonly string[]): void {
  const known = new Set(knownIds);
  for (const t of targets) {
    for (const key of Object.keys(t.expect ?? {})) {
      const { check } = parseEntryKey(key);
      if (known.has(check)) continue;
      const pointer = t.expectPointers?.[key] ?? pointerOf('agents', t.index, 'expect', key);
      const near = nearest(check, knownIds);
      throw new ConfigError(
        file,
        pointer,
        `'${check}' is not a check id${near ? ` (did you mean '${near}'?)` : ''}: an entry is '<check id>' or '<check id> › <tool>' (see adcp-conformance checks)`,
      );
    }
  }
}

export const REASON_PLACEHOLDER = 'TODO: why this failure is expected (a ticket, a release)';

/**
 * The run's failures as `expect` blocks (YAML): for each reachable agent, one entry per check whose
 * outcomes fail the run or were excused by the baseline — `check` alone when it passed on no other tool
 * (it fails wherever it could be judged), else `check › tool` for each tool it fails on (a tool covers
 * every call of that tool), so the entry does not hide a new failure on a tool that works today. An
 * existing reason is kept, a new entry gets the placeholder. Flaky failures are left out (a baseline
 * entry for them would be stale on the next good answer), and so are baseline.stale's own findings
 * (remove those entries instead).
 */
export async function renderBaselineYaml(report: RunReport): Promise<string> {
  // The YAML writer loads only for --write-baseline, not with every run.
  const { stringify } = await import('yaml');
  const agents: Array<{ name: string; expect: Record<string, string> }> = [];
  const notes: string[] = [];
  for (const a of report.agents) {
    if (!a.reachable) {
      notes.push(`${a.name}: unreachable in this run, nothing written`);
      continue;
    }
    const expect = expectEntries(a, report.strict, notes);
    if (Object.keys(expect).length) agents.push({ name: a.name, expect });
    else notes.push(`${a.name}: no failure to baseline`);
  }
  const started = report.run?.startedAt ?? 'an unknown time';
  const header = [
    `# Written by adcp-conformance ${report.run?.harnessVersion ?? HARNESS_VERSION} --write-baseline: the failures of the run started ${started}.`,
    "# Copy each agent's `expect` block into that agent in your config, and replace every TODO with the reason",
    '# the failure is expected. An entry that no longer matches a failure fails the run (baseline.stale).',
    ...notes.map((n) => `# ${n}`),
  ];
  return `${header.join('\n')}\n${stringify({ agents }, { lineWidth: 0 })}`;
}

/** One agent's entries: per check, in first-failure order (see renderBaselineYaml). */
function expectEntries(a: AgentReport, strict: boolean, notes: string[]): Record<string, string> {
  // check → tool → the reason already given (first one seen), for the tools the check fails on.
  const failing = new Map<string, Map<string, string | undefined>>();
  const passing = new Map<string, Set<string>>();
  for (const o of a.outcomes) {
    if (o.check === staleCheck.id) {
      if (o.status === 'fail') notes.push(`${a.name}: its expect entry '${o.tool}' failed ${staleCheck.id}: remove or correct it`);
      continue;
    }
    const tool = toolOfLabel(o.tool);
    if (o.status === 'pass') {
      let tools = passing.get(o.check);
      if (!tools) passing.set(o.check, (tools = new Set()));
      tools.add(tool);
      continue;
    }
    const counted = failsRun(o, strict);
    const excused = o.baseline !== undefined && (o.status === 'fail' || o.status === 'warn');
    if (!counted && !excused) continue;
    if (o.flaky) {
      notes.push(`${a.name}: ${o.check} › ${o.tool} is flaky (passed when re-verified): not written`);
      continue;
    }
    let tools = failing.get(o.check);
    if (!tools) failing.set(o.check, (tools = new Map()));
    if (tools.get(tool) === undefined) tools.set(tool, o.baseline);
  }
  const expect: Record<string, string> = {};
  for (const [check, tools] of failing) {
    const passedElsewhere = [...(passing.get(check) ?? [])].some((t) => !tools.has(t));
    if (!passedElsewhere) {
      expect[check] = [...tools.values()].find((r) => r !== undefined) ?? REASON_PLACEHOLDER;
      continue;
    }
    for (const [tool, reason] of tools) expect[`${check} › ${tool}`] = reason ?? REASON_PLACEHOLDER;
  }
  return expect;
}
