// capabilities.required-tasks — for each protocol the capabilities answer lists in `supported_protocols`,
// every task that protocol's role lists as Required on "Required tasks by protocol" is exposed in tools/list.
//
// The required sets are data per release (./_required-tasks.ts). Conditional rows (required only with a
// capability: sync_creatives, log_event, list_transformers, rights tasks…) are not judged here.
// Mutating required tasks (create_media_buy, update_media_buy, activate_signal…) are judged on agents
// the config marks sandbox only: a seller may keep its mutating surface from callers that may not book
// (the reference seller lists it on sandbox accounts only, error-handling.mdx names per-caller scopes),
// and the harness never books on any other agent — so for them a missing mutating task is
// not-applicable with that reason, never a failure. A protocol value the page has no single required set
// for (`governance`: five roles) or does not know is not-applicable, with the reason.
import type { AgentCapture } from '../../record/exchange.ts';
import {
  blockerOf,
  defineCheck,
  fail,
  notApplicable,
  onCall,
  pass,
  untested,
  type AgentVerdict,
  type CheckContext,
  type Verdict,
  MUST_FROM_ADCP_3_1,
} from '../check.ts';
import { isObject, own, preview } from '../../json.ts';
import { listedTools, one } from '../transport/_listed-tools.ts';
import { adcpPayload, adcpVersionOf, noPayload, NO_ANSWER, viewResult } from '../views.ts';
import { CAPABILITIES_TOOL, toolIndex } from './_tools.ts';
import { requiredTasksFor, UNJUDGED_PROTOCOLS, type RequiredTask } from './_required-tasks.ts';

/** At most this many distinct protocol values are judged (the schema's enum has seven). */
const MAX_PROTOCOLS = 16;
const SUBJECT = CAPABILITIES_TOOL;

type Declared = { protocols: string[]; pointer: string; data: Record<string, unknown> } | { verdict: Verdict };

/** The `supported_protocols` of the capabilities answer, or the verdict that stands in for it. */
function declaredProtocols(a: AgentCapture): Declared {
  const listed = listedTools(a);
  if (!('verdict' in listed) && toolIndex(listed.tools, CAPABILITIES_TOOL) < 0)
    return {
      verdict: notApplicable(`the agent does not list ${CAPABILITIES_TOOL}: no supported_protocols to judge (see capabilities.tool)`),
    };
  const calls = a.exchanges.filter((x) => x.tool === CAPABILITIES_TOOL && x.intent !== 'invalid');
  if (calls.length === 0)
    return { verdict: 'verdict' in listed ? listed.verdict : untested(`${CAPABILITIES_TOOL} is listed but was not called`) };
  const x = calls.find((c) => viewResult(c).kind === 'success') ?? calls[0]!;
  const v = viewResult(x);
  const call = a.exchanges.indexOf(x);
  if (v.kind === 'none')
    return { verdict: untested(v.reason === NO_ANSWER ? NO_ANSWER : `no capabilities result: ${v.reason}`, blockerOf(v.verdict), call) };
  if (v.kind === 'error') return { verdict: untested('the capabilities call returned an error result: see error.*') };
  const payload = adcpPayload(v.result);
  if (!payload) return { verdict: onCall(noPayload(v.result), call) };
  const declared = own(payload.data, 'supported_protocols');
  if (declared === undefined)
    return { verdict: notApplicable('the capabilities answer declares no supported_protocols: no protocol whose required tasks apply') };
  if (!Array.isArray(declared))
    return { verdict: notApplicable(`supported_protocols is ${preview(declared)}, not an array (see schema.adcp-response)`) };
  const protocols = [...new Set(declared.filter((p): p is string => typeof p === 'string' && p.length <= 64))].slice(0, MAX_PROTOCOLS);
  if (protocols.length === 0)
    return { verdict: notApplicable('supported_protocols lists no protocol name: no required tasks apply (see schema.adcp-response)') };
  return { protocols, pointer: `${payload.pointer}/supported_protocols`, data: payload.data };
}

function names(tasks: readonly RequiredTask[]): string {
  return tasks.map((t) => t.name).join(', ');
}

/** The verdict for one group of required tasks of a protocol. */
function judgeGroup(
  tasks: readonly RequiredTask[],
  exposed: ReadonlySet<string>,
  what: string,
  sandbox: boolean,
  mutating: boolean,
  page: string,
): Verdict {
  const missing = tasks.filter((t) => !exposed.has(t.name));
  if (missing.length === 0) return pass();
  if (mutating && !sandbox) {
    return notApplicable(
      `${what}: the mutating required task(s) ${names(missing)} are not listed, and the agent is not marked sandbox — a seller may keep its mutating tasks from callers that may not book, and the harness never books outside a sandbox; mark the agent sandbox to judge them`,
    );
  }
  return fail('/tools', `${what}: every task ${page} lists as Required (${names(tasks)})`, `not listed: ${names(missing)}`);
}

export default defineCheck({
  id: 'capabilities.required-tasks',
  scope: 'agent',
  severity: MUST_FROM_ADCP_3_1,
  live: false,
  title: 'for each protocol in `supported_protocols`, every task that protocol lists as Required is exposed',
  spec: {
    label:
      'AdCP 3.1 · Required tasks by protocol (Required — the specification mandates implementation; e.g. a Media Buy sales agent: get_products, list_creative_formats, create_media_buy, update_media_buy, get_media_buys, get_media_buy_delivery, provide_performance_feedback)',
    url: 'https://adcontextprotocol.org/docs/protocol/required-tasks',
  },
  fix: 'expose every Required task of each protocol you declare (e.g. `media_buy` needs update_media_buy and provide_performance_feedback), or drop the protocol from `supported_protocols`',
  judge(a: AgentCapture, ctx: CheckContext): AgentVerdict[] {
    const declared = declaredProtocols(a);
    if ('verdict' in declared) return one(SUBJECT, declared.verdict);
    const listed = listedTools(a);
    if ('verdict' in listed) return one(SUBJECT, listed.verdict);
    const version = adcpVersionOf(declared.data, ctx);
    const found = requiredTasksFor(version);
    if (!found) return one(SUBJECT, notApplicable(`the harness has no required-tasks table for AdCP ${version.label}`));
    const exposed = new Set<string>();
    for (const t of listed.tools) {
      const name = own(t, 'name');
      if (typeof name === 'string') exposed.add(name);
    }
    const sandbox = isObject(ctx.agent) && own(ctx.agent, 'sandbox') === true;
    const page = `required-tasks (AdCP ${found.release})`;
    const out: AgentVerdict[] = [];
    for (const protocol of declared.protocols) {
      const label = `supported_protocols: ${protocol}`;
      const unjudged = Object.prototype.hasOwnProperty.call(UNJUDGED_PROTOCOLS, protocol) ? UNJUDGED_PROTOCOLS[protocol] : undefined;
      if (unjudged) {
        out.push({ subject: label, verdict: notApplicable(unjudged) });
        continue;
      }
      const row = Object.prototype.hasOwnProperty.call(found.table, protocol) ? found.table[protocol] : undefined;
      if (!row) {
        out.push({ subject: label, verdict: notApplicable(`${page} lists no required tasks for a protocol named ${preview(protocol)}`) });
        continue;
      }
      const reads = row.tasks.filter((t) => !t.mutating);
      const writes = row.tasks.filter((t) => t.mutating);
      if (reads.length > 0 || writes.length === 0) {
        out.push({
          subject: label,
          verdict:
            reads.length === 0
              ? notApplicable(`${page} lists no task of its own for the ${row.role} (get_adcp_capabilities aside)`)
              : judgeGroup(reads, exposed, `the ${row.role}`, sandbox, false, page),
        });
      }
      if (writes.length > 0)
        out.push({ subject: `${label} (mutating tasks)`, verdict: judgeGroup(writes, exposed, `the ${row.role}`, sandbox, true, page) });
    }
    return out;
  },
});
