// creative.read-after-write — a creative that sync_creatives accepted (synchronously) is in the library
// at once: the next list_creatives returns it; a sync with `dry_run: true` rehearses and stores nothing,
// so the creative it named is not listed. A miss rests on two calls: the sync and the list are both the
// evidence. The list asks for the one creative (`filters.creative_ids`) and follows its pages, bounded.
import type { AgentCapture } from '../../record/exchange.ts';
import { acceptedIn, CR_STEP, CREATIVE_FLOW, listed } from '../../capture/creative-flow.ts';
import { SANDBOX_ONLY } from '../../capture/media-buy-flow.ts';
import { pageInfo, successPayload } from '../../capture/scenario-facts.ts';
import { defineCheck, failAcross, notApplicable, pass, untested, type AgentVerdict, type Verdict } from '../check.ts';
import { own, preview } from '../../json.ts';
import { answerOf, at, notRun, scenarioSteps, type Step } from '../scenario-view.ts';
import { payloadOrVerdict } from '../views.ts';

const AFTER_SYNC = 'list_creatives (after sync_creatives)';
const AFTER_DRY_RUN = 'list_creatives (after a dry run)';

/** The id of the one creative a sync step sent. */
function sentId(s: Step): string | undefined {
  const creatives = own(s.x.request.arguments, 'creatives');
  const id = own(Array.isArray(creatives) ? creatives[0] : undefined, 'creative_id');
  return typeof id === 'string' ? id : undefined;
}

/** The sync step and its creative, when the seller accepted it; else why there is nothing to look for. */
function accepted(s: Step | undefined, what: string): { id: string; s: Step } | { verdict: Verdict } {
  if (!s) return { verdict: untested(`the ${what} was not made (the flow stopped before it)`) };
  const answer = answerOf(s.x, s.call);
  if (answer.kind === 'none') return { verdict: answer.verdict };
  const id = sentId(s);
  if (answer.kind !== 'success' || id === undefined || !acceptedIn(s.x, id)) {
    return {
      verdict: untested(
        `the seller did not accept the creative synchronously in the ${what} (call ${s.call}): nothing to look for; see its outcomes`,
      ),
    };
  }
  return { id, s };
}

/** Where the creative shows in the list pages, the last page, and whether the walk saw the whole list. */
function walk(pages: Step[], id: string): { at: Step; index: number } | { last: Step; complete: boolean } | { verdict: Verdict } {
  if (pages.length === 0) return { verdict: untested('list_creatives was not called (the flow stopped before it)') };
  for (const p of pages) {
    const items = own(successPayload(p.x), 'creatives');
    if (listed(p.x, id) && Array.isArray(items)) return { at: p, index: items.findIndex((c) => own(c, 'creative_id') === id) };
  }
  const last = pages[pages.length - 1]!;
  return { last, complete: pageInfo(successPayload(last.x)).hasMore !== true };
}

/** A list page that is no list: the verdict (no answer, or the refusal as a failure against the sync). */
function notAList(last: Step, want: string, related: number[]): Verdict | undefined {
  const answer = answerOf(last.x, last.call);
  if (answer.kind === 'none') return answer.verdict;
  if (answer.kind === 'bare-jsonrpc') return failAcross(at(last, '/error'), want, answer.found, related);
  if (answer.kind === 'adcp-error')
    return failAcross(
      at(last, answer.pointer),
      want,
      `list_creatives refused: ${preview(own(answer.error, 'code'))} ${preview(own(answer.error, 'message'))}`,
      related,
    );
  const payload = payloadOrVerdict(last.x);
  return 'verdict' in payload ? payload.verdict : undefined;
}

function afterSync(steps: Step[]): Verdict {
  const sync = accepted(
    steps.find((s) => s.step === CR_STEP.sync),
    'sync',
  );
  if ('verdict' in sync) return sync.verdict;
  const pages = steps.filter((s) => /^list-\d+$/.test(s.step));
  const found = walk(pages, sync.id);
  if ('verdict' in found || 'at' in found) return 'verdict' in found ? found.verdict : pass();
  const want = `${preview(sync.id)}, accepted by sync_creatives (call ${sync.s.call})`;
  const broken = notAList(found.last, want, [sync.s.call]);
  if (broken) return broken;
  if (!found.complete)
    return untested(
      `${preview(sync.id)} was not on the first ${pages.length} page(s) of list_creatives, which goes on: the walk stops there`,
    );
  const payload = payloadOrVerdict(found.last.x) as { pointer: string };
  return failAcross(
    at(found.last, `${payload.pointer}/creatives`),
    want,
    `list_creatives (call ${pages.map((p) => p.call).join(', ')}) did not return it`,
    [sync.s.call, ...pages.slice(0, -1).map((p) => p.call)],
  );
}

function afterDryRun(steps: Step[]): Verdict {
  const dry = accepted(
    steps.find((s) => s.step === CR_STEP.dryRun),
    'dry run',
  );
  if ('verdict' in dry) return dry.verdict;
  const pages = steps.filter((s) => /^list-after-dry-run-\d+$/.test(s.step));
  const found = walk(pages, dry.id);
  if ('verdict' in found) return found.verdict;
  const want = `no ${preview(dry.id)}: sync_creatives with dry_run: true (call ${dry.s.call}) stores nothing`;
  if ('at' in found) {
    const payload = payloadOrVerdict(found.at.x) as { pointer: string };
    return failAcross(
      at(found.at, `${payload.pointer}/creatives/${found.index}`),
      want,
      `list_creatives (call ${found.at.call}) returned it`,
      [dry.s.call],
    );
  }
  const broken = notAList(found.last, want, [dry.s.call]);
  if (broken) return broken;
  return found.complete
    ? pass()
    : untested(`the first ${pages.length} page(s) of list_creatives did not show it, and the list goes on: the walk stops there`);
}

export default defineCheck({
  id: 'creative.read-after-write',
  scope: 'agent',
  severity: 'MUST',
  live: false,
  requires: 'sandbox',
  title: 'a creative accepted by `sync_creatives` is returned by the next `list_creatives`; one synced with `dry_run: true` is not',
  spec: {
    label:
      'AdCP · sync_creatives › Read-after-write visibility ("MUST be immediately visible to subsequent list_creatives calls"); dry_run ("without applying it")',
    url: 'https://adcontextprotocol.org/docs/creative/task-reference/sync_creatives',
  },
  fix: 'commit each accepted creative to the library before answering sync_creatives (or answer `submitted` and commit when the task completes), serve list_creatives from that library, and store nothing on `dry_run: true`',
  judge(a: AgentCapture): AgentVerdict[] {
    const skipped = a.agent?.sandbox === false ? notApplicable(SANDBOX_ONLY) : notRun(a, CREATIVE_FLOW);
    if (skipped) return [{ subject: 'sync_creatives', verdict: skipped }];
    const steps = scenarioSteps(a, CREATIVE_FLOW);
    return [
      { subject: AFTER_SYNC, verdict: afterSync(steps) },
      { subject: AFTER_DRY_RUN, verdict: afterDryRun(steps) },
    ];
  },
});
