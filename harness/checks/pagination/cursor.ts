// pagination.cursor — a list walked with a small `max_results`, following `pagination.cursor` while
// `has_more` is true, visits every item of the unpaginated answer exactly once: no page larger than asked,
// a cursor on every page that says has_more, none on the last, no item twice, none missing, and the walk
// ends (`has_more: false`) within the pages an honest list needs.
import type { AgentCapture } from '../../record/exchange.ts';
import {
  listItems,
  listTask,
  MAX_PAGES,
  pageInfo,
  pageNumber,
  SCENARIO,
  successPayload,
  type ListTask,
} from '../../capture/scenario-facts.ts';
import { defineCheck, fail, onCall, pass, untested, type AgentVerdict, type Verdict } from '../check.ts';
import { own, preview } from '../../json.ts';
import { about, answerOf, at, notRun, scenarioRecord, scenarioSteps, type Step } from '../scenario-view.ts';
import { payloadOrVerdict } from '../views.ts';

/** The item keys of the unpaginated answer the walk is compared with, and whether that answer was the whole list. */
function baseline(a: AgentCapture, task: ListTask, call: unknown): { keys: string[]; complete: boolean } | { verdict: Verdict } {
  const index = typeof call === 'number' ? call : undefined;
  const x = index === undefined ? undefined : a.exchanges[index];
  const items = x && x.tool === task.tool ? listItems(task, successPayload(x)) : null;
  if (!items) return { verdict: untested('the unpaginated call the walk is compared with is missing from the capture') };
  const keys = items.map((i) => task.key(i));
  if (keys.some((k) => k === null))
    return {
      verdict: untested(`an item of the unpaginated ${task.tool} answer has no id: see schema.adcp-response`, undefined, index),
    };
  return { keys: keys as string[], complete: pageInfo(successPayload(x!)).hasMore !== true };
}

function walk(pages: Step[], task: ListTask, base: { keys: string[]; complete: boolean }): Verdict {
  const seen = new Map<string, number>();
  const cursors = new Set<string>();
  for (const [i, s] of pages.entries()) {
    const n = i + 1;
    const answer = answerOf(s.x, s.call);
    if (answer.kind === 'none') return answer.verdict;
    if (answer.kind !== 'success') {
      const found =
        answer.kind === 'bare-jsonrpc'
          ? answer.found
          : `an AdCP error ${preview(own(answer.error, 'code'))}: ${preview(own(answer.error, 'message'))}`;
      return fail(
        at(s, answer.kind === 'bare-jsonrpc' ? '/error' : answer.pointer),
        `page ${n} of ${task.tool} (the request's pagination is part of its schema)`,
        found,
      );
    }
    const payload = payloadOrVerdict(s.x);
    if ('verdict' in payload) return onCall(payload.verdict, s.call);
    const where = (rest: string): string => at(s, `${payload.pointer}${rest}`);
    const items = listItems(task, payload.data);
    if (!items) return fail(where(`/${task.items}`), `an array of ${task.items}`, 'absent or not an array');
    const max = own(own(s.x.request.arguments, 'pagination'), 'max_results');
    if (typeof max === 'number' && items.length > max)
      return fail(where(`/${task.items}`), `at most ${max} items (max_results)`, `${items.length} items`);
    for (const [j, item] of items.entries()) {
      const key = task.key(item);
      if (key === null) return untested(`page ${n} has an item without an id: see schema.adcp-response`, undefined, s.call);
      const first = seen.get(key);
      if (first !== undefined)
        return fail(where(`/${task.items}/${j}`), 'each item once across the pages', `${preview(key)} again (first on page ${first})`);
      seen.set(key, n);
    }
    const info = pageInfo(payload.data);
    if (info.present && info.hasMore !== true && info.hasMore !== false)
      return fail(where('/pagination/has_more'), 'a boolean', preview(info.hasMore));
    if (info.hasMore !== true) {
      // The last page: no cursor to follow, and nothing of the unpaginated list left out.
      if (info.cursor !== undefined)
        return fail(where('/pagination/cursor'), 'no cursor on the last page (has_more is false)', preview(info.cursor));
      const missing = base.keys.filter((k) => !seen.has(k));
      if (missing.length > 0) {
        return fail(
          where('/pagination/has_more'),
          `more pages: ${missing.length} item(s) of the unpaginated answer not visited yet`,
          `has_more false; never visited ${missing
            .slice(0, 5)
            .map((k) => preview(k))
            .join(', ')}`,
        );
      }
      return n === pages.length ? pass() : untested(`the walk went on after page ${n}, which said it was the last`);
    }
    if (typeof info.cursor !== 'string' || info.cursor === '')
      return fail(
        where('/pagination/cursor'),
        'a cursor to the next page (has_more is true)',
        info.cursor === undefined ? 'absent' : preview(info.cursor),
      );
    if (cursors.has(info.cursor))
      return fail(where('/pagination/cursor'), 'a cursor to the next page', 'the cursor of an earlier page: following it loops');
    cursors.add(info.cursor);
  }
  // Every recorded page said has_more.
  const last = pages[pages.length - 1]!;
  if (!base.complete) {
    // The unpaginated answer was itself one page of a longer list: the walk must have covered it.
    const missing = base.keys.filter((k) => !seen.has(k));
    if (missing.length === 0) return pass();
    return fail(
      at(last, ''),
      `the ${base.keys.length} items of the first unpaginated page among the ${seen.size} visited`,
      `never visited ${missing
        .slice(0, 5)
        .map((k) => preview(k))
        .join(', ')}`,
    );
  }
  if (pages.length >= MAX_PAGES) {
    return fail(
      at(last, '/result'),
      `has_more false within ${MAX_PAGES} pages (the unpaginated answer had ${base.keys.length} items)`,
      'has_more still true',
    );
  }
  return untested(
    `the walk stopped after page ${pages.length} although it said has_more (the cursor was too long to follow, or the session ended)`,
  );
}

export default defineCheck({
  id: 'pagination.cursor',
  scope: 'agent',
  severity: 'MUST',
  live: false,
  title: 'following `pagination.cursor` with a small `max_results` visits every item exactly once and ends with `has_more: false`',
  spec: {
    label:
      'AdCP core/pagination-request.json and core/pagination-response.json (max_results per page; cursor present only while has_more is true)',
    url: 'https://adcontextprotocol.org/schemas/3.1.19/core/pagination-response.json',
  },
  fix: 'return at most max_results items and `"pagination":{"has_more":true,"cursor":"<opaque>"}` while items remain; the cursor resumes after the last item sent; the last page says `{"has_more":false}` without a cursor',
  judge(a: AgentCapture): AgentVerdict[] {
    const name = SCENARIO.pagination;
    const skipped = notRun(a, name);
    if (skipped) return about(name, skipped);
    const pages = scenarioSteps(a, name)
      .filter((s) => pageNumber(s.step) !== null)
      .sort((p, q) => pageNumber(p.step)! - pageNumber(q.step)!);
    if (pages.length === 0) return about(name, untested('no page was requested (the session ended first)'));
    const task = listTask(pages[0]!.x.tool);
    const subject = `${pages[0]!.x.tool} (cursor walk)`;
    if (!task) return about(subject, untested(`${preview(pages[0]!.x.tool)} is not a list task the harness pages`));
    const base = baseline(a, task, scenarioRecord(a, name)?.record.baseCall);
    if ('verdict' in base) return about(subject, base.verdict);
    return about(subject, walk(pages, task, base));
  },
});
