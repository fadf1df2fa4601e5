// envelope.* — the shape of a tools/call result (MCP) and of the AdCP payload it carries.
// Success rules apply to results whose isError is absent or false; is-error-type, content-blocks,
// context-echo and reserved-keys apply to error results too.
import { fail, pass, skip, type ExchangeCheck } from './check.ts';
import { isAdcpErrorOnly, TEXT_LIMIT } from '../extract/success.ts';
import { describeType, hasOwn, isObject, jsonBytes, jsonEqual, MAX_DEPTH, own, preview, token, type JsonObject } from './json.ts';
import {
  adcpPayload,
  adcpVersionOf,
  NO_ANSWER,
  payloadOrVerdict,
  successResult,
  outputSchemaOf,
  textItems,
  viewResult,
} from './views.ts';
import { isAdcpTask } from './adcp-tasks.ts';

const EXTRACTION = 'AdCP · MCP response extraction';
const ENVELOPE_31 = 'AdCP 3.1 core/protocol-envelope.json';

export const isErrorType: ExchangeCheck = {
  id: 'envelope.is-error-type',
  scope: 'exchange',
  severity: 'MUST',
  live: false,
  title: '`isError`, when present, is a boolean',
  spec: 'MCP 2025-06-18 · Server features › Tools › Tool result (CallToolResult.isError?: boolean)',
  run(x) {
    if (x.outcome.kind !== 'result') return skip(x.outcome.kind === 'transport-error' ? NO_ANSWER : 'a JSON-RPC error, not a tool result');
    const result = x.outcome.result;
    if (!isObject(result)) return skip('the result is not a JSON object: see envelope.content-blocks');
    if (!hasOwn(result, 'isError')) return pass();
    const v = own(result, 'isError');
    return typeof v === 'boolean' ? pass() : fail('/result/isError', 'a boolean (true or false) or no isError key', `${describeType(v)} ${preview(v)}`);
  },
};

const BLOCK_TYPES = ['text', 'image', 'audio', 'resource_link', 'resource'] as const;

type BlockProblem = { at: string; expected: string; found: string };

/** MCP 2025-11-25 `Annotations` (every content block may carry them): audience, priority, lastModified. */
function annotationsProblem(owner: JsonObject, base: string): BlockProblem | null {
  if (!hasOwn(owner, 'annotations')) return null;
  const a = own(owner, 'annotations');
  if (!isObject(a)) return { at: `${base}/annotations`, expected: 'an annotations object', found: `${describeType(a)} ${preview(a)}` };
  const audience = own(a, 'audience');
  if (audience !== undefined && !(Array.isArray(audience) && audience.every((r) => r === 'user' || r === 'assistant'))) {
    return { at: `${base}/annotations/audience`, expected: 'an array of "user" / "assistant"', found: preview(audience) };
  }
  const priority = own(a, 'priority');
  if (priority !== undefined && !(typeof priority === 'number' && priority >= 0 && priority <= 1)) {
    return { at: `${base}/annotations/priority`, expected: 'a number from 0 to 1', found: `${describeType(priority)} ${preview(priority)}` };
  }
  const lastModified = own(a, 'lastModified');
  if (lastModified !== undefined && typeof lastModified !== 'string') {
    return { at: `${base}/annotations/lastModified`, expected: 'an ISO 8601 string', found: `${describeType(lastModified)} ${preview(lastModified)}` };
  }
  return null;
}

/** `_meta`, when present, is an object (MCP 2025-11-25, every content block and resource contents). */
function metaProblem(owner: JsonObject, base: string): BlockProblem | null {
  if (!hasOwn(owner, '_meta')) return null;
  const m = own(owner, '_meta');
  return isObject(m) ? null : { at: `${base}/_meta`, expected: 'a _meta object', found: `${describeType(m)} ${preview(m)}` };
}

/** What is wrong with one content block, or null when it is well formed. */
function blockProblem(block: unknown): BlockProblem | null {
  if (!isObject(block)) return { at: '', expected: 'a content block object', found: describeType(block) };
  return typeProblem(block) ?? annotationsProblem(block, '') ?? metaProblem(block, '');
}

/** The required fields of the block's type (MCP 2025-11-25 ContentBlock). */
function typeProblem(block: JsonObject): BlockProblem | null {
  const type = own(block, 'type');
  const str = (key: string): BlockProblem | null => {
    const v = own(block, key);
    return typeof v === 'string' ? null : { at: `/${key}`, expected: `a string \`${key}\` (type ${String(type)})`, found: `${describeType(v)} ${preview(v)}` };
  };
  switch (type) {
    case 'text':
      return str('text');
    case 'image':
    case 'audio':
      return str('data') ?? str('mimeType');
    case 'resource_link':
      return str('uri') ?? str('name');
    case 'resource': {
      const resource = own(block, 'resource');
      if (!isObject(resource)) return { at: '/resource', expected: 'an embedded resource object', found: describeType(resource) };
      const uri = own(resource, 'uri');
      if (typeof uri !== 'string') return { at: '/resource/uri', expected: 'a string `uri` (type resource)', found: `${describeType(uri)} ${preview(uri)}` };
      if (typeof own(resource, 'text') !== 'string' && typeof own(resource, 'blob') !== 'string') {
        return { at: '/resource', expected: 'a string `text` or `blob` (type resource)', found: 'neither' };
      }
      return metaProblem(resource, '/resource');
    }
    default:
      return { at: '/type', expected: `one of ${BLOCK_TYPES.join(', ')}`, found: preview(type) };
  }
}

export const contentBlocks: ExchangeCheck = {
  id: 'envelope.content-blocks',
  scope: 'exchange',
  severity: 'MUST',
  live: false,
  title: '`content` is an array of well-formed MCP content blocks',
  spec: 'MCP 2025-11-25 · Server features › Tools › Tool result (content: ContentBlock[]; text, image, audio, resource_link, resource; optional annotations, _meta)',
  run(x) {
    if (x.outcome.kind !== 'result') return skip(x.outcome.kind === 'transport-error' ? NO_ANSWER : 'a JSON-RPC error, not a tool result');
    const result = x.outcome.result;
    if (!isObject(result)) return fail('/result', 'a CallToolResult object', `${describeType(result)} ${preview(result)}`);
    const content = own(result, 'content');
    if (!Array.isArray(content)) return fail('/result/content', 'an array of content blocks', `${describeType(content)} ${preview(content)}`);
    for (let i = 0; i < content.length; i++) {
      const problem = blockProblem(content[i]);
      if (problem) return fail(`/result/content/${i}${problem.at}`, problem.expected, problem.found);
    }
    return pass();
  },
};

/** The severity of envelope.structured-content for a negotiated revision, or the reason it is not checked. */
export function structuredContentLevel(protocol: unknown): { severity: 'MUST' | 'SHOULD' } | { skip: string } {
  if (typeof protocol !== 'string' || !/^\d{4}-\d{2}-\d{2}$/.test(protocol)) {
    return { skip: `negotiated MCP revision unknown (${preview(protocol)}): structuredContent rule not checked` };
  }
  if (protocol >= '2025-06-18') return { severity: 'MUST' };
  if (protocol >= '2025-03-26') return { severity: 'SHOULD' };
  return { skip: `MCP ${protocol} predates structuredContent (first defined in 2025-06-18; AdCP names 2025-03-26)` };
}

export const structuredContent: ExchangeCheck = {
  id: 'envelope.structured-content',
  scope: 'exchange',
  severity: 'MUST',
  live: false,
  title: 'a success carries `structuredContent` (MUST from MCP 2025-06-18, SHOULD under 2025-03-26)',
  spec: `MCP 2025-06-18 · Tools › Structured content; ${EXTRACTION} · structuredContent (preferred — MCP 2025-03-26+)`,
  run(x) {
    const s = successResult(x);
    if ('skip' in s) return skip(s.skip);
    // MCP makes structuredContent optional for a tool without an outputSchema; only AdCP asks for it.
    if (!isAdcpTask(x.tool) && outputSchemaOf(x) === undefined) {
      return skip(`'${String(x.tool)}' is not an AdCP task and declares no outputSchema: structuredContent is optional in MCP`);
    }
    const level = structuredContentLevel(x.protocolVersion);
    if ('skip' in level) return skip(level.skip);
    if (hasOwn(s.result, 'structuredContent')) return pass();
    const text = textItems(s.result);
    return fail(
      '/result/structuredContent',
      `structuredContent with the AdCP payload (MCP ${String(x.protocolVersion)})`,
      `absent; content has ${text.length} text item(s)`,
      level.severity,
    );
  },
};

export const structuredContentObject: ExchangeCheck = {
  id: 'envelope.structured-content-object',
  scope: 'exchange',
  severity: 'MUST',
  live: false,
  title: '`structuredContent` is a non-array JSON object',
  spec: `MCP 2025-06-18 · Tools › Structured content (a JSON object); ${EXTRACTION} · algorithm step 2`,
  run(x) {
    const s = successResult(x);
    if ('skip' in s) return skip(s.skip);
    if (!hasOwn(s.result, 'structuredContent')) return skip('no structuredContent: see envelope.structured-content');
    const sc = own(s.result, 'structuredContent');
    return isObject(sc) ? pass() : fail('/result/structuredContent', 'a non-array JSON object', `${describeType(sc)} ${preview(sc)}`);
  },
};

export const adcpErrorOnlySuccess: ExchangeCheck = {
  id: 'envelope.adcp-error-only-success',
  scope: 'exchange',
  severity: 'MUST',
  live: false,
  title: 'a success never carries an `adcp_error`-only object (an error missing its `isError` flag)',
  spec: `${EXTRACTION} · algorithm steps 2–3 and client requirement 4`,
  run(x) {
    const s = successResult(x);
    if ('skip' in s) return skip(s.skip);
    const sc = own(s.result, 'structuredContent');
    if (isAdcpErrorOnly(sc)) return fail('/result/structuredContent', 'an error flagged isError:true', `adcp_error alone, isError absent: ${preview(sc)}`);
    for (const t of textItems(s.result)) {
      if (isAdcpErrorOnly(t.json?.value)) {
        return fail(`/result/content/${t.index}/text`, 'an error flagged isError:true', `adcp_error alone, isError absent: ${preview(t.text)}`);
      }
    }
    return pass();
  },
};

export const extractable: ExchangeCheck = {
  id: 'envelope.extractable',
  scope: 'exchange',
  severity: 'MUST',
  live: false,
  title: 'the success extraction yields an AdCP object for every AdCP tool call that succeeded',
  spec: `${EXTRACTION} · extraction algorithm (steps 1–4)`,
  run(x) {
    const s = successResult(x);
    if ('skip' in s) return skip(s.skip);
    if (!isAdcpTask(x.tool)) return skip(`'${String(x.tool)}' is not an AdCP task`);
    if (adcpPayload(s.result)) return pass();
    // An adcp_error-only "success" fails here too: the client extracts nothing (and
    // envelope.adcp-error-only-success names the cause).
    const texts = textItems(s.result);
    if (!isObject(own(s.result, 'structuredContent')) && texts.some((t) => t.oversize)) {
      return skip('the only candidate text is over 1 MiB: see envelope.size');
    }
    const sc = own(s.result, 'structuredContent');
    const scState = isAdcpErrorOnly(sc)
      ? 'structuredContent is adcp_error alone'
      : hasOwn(s.result, 'structuredContent')
        ? `structuredContent is ${describeType(sc)}`
        : 'structuredContent absent';
    return fail(
      '/result',
      'structuredContent object, or a text item whose JSON is an object',
      `${scState}; ${texts.length} text item(s), none parses to a JSON object other than adcp_error alone${texts[0] ? ` (first: ${preview(texts[0].text)})` : ''}`,
    );
  },
};

export const size: ExchangeCheck = {
  id: 'envelope.size',
  scope: 'exchange',
  severity: 'MUST',
  live: false,
  title: '`structuredContent` and every text item are ≤ 1 MiB (UTF-8)',
  spec: `${EXTRACTION} · Security considerations › Size limits (1 MB; applied before JSON.parse)`,
  run(x) {
    if (x.outcome.kind === 'transport-error') {
      const f = x.outcome.failure;
      if (f.kind !== 'oversize') return skip(NO_ANSWER);
      return fail('/outcome/failure', 'an answer within the byte cap', `the body passed the cap${typeof f.bytesSeen === 'number' ? ` after ${f.bytesSeen} bytes` : ''}: ${f.message}`);
    }
    const s = successResult(x);
    if ('skip' in s) return skip(s.skip);
    if (hasOwn(s.result, 'structuredContent')) {
      const bytes = jsonBytes(own(s.result, 'structuredContent'));
      if (bytes === null) return fail('/result/structuredContent', 'serializable JSON ≤ 1,048,576 bytes', 'could not be re-serialized (nesting too deep)');
      if (bytes > TEXT_LIMIT) return fail('/result/structuredContent', `≤ ${TEXT_LIMIT} bytes serialized (UTF-8)`, `${bytes} bytes`);
    }
    for (const t of textItems(s.result)) {
      if (t.oversize) {
        const note = t.utf16 <= TEXT_LIMIT ? '; the spec sample code counts UTF-16 units and would accept it' : '';
        return fail(`/result/content/${t.index}/text`, `≤ ${TEXT_LIMIT} bytes (UTF-8)`, `${t.utf8} bytes UTF-8, ${t.utf16} UTF-16 units${note}`);
      }
    }
    return pass();
  },
};

export const textMirror: ExchangeCheck = {
  id: 'envelope.text-mirror',
  scope: 'exchange',
  severity: 'SHOULD',
  live: false,
  title: 'where a text item parses to an object and `structuredContent` exists, both are the same data',
  spec: `MCP 2025-06-18 · Tools › Structured content (SHOULD also return the serialized JSON in a TextContent block); ${EXTRACTION} · Extraction paths`,
  run(x) {
    const s = successResult(x);
    if ('skip' in s) return skip(s.skip);
    const sc = own(s.result, 'structuredContent');
    if (!isObject(sc)) return skip('no structuredContent object to mirror');
    if (isAdcpErrorOnly(sc)) return skip('adcp_error-only success: see envelope.adcp-error-only-success');
    const mirrors = textItems(s.result).filter((t) => isObject(t.json?.value) && !isAdcpErrorOnly(t.json?.value));
    if (mirrors.length === 0) return skip('no text item carries a JSON object');
    for (const t of mirrors) {
      if (!jsonEqual(t.json?.value, sc)) {
        return fail(`/result/content/${t.index}/text`, 'the same JSON object as structuredContent', preview(t.text));
      }
    }
    return pass();
  },
};

/** Protocol-envelope fields that sit beside the task body on MCP (AdCP 3.1 core/protocol-envelope.json). */
const ENVELOPE_KEYS = new Set([
  'status', 'message', 'context', 'context_id', 'task_id', 'timestamp', 'replayed', 'adcp_error',
  'push_notification_config', 'governance_context', 'adcp_version',
]);
const NESTING_KEYS = new Set(['payload', 'data', 'response']);

export const flat: ExchangeCheck = {
  id: 'envelope.flat',
  scope: 'exchange',
  severity: 'MUST',
  live: false,
  title: 'the payload is not nested under a lone `payload` / `data` / `response` key',
  spec: `${ENVELOPE_31} · notes › Transport serialization (MCP: body fields are siblings of envelope fields at the root); ${EXTRACTION} · structuredContent`,
  run(x) {
    const p = payloadOrVerdict(x);
    if ('skip' in p) return skip(p.skip);
    // Envelope siblings (status, context, …) do not count: `{status, data:{…}}` is nested all the same.
    const body = Object.keys(p.data).filter((k) => !ENVELOPE_KEYS.has(k));
    const lone = body.length === 1 ? body[0]! : undefined;
    if (lone !== undefined && NESTING_KEYS.has(lone) && isObject(own(p.data, lone))) {
      return fail(`${p.pointer}/${token(lone)}`, 'task fields at the root of the payload', `the body nested under a lone "${lone}" key: ${preview(own(p.data, lone))}`);
    }
    return pass();
  },
};

const TASK_STATUSES = ['submitted', 'working', 'input-required', 'completed', 'canceled', 'failed', 'rejected', 'auth-required', 'unknown'];

export const status: ExchangeCheck = {
  id: 'envelope.status',
  scope: 'exchange',
  severity: 'MUST',
  live: false,
  title: '`status` is present and a task status (MUST from AdCP 3.1, SHOULD for 3.0)',
  spec: `${ENVELOPE_31} · status (REQUIRED on every task response; enums/task-status.json)`,
  run(x, ctx) {
    const p = payloadOrVerdict(x);
    if ('skip' in p) return skip(p.skip);
    const v = own(p.data, 'status');
    if (typeof v === 'string' && TASK_STATUSES.includes(v)) return pass();
    const version = adcpVersionOf(p.data, ctx);
    const severity = version.major > 3 || (version.major === 3 && version.minor >= 1) ? 'MUST' : 'SHOULD';
    return fail(
      `${p.pointer}/status`,
      `one of ${TASK_STATUSES.join(', ')} (AdCP ${version.label}, from ${version.source})`,
      v === undefined ? 'absent' : `${describeType(v)} ${preview(v)}`,
      severity,
    );
  },
};

export const legacyStatusFields: ExchangeCheck = {
  id: 'envelope.legacy-status-fields',
  scope: 'exchange',
  severity: 'MUST',
  live: false,
  title: 'no `task_status` / `response_status` fields',
  spec: `${ENVELOPE_31} · status ("MUST NOT emit the legacy task_status or response_status fields"); schema \`not\` clause`,
  run(x) {
    const p = payloadOrVerdict(x);
    if ('skip' in p) return skip(p.skip);
    for (const key of ['task_status', 'response_status']) {
      if (hasOwn(p.data, key)) return fail(`${p.pointer}/${key}`, 'no legacy status field (use `status`)', `${key}: ${preview(own(p.data, key))}`);
    }
    return pass();
  },
};

/** Where an error result may carry the echoed context (lenient: every place a conformant SDK puts it). */
function errorContextCandidates(result: JsonObject): Array<{ pointer: string; value: unknown }> {
  const out: Array<{ pointer: string; value: unknown }> = [];
  const add = (base: string, container: unknown): void => {
    if (!isObject(container)) return;
    if (hasOwn(container, 'context')) out.push({ pointer: `${base}/context`, value: own(container, 'context') });
    const err = own(container, 'adcp_error');
    if (isObject(err) && hasOwn(err, 'context')) out.push({ pointer: `${base}/adcp_error/context`, value: own(err, 'context') });
  };
  add('/result/structuredContent', own(result, 'structuredContent'));
  for (const t of textItems(result)) add(`/result/content/${t.index}/text`, t.json?.value);
  return out;
}

export const contextEcho: ExchangeCheck = {
  id: 'envelope.context-echo',
  scope: 'exchange',
  severity: 'MUST',
  live: false,
  title: 'the `context` object the harness sent comes back unchanged, on errors too',
  spec: `${ENVELOPE_31} · context ("echoed unchanged", preserved byte-for-byte); AdCP core/context.json`,
  run(x) {
    const sent = isObject(x.request) ? own(x.request.arguments, 'context') : undefined;
    if (!isObject(sent)) return skip('the request carried no context object');
    const v = viewResult(x);
    if (v.kind === 'none') return skip(v.reason);
    if (v.kind === 'success') {
      const p = payloadOrVerdict(x);
      if ('skip' in p) return skip(p.skip);
      const back = own(p.data, 'context');
      if (jsonEqual(back, sent)) return pass();
      return fail(`${p.pointer}/context`, `the sent context ${preview(sent)}`, back === undefined ? 'absent' : preview(back));
    }
    // Errors: AdCP SDKs put the echo beside adcp_error in structuredContent; accept it inside the error too.
    const candidates = errorContextCandidates(v.result);
    if (candidates.some((c) => jsonEqual(c.value, sent))) return pass();
    const first = candidates[0];
    return fail(
      first?.pointer ?? '/result/structuredContent/context',
      `the sent context ${preview(sent)} (structuredContent.context or adcp_error.context)`,
      first ? preview(first.value) : 'absent',
    );
  },
};

const RESERVED = new Set(['__proto__', 'constructor', 'prototype']);
const WALK_BUDGET = 200_000;

/** First reserved key in a JSON value: explicit stack, depth bound, node budget, own keys only. */
export function findReservedKey(root: unknown, base: string): string | null {
  const stack: Array<[unknown, string, number]> = [[root, base, 0]];
  let visited = 0;
  while (stack.length > 0 && visited < WALK_BUDGET) {
    const [node, at, depth] = stack.pop()!;
    visited++;
    if (node === null || typeof node !== 'object' || depth > MAX_DEPTH) continue;
    if (Array.isArray(node)) {
      for (let i = node.length - 1; i >= 0; i--) stack.push([node[i], `${at}/${i}`, depth + 1]);
      continue;
    }
    const keys = Object.keys(node);
    for (const k of keys) if (RESERVED.has(k)) return `${at}/${token(k)}`;
    for (let i = keys.length - 1; i >= 0; i--) stack.push([own(node, keys[i]!), `${at}/${token(keys[i]!)}`, depth + 1]);
  }
  return null;
}

export const reservedKeys: ExchangeCheck = {
  id: 'envelope.reserved-keys',
  scope: 'exchange',
  severity: 'SHOULD',
  live: false,
  title: 'no `__proto__`, `constructor` or `prototype` keys at any depth',
  spec: `${EXTRACTION} · Security considerations › Prototype pollution`,
  run(x) {
    // Judged on every result, errors included: clients parse those as well.
    if (x.outcome.kind !== 'result') return skip(x.outcome.kind === 'transport-error' ? NO_ANSWER : 'a JSON-RPC error, not a tool result');
    const result = x.outcome.result;
    const hit = findReservedKey(result, '/result');
    if (hit) return fail(hit, 'no __proto__ / constructor / prototype key', `key at ${hit}`);
    if (isObject(result)) {
      for (const t of textItems(result)) {
        const inText = findReservedKey(t.json?.value, `/result/content/${t.index}/text`);
        if (inText) return fail(inText, 'no __proto__ / constructor / prototype key', `key in the text JSON at ${inText}`);
      }
    }
    return pass();
  },
};

export const envelopeChecks: readonly ExchangeCheck[] = [
  isErrorType,
  contentBlocks,
  structuredContent,
  structuredContentObject,
  adcpErrorOnlySuccess,
  extractable,
  size,
  textMirror,
  flat,
  status,
  legacyStatusFields,
  contextEcho,
  reservedKeys,
];

