// envelope.content-blocks — `content` is an array of well-formed MCP content blocks (MCP 2025-11-25
// ContentBlock: text, image, audio, resource_link, resource; optional annotations and _meta), on
// every result, errors included.
import { defineCheck, fail, pass } from '../check.ts';
import { describeType, hasOwn, isObject, own, preview, type JsonObject } from '../../json.ts';
import { toolResult } from './_tool-result.ts';

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
    return {
      at: `${base}/annotations/priority`,
      expected: 'a number from 0 to 1',
      found: `${describeType(priority)} ${preview(priority)}`,
    };
  }
  const lastModified = own(a, 'lastModified');
  if (lastModified !== undefined && typeof lastModified !== 'string') {
    return {
      at: `${base}/annotations/lastModified`,
      expected: 'an ISO 8601 string',
      found: `${describeType(lastModified)} ${preview(lastModified)}`,
    };
  }
  return null;
}

/** `_meta`, when present, is an object (MCP 2025-11-25, every content block and resource contents). */
function metaProblem(owner: JsonObject, base: string): BlockProblem | null {
  if (!hasOwn(owner, '_meta')) return null;
  const m = own(owner, '_meta');
  return isObject(m) ? null : { at: `${base}/_meta`, expected: 'a _meta object', found: `${describeType(m)} ${preview(m)}` };
}

/** The required fields of the block's type (MCP 2025-11-25 ContentBlock). */
function typeProblem(block: JsonObject): BlockProblem | null {
  const type = own(block, 'type');
  const str = (key: string): BlockProblem | null => {
    const v = own(block, key);
    return typeof v === 'string'
      ? null
      : { at: `/${key}`, expected: `a string \`${key}\` (type ${String(type)})`, found: `${describeType(v)} ${preview(v)}` };
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
      if (typeof uri !== 'string')
        return { at: '/resource/uri', expected: 'a string `uri` (type resource)', found: `${describeType(uri)} ${preview(uri)}` };
      if (typeof own(resource, 'text') !== 'string' && typeof own(resource, 'blob') !== 'string') {
        return { at: '/resource', expected: 'a string `text` or `blob` (type resource)', found: 'neither' };
      }
      return metaProblem(resource, '/resource');
    }
    default:
      return { at: '/type', expected: `one of ${BLOCK_TYPES.join(', ')}`, found: preview(type) };
  }
}

/** What is wrong with one content block, or null when it is well formed. */
function blockProblem(block: unknown): BlockProblem | null {
  if (!isObject(block)) return { at: '', expected: 'a content block object', found: describeType(block) };
  return typeProblem(block) ?? annotationsProblem(block, '') ?? metaProblem(block, '');
}

export default defineCheck({
  id: 'envelope.content-blocks',
  scope: 'exchange',
  severity: 'MUST',
  live: false,
  title: '`content` is an array of well-formed MCP content blocks',
  spec: {
    label:
      'MCP 2025-11-25 · Server features › Tools › Tool result (content: ContentBlock[]; text, image, audio, resource_link, resource; optional annotations, _meta)',
    url: 'https://modelcontextprotocol.io/specification/2025-11-25/server/tools#tool-result',
  },
  fix: 'return `content` as an array of MCP blocks with their required fields, e.g. `[{"type":"text","text":"Found 3 products"}]` (an empty array is fine)',
  judge(x) {
    const r = toolResult(x);
    if ('verdict' in r) return r.verdict;
    const result = r.result;
    if (!isObject(result)) return fail('/result', 'a CallToolResult object', `${describeType(result)} ${preview(result)}`);
    const content = own(result, 'content');
    if (!Array.isArray(content))
      return fail('/result/content', 'an array of content blocks', `${describeType(content)} ${preview(content)}`);
    for (let i = 0; i < content.length; i++) {
      const problem = blockProblem(content[i]);
      if (problem) return fail(`/result/content/${i}${problem.at}`, problem.expected, problem.found);
    }
    return pass();
  },
});
