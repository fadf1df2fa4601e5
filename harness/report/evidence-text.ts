// A failure as text: the one-line message CI systems show, and the evidence lines (JUnit failure body,
// terminal block). Strings are already sanitized; callers escape for their format.
import type { ReportOutcome } from './model.ts';

/** One line a CI system shows for a failure: the diagnosis when there is one, else what was found. */
export function failureMessage(o: ReportOutcome): string {
  const diagnosis = o.evidence?.diagnosis;
  const same = o.evidence?.sameCauseAs;
  const head = diagnosis ?? o.message;
  const tail = `${same ? ` (same root cause as ${same})` : ''}${o.flaky ? ' (flaky: it passed when asked again in a fresh session)' : ''}`;
  return `${head}${tail} [${o.severity}; ${o.spec}]`;
}

/** The evidence of a failure as plain text lines (JUnit failure body, terminal block). */
export function evidenceLines(o: ReportOutcome): string[] {
  return [...callEvidenceLines(o), ...ruleLines(o)];
}

/** What one call showed: where, expected, found, schema errors, diagnosis, what was sent and answered. */
export function callEvidenceLines(o: ReportOutcome): string[] {
  const lines: string[] = [];
  if (o.pointer !== undefined) lines.push(`at:       ${o.pointer}`, `expected: ${o.expected ?? ''}`, `found:    ${o.found ?? ''}`);
  else if (o.message) lines.push(o.message);
  for (const e of o.schemaErrors ?? []) lines.push(`  schema: ${e.pointer || '/'} ${e.keyword}: expected ${e.expected}; found ${e.found}`);
  if (o.schemaErrorsOmitted) lines.push(`  … ${o.schemaErrorsOmitted} more schema error(s) not shown`);
  const ev = o.evidence;
  if (o.flaky) lines.push('flaky:    failed, then passed when the call was made again in a fresh session');
  if (ev?.diagnosis) lines.push(`diagnosis: ${ev.diagnosis}`);
  if (ev?.sameCauseAs) lines.push(`root cause: reported with ${ev.sameCauseAs}`);
  if (ev?.request) lines.push(`sent:     ${ev.request}`);
  if (ev?.answer) lines.push(`answered: ${ev.answer}`);
  if (ev?.stderr) lines.push(`stderr:   ${ev.stderr}`);
  if (o.durationMs !== undefined) lines.push(`duration: ${o.durationMs} ms`);
  lines.push(...relatedLines(o));
  return lines;
}

/** The other calls the finding rests on: each one's request and answer, after the finding's own call. */
export function relatedLines(o: ReportOutcome): string[] {
  return (o.evidence?.related ?? []).flatMap((r) => [
    `with call ${r.call}: ${r.tool}`,
    ...(r.request ? [`  sent:     ${r.request}`] : []),
    ...(r.answer ? [`  answered: ${r.answer}`] : []),
  ]);
}

/** The rule: how to fix it and where the spec says so (once per finding, however many calls). */
export function ruleLines(o: ReportOutcome): string[] {
  return [...(o.fix ? [`fix:      ${o.fix}`] : []), `spec:     ${o.spec} — ${o.specUrl}`];
}
