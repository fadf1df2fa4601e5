// badges/<agent>.json: one shields.io endpoint badge per seller (https://shields.io/badges/endpoint-badge):
// `{schemaVersion: 1, label, message, color}` — the verdict and its counts, for a README or a dashboard.
import { catalogCounts } from './counts.ts';
import { agentVerdict, failsRun, type AgentReport, type RunReport, type Verdict } from './model.ts';

export interface EndpointBadge {
  schemaVersion: 1;
  label: string;
  message: string;
  color: string;
}

const COLOR: Record<Verdict, string> = { conformant: 'brightgreen', nonconformant: 'red', incomplete: 'yellow' };

export function badgeOf(a: AgentReport, strict: boolean): EndpointBadge {
  const verdict = agentVerdict(a, strict);
  const c = catalogCounts(a); // the table's numbers (storyboards apart)
  const flaky = a.outcomes.filter((o) => o.flaky && failsRun(o, strict)).length;
  const label = a.adcpVersion && a.adcpVersion !== 'none' ? `AdCP ${a.adcpVersion}` : 'AdCP conformance';
  let detail: string;
  if (!a.reachable) detail = 'unreachable';
  else if (verdict === 'nonconformant')
    detail = [`${c.fail} fail${flaky ? ` (${flaky} flaky)` : ''}`, ...(strict && c.warn ? [`${c.warn} warn`] : [])].join(', ');
  else if (verdict === 'incomplete') detail = a.incomplete ? 'not finished' : `${c.untested} untested`;
  else detail = `${c.pass} pass${c.warn ? `, ${c.warn} warn` : ''}`;
  return {
    schemaVersion: 1,
    label,
    message: `${verdict} · ${detail}${c.baselined ? ` · ${c.baselined} baselined` : ''}`,
    color: !a.reachable ? 'lightgrey' : COLOR[verdict],
  };
}

/** `badges/<agent>.json` for every agent: file names from the agent name, made safe and unique. */
export function badgeFiles(report: RunReport): Array<[string, string]> {
  const used = new Set<string>();
  return report.agents.map((a) => {
    const base =
      a.name
        .replace(/[^A-Za-z0-9._-]/g, '_')
        .replace(/^\.+/, '_')
        .slice(0, 100) || 'agent';
    let name = base;
    for (let n = 2; used.has(name.toLowerCase()); n++) name = `${base}-${n}`;
    used.add(name.toLowerCase());
    return [`badges/${name}.json`, JSON.stringify(badgeOf(a, report.strict), null, 2) + '\n'];
  });
}
