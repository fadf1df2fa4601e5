// The consistency rule between an untested reason's text and its structured precondition, shared by the
// engine's unit test and the CLI's baseline test (over a real run's report.json).
import { catalog } from '../../harness/checks/catalog.ts';

const IDS = new Set(catalog.map((c) => c.id));

/** Every untested outcome whose reason says `see <check id>` names that check as its precondition. */
export function unstructuredPreconditions(
  outcomes: ReadonlyArray<{ check: string; tool: string; status: string; message: string; blockedBy?: unknown }>,
): string[] {
  return outcomes.flatMap((o) => {
    if (o.status !== 'untested') return [];
    const named = /\bsee ([a-z][a-z0-9]*(?:-[a-z0-9]+)*\.[a-z0-9]+(?:-[a-z0-9]+)*)\b/.exec(o.message)?.[1];
    if (named === undefined || !IDS.has(named)) return [];
    const by = typeof o.blockedBy === 'string' ? o.blockedBy : (o.blockedBy as { check?: unknown } | undefined)?.check;
    return by === named ? [] : [`${o.check} › ${o.tool}: "${o.message}" but blockedBy ${String(by)}`];
  });
}
