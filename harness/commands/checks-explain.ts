// `adcp-conformance checks ID`: one check explained — the rule, its severity, where the spec says so,
// how a seller fixes a failure, and the reference-seller faults that prove the check fails (with a
// command that shows it failing), so a finding can be understood without reading the harness.
import type { Check } from '../checks/check.ts';
import { checkSeverityText } from '../checks/catalog.ts';
import { SELLER_ENTRY } from '../../sellers/launch.ts';
import { trippedIds, type Fault } from '../../sellers/faults.ts';

/** Every line the `checks` command prints fits this many columns. */
export const WIDTH = 100;

/** `text` broken at spaces into lines of at most `width` (a longer word is cut). */
export function wrap(text: string, width: number): string[] {
  const lines: string[] = [];
  let line = '';
  for (let word of text.split(/\s+/).filter(Boolean)) {
    while (word.length > width) {
      if (line) lines.push(line);
      lines.push(word.slice(0, width));
      word = word.slice(width);
      line = '';
    }
    if (!line) line = word;
    else if (line.length + 1 + word.length <= width) line += ` ${word}`;
    else {
      lines.push(line);
      line = word;
    }
  }
  if (line || lines.length === 0) lines.push(line);
  return lines;
}

const LABEL = 13;

/**
 * A labelled field: its text wrapped under the label's column, continuation lines `hang` further in (so
 * entries of a list stand apart). Commands and URLs stay whole (copyable).
 */
function field(label: string, text: string, { whole = false, hang = 0 } = {}): string[] {
  const [first = '', ...rest] = whole ? [text] : wrap(text, WIDTH - LABEL - hang);
  return [label.padEnd(LABEL) + first, ...rest.map((line) => ' '.repeat(LABEL + hang) + line)];
}

/** The explanation of one check, as printed. `faults`: the reference seller's fault modes. */
export function explainCheck(check: Check, faults: readonly Fault[]): string {
  const proving = faults.filter((f) => trippedIds(f).includes(check.id)).sort(bySpecificity(check.id));
  const lines = [
    check.id,
    '',
    ...field('rule', check.title),
    ...field('severity', checkSeverityText(check)),
    ...field('judged', judgedText(check)),
    // A harness addition's label says so; its url is its section of docs/checks.md.
    ...field('spec', check.spec.label),
    ...field('', check.spec.url, { whole: true }),
    ...field('fix', check.fix),
  ];
  if (proving.length === 0)
    lines.push(
      ...field('proven by', check.provenBy !== undefined ? `the live test ${check.provenBy}` : 'no fault of the reference seller'),
    );
  for (const [i, f] of proving.entries())
    lines.push(
      ...field(i === 0 ? 'proven by' : '', `${f.name} (${faultStatus(f, check.id)}${requirements(f)}): ${f.description}`, { hang: 2 }),
    );
  const demo = proving.find((f) => reproducible(f, check.id));
  if (demo) lines.push(...field('see it fail', tryCommand(demo, check.id), { whole: true }));
  return lines.join('\n');
}

function judgedText(check: Check): string {
  const what = check.scope === 'exchange' ? 'on each call' : 'once per agent, on its session as a whole (handshake, tool list, scenarios)';
  return check.live ? `${what}; decided from the live session's facts (a recording replays its outcome)` : what;
}

/** The status the fault gives the check, and how it changes at newer AdCP releases (`fail; pass from AdCP 3.1`). */
export function faultStatus(fault: Fault, id: string): string {
  const parts: string[] = [];
  const base = fault.trips[id];
  if (base !== undefined) parts.push(base);
  const versions = Object.keys(fault.tripsByAdcpVersion ?? {}).sort((a, b) => a.localeCompare(b, 'en', { numeric: true }));
  for (const v of versions) {
    const status = fault.tripsByAdcpVersion![v]![id];
    if (status !== undefined) parts.push(`${status} from AdCP ${v}`);
  }
  return parts.join('; ');
}

/** What the fault needs of the agent to show (a transport, credentials, a production agent). */
function requirements(fault: Fault): string {
  const needs: string[] = [];
  if (fault.transports?.length === 1) needs.push(`over ${fault.transports[0] === 'http' ? 'HTTP' : 'stdio'}`);
  if (fault.agent?.credentials) needs.push('with credentials');
  if (fault.agent?.production) needs.push('on a production agent');
  return needs.length ? `; ${needs.join(', ')}` : '';
}

/** Can a plain `run --stdio … --sandbox` show the fault tripping `id` at every AdCP release? */
function reproducible(fault: Fault, id: string): boolean {
  const stdio = fault.transports === undefined || fault.transports.includes('stdio');
  const plain = !fault.agent?.credentials && !fault.agent?.production;
  const always = fault.trips[id] !== undefined && Object.values(fault.tripsByAdcpVersion ?? {}).every((o) => o[id] !== 'pass');
  return stdio && plain && always;
}

/** Faults that trip fewest other checks first: the clearest demonstration of this one. */
function bySpecificity(id: string): (a: Fault, b: Fault) => number {
  const others = (f: Fault) => trippedIds(f).filter((t) => t !== id).length;
  return (a, b) => others(a) - others(b) || a.name.localeCompare(b.name);
}

/** The command that runs the reference seller with `fault` and judges only `id` (it exits 1). */
export function tryCommand(fault: Fault, id: string): string {
  const seller = `node ${shellWord(SELLER_ENTRY)} --transport stdio --fault ${fault.name}`;
  return `adcp-conformance run --stdio ${shellWord(seller)} --sandbox --check ${id}`;
}

/** `word` as one POSIX shell word (single-quoted unless it is plainly safe). */
export function shellWord(word: string): string {
  return /^[\w@%+=:,./-]+$/.test(word) ? word : `'${word.replace(/'/g, `'\\''`)}'`;
}
