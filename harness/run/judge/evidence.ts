// The evidence shown with a failure: what the harness sent, what the seller answered (its own words:
// error text, adcp_error, exception message, stderr), and — where the answer shows a recognisable root
// cause — one plain sentence naming it with the fix. Pure functions over a captured Exchange; every
// string is bounded and redacted here, before any report sees it.
import type { AgentCapture, Exchange } from '../../record/exchange.ts';
import type { Evidence, RelatedCall, ReportOutcome } from '../../report/model.ts';
import { isObject } from '../../json.ts';
import { echoedVersionOf, safeJson, textsOfAnswer } from '../../extract/answer-facts.ts';
import { sellerText } from '../../sanitize.ts';
import outputConformance from '../../checks/schema/output-conformance.ts';
import { toolName } from '../../checks/run-checks.ts';

const REQUEST_CHARS = 600;
const ANSWER_CHARS = 800;
const STDERR_CHARS = 600;
const DIAGNOSED_CHARS = 8192;

/** answerTexts per call: a finding's related calls ask again for calls already shown (each can be MBs of answer). */
const textsOf = new WeakMap<Exchange, readonly string[]>();

/** Every text a seller put in its answer, in the order a reader looks at them. */
export function answerTexts(x: Exchange): string[] {
  let texts = textsOf.get(x);
  if (!texts) textsOf.set(x, (texts = textsOfAnswer(x.outcome)));
  return [...texts];
}

const SDK_OUTPUT_REJECTION =
  /output validation error|structured content does not match the tool'?s output schema|has an output schema but (?:did not return|no) structured content|Invalid structured content/i;
const SDK_INPUT_REJECTION = /input validation error|invalid arguments for tool/i;
const ZOD_TEXT =
  /"code"\s*:\s*"(?:invalid_type|invalid_value|too_small|too_big|unrecognized_keys|invalid_union)"|Invalid input: expected \w+, received \w+|Expected \w+, received \w+/;
const EXCEPTION = /\b((?:[A-Z][A-Za-z]*)?(?:Error|Exception)): ([^\n]{1,300})/;
const STACK_FRAME = /\n?\s+at [^\n]*\(?(?:\/|file:|[A-Za-z]:\\|node:)[^\n]*:\d+:\d+\)?/;
// What V8 says for the usual handler bugs; the MCP SDK forwards only the message, without the error's name.
const V8_MESSAGE =
  /(?:Cannot read propert(?:y|ies) of (?:undefined|null)[^\n]{0,120}|Cannot set propert(?:y|ies) of (?:undefined|null)[^\n]{0,120}|\S{1,80} is not a function|\S{1,80} is not defined|\S{1,80} is not iterable|Maximum call stack size exceeded|Unexpected token [^\n]{0,80} in JSON[^\n]{0,80})/;

/**
 * One plain sentence naming the root cause an answer shows, with the fix — or undefined when nothing is
 * recognisable. `texts` are the seller's own words (answer texts, then stderr).
 */
export function diagnose(texts: readonly string[]): string | undefined {
  // Bounded: the patterns are linear, and a root cause shows in the first lines of an answer.
  const all = texts.map((t) => t.slice(0, DIAGNOSED_CHARS)).join('\n');
  if (SDK_OUTPUT_REJECTION.test(all)) {
    return "The MCP SDK rejected your tool's answer against your own outputSchema: your outputSchema rejects your own answer (a `z.object` output schema drops or refuses your extra fields). Make the schema match the answer (e.g. `.passthrough()` / `.loose()`), or fix the answer.";
  }
  if (SDK_INPUT_REJECTION.test(all)) {
    return 'The MCP SDK rejected the arguments against your inputSchema before your handler ran, so no AdCP error came back. Validate inside the handler and return `isError: true` with `adcp_error` (e.g. code VALIDATION_ERROR, recovery correctable), or loosen the inputSchema (a zod enum rejects at the SDK layer).';
  }
  const exception = EXCEPTION.exec(all);
  const v8 = V8_MESSAGE.exec(all);
  if (v8 || (exception && STACK_FRAME.test(all))) {
    const what = exception ? `${exception[1]}: ${exception[2]}` : (v8?.[0] ?? '');
    return `Your tool threw \`${what}\` instead of answering. Catch errors in the handler and return an AdCP error (\`isError: true\` with \`adcp_error\`), and fix the bug; never pass exception text to the buyer.`;
  }
  if (ZOD_TEXT.test(all)) {
    return 'The answer is a zod validation error, not an AdCP answer: a schema check inside your server refused its own data. Return an AdCP error with a short message instead of the validator output, and fix the data or the schema.';
  }
  if (exception)
    return `The answer carries an exception (\`${exception[1]}: ${exception[2]}\`): your tool failed internally. Return an AdCP error and fix the cause.`;
  return undefined;
}

/** The evidence of one call: request, answer excerpt, stderr during the call, diagnosis. */
export function callEvidence(x: Exchange, capture: AgentCapture, secrets: readonly string[]): Evidence {
  const evidence: Evidence = {};
  try {
    evidence.request = sellerText(`${String(x.request?.name ?? x.tool)} ${safeJson(x.request?.arguments ?? {})}`, secrets, REQUEST_CHARS);
  } catch {
    evidence.request = '(unreadable request)';
  }
  const texts = answerTexts(x);
  if (texts.length) evidence.answer = sellerText(texts.join(' | '), secrets, ANSWER_CHARS);
  const stderrDuring = (x as { stderrDuring?: unknown }).stderrDuring;
  const stderr =
    typeof stderrDuring === 'string' && stderrDuring.trim() !== ''
      ? stderrDuring
      : x.outcome.kind === 'transport-error'
        ? capture.stdio?.stderrTail
        : undefined;
  if (typeof stderr === 'string' && stderr.trim() !== '') evidence.stderr = sellerText(stderr.trim(), secrets, STDERR_CHARS);
  const diagnosis = diagnose([...texts, ...(typeof stderr === 'string' ? [stderr] : [])]);
  if (diagnosis) evidence.diagnosis = sellerText(diagnosis, secrets, 600);
  return evidence;
}

/**
 * A root cause the answer's text cannot show: an outputSchema whose only complaint is fields it does not
 * list. The MCP SDK writes a `z.object` outputSchema with `additionalProperties: false` while its own
 * server-side zod check accepts the extra fields and sends them out — the seller's schema then rejects the
 * seller's own answer in every client that validates it.
 */
export function diagnoseSchemaErrors(o: Pick<ReportOutcome, 'check' | 'schemaErrors'>): string | undefined {
  const errors = o.schemaErrors ?? [];
  if (o.check !== outputConformance.id || errors.length === 0 || !errors.every((e) => e.keyword === 'additionalProperties'))
    return undefined;
  const fields = [...new Set(errors.map((e) => /'([^']{1,60})'/.exec(e.expected)?.[1]).filter((f): f is string => f !== undefined))].slice(
    0,
    5,
  );
  const named = fields.length ? ` (${fields.join(', ')})` : '';
  return `Your outputSchema forbids fields your tool returns${named}: it says \`additionalProperties: false\`. An MCP SDK \`z.object\` outputSchema is advertised that way, while the SDK's own zod check accepts the extra fields and sends them out. List every field you return in the schema, or make it \`z.looseObject(…)\` / \`.passthrough()\`.`;
}

/** At most this many related calls are shown with one finding (failAcross keeps at most 8). */
const RELATED_SHOWN = 4;
const RELATED_REQUEST_CHARS = 400;
const RELATED_ANSWER_CHARS = 500;

/** The other calls a finding rests on (`related`): each one's request and answer, bounded and redacted. */
export function relatedEvidence(
  related: readonly number[] | undefined,
  call: number | undefined,
  exchanges: readonly Exchange[],
  secrets: readonly string[],
): RelatedCall[] {
  if (!Array.isArray(related)) return [];
  const out: RelatedCall[] = [];
  for (const n of new Set(related)) {
    if (out.length >= RELATED_SHOWN) break;
    const x = Number.isSafeInteger(n) && n !== call ? exchanges[n] : undefined;
    if (!x) continue;
    out.push({
      call: n,
      tool: sellerText(toolName(x), secrets, 200),
      ...callExcerpt(x, secrets, RELATED_REQUEST_CHARS, RELATED_ANSWER_CHARS),
    });
  }
  return out;
}

/** A call's request (`tool {arguments}`) and answer texts, bounded and redacted. */
export function callExcerpt(
  x: Exchange,
  secrets: readonly string[],
  requestChars: number,
  answerChars: number,
): { request: string; answer?: string } {
  let request: string;
  try {
    request = sellerText(`${String(x.request?.name ?? x.tool)} ${safeJson(x.request?.arguments ?? {})}`, secrets, requestChars);
  } catch {
    request = '(unreadable request)';
  }
  const texts = answerTexts(x);
  return texts.length ? { request, answer: sellerText(texts.join(' | '), secrets, answerChars) } : { request };
}

/**
 * Evidence on every fail and warn. One root cause is reported once: later findings on the same call that
 * share the diagnosis point to the first one instead of repeating it. A finding that rests on more calls
 * (`related`) shows each one's request and answer with its own.
 */
export function attachEvidence(outcomes: ReportOutcome[], capture: AgentCapture, secrets: readonly string[]): void {
  const exchanges = Array.isArray(capture.exchanges) ? capture.exchanges : [];
  const byCall = new Map<number, Evidence>();
  const firstFinding = new Map<number, string>();
  for (const o of outcomes) {
    const finding = o.status === 'fail' || o.status === 'warn';
    const related = finding ? relatedEvidence(o.related, o.call, exchanges, secrets) : [];
    const x = o.call === undefined ? undefined : exchanges[o.call];
    if (o.call !== undefined && x) {
      if (typeof x.durationMs === 'number' && Number.isFinite(x.durationMs)) o.durationMs = Math.max(0, Math.round(x.durationMs));
      if (finding) callFinding(o, o.call, x);
    }
    if (related.length) o.evidence = { ...o.evidence, related };
  }

  function callFinding(o: ReportOutcome, call: number, x: Exchange): void {
    let evidence = byCall.get(call);
    if (!evidence) byCall.set(call, (evidence = callEvidence(x, capture, secrets)));
    const first = firstFinding.get(call);
    const fromSchema = evidence.diagnosis === undefined ? diagnoseSchemaErrors(o) : undefined;
    if (first === undefined) {
      firstFinding.set(call, `${o.check} › ${o.tool}`);
      o.evidence = { ...evidence, ...(fromSchema ? { diagnosis: sellerText(fromSchema, secrets, 600) } : {}) };
    } else if (fromSchema) {
      o.evidence = { ...evidence, diagnosis: sellerText(fromSchema, secrets, 600) };
    } else if (evidence.diagnosis) {
      const { diagnosis: _shown, ...rest } = evidence;
      o.evidence = { ...rest, sameCauseAs: first };
    } else {
      o.evidence = { ...evidence };
    }
  }
}

/**
 * The release the seller served and the one the harness pinned, for reports and `probe`: `served: adcp_version
 * "3.1" (get_adcp_capabilities) · pinned: adcp_version 3.1 (capabilities: …)`. Bounded; own properties only.
 */
export function releaseFacts(capture: AgentCapture): string {
  const parts: string[] = [];
  const exchanges = Array.isArray(capture.exchanges) ? capture.exchanges : [];
  // Each distinct release echoed (at most 3), with the first call that echoed it.
  const served = new Map<string, string>();
  for (const x of exchanges.slice(0, 500)) {
    if (x.outcome.kind !== 'result' || x.intent !== 'valid') continue;
    const echoed = echoedVersionOf(x.outcome);
    if (typeof echoed !== 'string' || served.has(echoed.slice(0, 40))) continue;
    served.set(echoed.slice(0, 40), String(x.tool).slice(0, 64));
    if (served.size >= 3) break;
  }
  parts.push(
    served.size
      ? `served: ${[...served].map(([v, tool]) => `adcp_version ${JSON.stringify(v)} (echoed in ${tool})`).join(', ')}`
      : 'served: no adcp_version echoed',
  );
  const pin = capture.adcpPin;
  if (pin && isObject(pin))
    parts.push(
      typeof pin.release === 'string'
        ? `pinned: adcp_version ${pin.release.slice(0, 20)} (${String(pin.reason).slice(0, 200)})`
        : `pinned: none (${String(pin.reason).slice(0, 200)})`,
    );
  return parts.join(' · ');
}
