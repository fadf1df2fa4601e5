// A baseline that cannot rot: every `expect` entry must still excuse a failure of this run. An entry
// that matched nothing hides the next real regression of that check (the seller fixed it, then broke it
// again, and nobody heard), so it fails the run until it is removed — as the MCP conformance suite
// treats stale expectations. An entry naming a tool the agent does not expose is a typo: it fails here
// too, and the run exits 2 (a config error, found only once tools/list answered).
// The harness judges this after every other check (harness/run/judge/judge.ts hands it ctx.baseline).
import { defineCheck, fail, notApplicable, pass, untested, type AgentVerdict, type BaselineContext, type Verdict } from '../check.ts';
import type { AgentCapture } from '../../record/exchange.ts';
import { entryCoversLabel, listedNames, matchingEntry, parseEntryKey, unexposedTool } from './_match.ts';

export default defineCheck({
  id: 'baseline.stale',
  scope: 'agent',
  severity: 'MUST',
  live: false,
  harnessAddition: true,
  provenBy: 'test/run/baselines.test.ts',
  title: 'every `expect` entry of the config still matches a failure in this run, and names a tool the agent exposes',
  spec: { label: "This harness's rule: a baseline that no longer applies must be removed", url: 'docs/checks.md#baselinestale' },
  fix: "remove the entry from the agent's `expect` (what it excused is fixed) or correct the check / tool it names; `run --write-baseline FILE` writes the current failures",
  judge(a, ctx): AgentVerdict[] {
    const b = ctx.baseline;
    if (!b) return [{ subject: 'expect', verdict: notApplicable('no expect baseline was given to judge') }];
    if (!b.entries.length) return [{ subject: 'expect', verdict: notApplicable('the agent has no expect entries') }];
    if (!b.applied)
      return [{ subject: 'expect', verdict: notApplicable('--no-baseline: the expect entries were not applied, so they are not judged') }];
    const keys = Object.fromEntries(b.entries.map((e) => [e.key, '']));
    const matched = new Set<string>();
    for (const o of b.outcomes) {
      if (o.status !== 'fail' && o.status !== 'warn') continue;
      const key = matchingEntry(keys, o.check, o.tool);
      if (key !== undefined) matched.add(key);
    }
    const labels = new Set(b.outcomes.map((o) => o.tool));
    return b.entries.map(({ key, pointer }) => ({ subject: key, verdict: judgeEntry(key, pointer, matched, labels, a, b) }));
  },
});

function judgeEntry(
  key: string,
  pointer: string,
  matched: ReadonlySet<string>,
  labels: ReadonlySet<string>,
  a: AgentCapture,
  b: BaselineContext,
): Verdict {
  if (matched.has(key)) return pass();
  const unknown = unexposedTool(key, a, labels);
  if (unknown !== undefined) return fail(pointer, 'a tool the agent exposes', `'${unknown}' is not in its tools/list (${listedNames(a)})`);
  if (!a.initialize?.ok) return untested('the agent could not be reached (see transport.initialize): nothing could match the entry');
  const { check, tool } = parseEntryKey(key);
  if (!b.outcomes.some((o) => o.check === check)) return notApplicable(`${check} was not judged in this run (--check)`);
  const relevant = b.outcomes.filter((o) => o.check === check && (tool === undefined || entryCoversLabel(tool, o.tool)));
  const open = relevant.find((o) => o.status === 'untested');
  if (open) return untested(`${check} › ${open.tool} could not be verified in this run, so the entry could not be judged`);
  const counts = new Map<string, number>();
  for (const o of relevant) counts.set(o.status, (counts.get(o.status) ?? 0) + 1);
  const seen =
    [...counts].map(([status, n]) => `${n} ${status}`).join(', ') || (tool === undefined ? 'no outcome' : `no call of ${tool} was judged`);
  return fail(
    pointer,
    'a fail or warn of this run that the entry excuses',
    `nothing to excuse: ${tool === undefined ? check : `${check} › ${tool}`} gave ${seen}`,
  );
}
