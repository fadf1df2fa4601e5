// idempotency.conflict — the same idempotency_key with a different body (here: another package budget)
// gets IDEMPOTENCY_CONFLICT, and the error does not say how the bodies differ: no `field`, and neither its
// message, suggestion nor details name what changed. Whoever holds a leaked key must not be able to read
// the earlier request back out of the refusals.
import type { AgentCapture, Exchange } from '../../record/exchange.ts';
import { STEP } from '../../capture/scenario-facts.ts';
import { defineCheck, fail, pass, type AgentVerdict, type Verdict } from '../check.ts';
import { clip, isObject, own, preview, safeStringify, type JsonObject } from '../../json.ts';
import { answerOf, at, codeOf, type Step } from '../scenario-view.ts';
import { idempotencyStep, SUBJECT } from './_scenario.ts';

const WANT = 'IDEMPOTENCY_CONFLICT (the key was already used for another request)';
const MAX_DEPTH = 16;

/** The names of the fields whose values differ between two requests (leaf names; context and key aside). */
function differingFields(a: unknown, b: unknown, depth = 0, name = ''): string[] {
  if (depth > MAX_DEPTH) return [];
  if (Array.isArray(a) && Array.isArray(b)) {
    const out = a.length === b.length ? [] : [name];
    for (let i = 0; i < Math.min(a.length, b.length); i++) out.push(...differingFields(a[i], b[i], depth + 1, name));
    return out;
  }
  if (isObject(a) && isObject(b)) {
    const keys = new Set([...Object.keys(a), ...Object.keys(b)]);
    return [...keys].flatMap((k) =>
      depth === 0 && (k === 'context' || k === 'idempotency_key') ? [] : differingFields(own(a, k), own(b, k), depth + 1, k),
    );
  }
  return safeStringify(a) === safeStringify(b) ? [] : [name];
}

/** Where the error names one of `fields`: the pointer and the text, or null. */
function naming(error: JsonObject, fields: readonly string[]): { where: string; text: string } | null {
  const names = fields.filter((f) => f !== '');
  if (names.length === 0) return null;
  const pattern = new RegExp(`\\b(${names.map((n) => n.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('|')})\\b`, 'i');
  for (const key of ['message', 'suggestion', 'details']) {
    const v = own(error, key);
    const text = typeof v === 'string' ? v : v === undefined ? '' : (safeStringify(v) ?? '');
    if (pattern.test(text)) return { where: `/${key}`, text: clip(text, 160) };
  }
  return null;
}

function conflicted(original: Exchange, s: Step): Verdict {
  const answer = answerOf(s.x, s.call);
  switch (answer.kind) {
    case 'none':
      return answer.verdict;
    case 'success':
      return fail(at(s, '/result/isError'), WANT, 'a success: the same key with another body was served');
    case 'bare-jsonrpc':
      return fail(at(s, '/error'), WANT, answer.found);
  }
  const code = codeOf(answer.error, s.call);
  if ('verdict' in code) return code.verdict;
  if (code.code !== 'IDEMPOTENCY_CONFLICT') return fail(at(s, `${answer.pointer}/code`), 'IDEMPOTENCY_CONFLICT', preview(code.code));
  const field = own(answer.error, 'field');
  if (field !== undefined)
    return fail(at(s, `${answer.pointer}/field`), 'no `field`: the error must not say which part of the request differed', preview(field));
  const fields = differingFields(original.request.arguments, s.x.request.arguments);
  const named = naming(answer.error, fields);
  if (named) return fail(at(s, `${answer.pointer}${named.where}`), `no mention of what differed (${fields.join(', ')})`, named.text);
  return pass();
}

export default defineCheck({
  id: 'idempotency.conflict',
  scope: 'agent',
  severity: 'MUST',
  live: false,
  requires: 'sandbox',
  title: 'the same `idempotency_key` with a different body gets IDEMPOTENCY_CONFLICT, and the error does not reveal which field differed',
  spec: {
    label:
      'AdCP enums/error-code.json · IDEMPOTENCY_CONFLICT (same key, different canonical payload; recovery correctable); the conflict error must not echo the earlier request',
    url: 'https://adcontextprotocol.org/schemas/3.1.19/enums/error-code.json',
  },
  fix: 'compare the canonical body with the cached one and answer `{"adcp_error":{"code":"IDEMPOTENCY_CONFLICT","message":"idempotency_key was already used for a different request","recovery":"correctable"}}` — no `field`, no details of the difference',
  judge(a: AgentCapture): AgentVerdict[] {
    const found = idempotencyStep(a, STEP.conflict, 'conflict with');
    if ('verdicts' in found) return found.verdicts;
    return [{ subject: `${SUBJECT} (same key, other body)`, verdict: conflicted(found.original.x, found.step) }];
  },
});
