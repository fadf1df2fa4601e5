// A schema validation's answer as a verdict: pass without errors; otherwise a failure naming the first
// error (pointer, expected, found) and carrying every error the schema service listed, with how many it
// left out, so a report shows all of them and not just the first.
import { pass, type SchemaError, type Verdict } from '../check.ts';

/** The synthetic last entry an older service adds (`N more errors not shown`) instead of an `omitted` count. */
const MORE = 'more';

function omittedIn(entries: readonly SchemaError[]): number {
  let n = 0;
  for (const e of entries) {
    const m = /^(\d+) more error/.exec(e.found);
    n += m ? Number(m[1]) : 1;
  }
  return n;
}

/** `base` is the pointer of the validated instance inside the Exchange; error pointers are relative to it. */
export function schemaVerdict(base: string, answer: { errors: readonly SchemaError[]; omitted?: number }): Verdict {
  const listed = answer.errors.filter((e) => e.keyword !== MORE);
  const omitted = answer.omitted ?? omittedIn(answer.errors.filter((e) => e.keyword === MORE));
  const first = listed[0];
  if (!first) {
    if (omitted === 0) return pass();
    const found = `${omitted} schema error(s), none listed`;
    return { status: 'fail', pointer: base, expected: 'a payload the schema accepts', found, schemaErrorsOmitted: omitted };
  }
  // The service points at the instance root with '/', which must not leave a trailing slash on the base.
  const at = (pointer: string) => (pointer === '/' ? base : `${base}${pointer}`);
  const others = listed.length - 1 + omitted;
  const more = others > 0 ? ` (+${others} more schema error${others === 1 ? '' : 's'})` : '';
  const verdict: Extract<Verdict, { status: 'fail' }> = {
    status: 'fail',
    pointer: at(first.pointer),
    expected: `${first.expected} (${first.keyword})`,
    found: `${first.found}${more}`,
    schemaErrors: listed.map((e) => ({ pointer: at(e.pointer), keyword: e.keyword, expected: e.expected, found: e.found })),
  };
  if (omitted > 0) verdict.schemaErrorsOmitted = omitted;
  return verdict;
}
