// The counts every report prints, from one place: an agent's catalog outcomes (this harness's checks)
// counted by model.ts countOutcomes, the official storyboards' outcomes apart, and the bucket of each
// outcome — so the table, the section headings, the cards and report.json cannot disagree.
import { addCounts, countOutcomes, ZERO_COUNTS, type AgentReport, type Counts, type ReportOutcome, type RunReport } from './model.ts';

/** An outcome of the official AdCP storyboards (advisory unless --strict-storyboards), not of the catalog. */
export const isStoryboard = (o: Pick<ReportOutcome, 'check'>): boolean => o.check.startsWith('storyboard.');

export function catalogOutcomes(a: AgentReport): ReportOutcome[] {
  return a.outcomes.filter((o) => !isStoryboard(o));
}

/** The agent's catalog outcomes by status: the table's columns and report.json's `summary`. */
export function catalogCounts(a: AgentReport): Counts {
  return countOutcomes(catalogOutcomes(a));
}

/** The run's catalog outcomes by status, over every agent. */
export function runCatalogCounts(report: RunReport): Counts {
  return report.agents.reduce((sum, a) => addCounts(sum, catalogCounts(a)), { ...ZERO_COUNTS });
}

export type Bucket = keyof Counts;
const BUCKETS = Object.keys(ZERO_COUNTS) as Bucket[];

/**
 * The column an outcome is counted in, asked of countOutcomes itself (never a second copy of its rule),
 * so a report section that lists the outcomes of one bucket always matches that column.
 */
export function bucketOf(o: ReportOutcome): Bucket {
  const counted = countOutcomes([o]);
  return BUCKETS.find((b) => counted[b] > 0) ?? 'untested';
}
