// How each fault of sellers/faults.ts changes the seller. A behaviour hooks one or more points of the
// call path (server.ts / http.ts / stdio.ts); names here and in faults.ts are kept equal by a test.
import type { AdcpErrorBody, Recovery } from './adcp-error.ts';
import type { ToolResult } from './envelope.ts';
import { cloneJson, isPlainObject, type JsonObject } from './json.ts';
import type { OutputShape } from './output-schemas.ts';
import { defName } from './output-schemas.ts';
import { toolSpecs } from './tools.ts';

/** How a fault takes a whole tools/call over before any tool code runs. */
export type Takeover =
  | { kind: 'hang' }
  | { kind: 'crash' }
  | { kind: 'jsonrpc-error'; code: number; message: string };

export interface ResultInfo {
  tool: string;
  /** The flat payload the result was built from. */
  payload: JsonObject;
  result: ToolResult;
}

export interface FaultBehaviour {
  initialize?(result: JsonObject): void;
  /** Edits the advertised tool list in place (tools are our own objects). */
  tools?(tools: JsonObject[]): void;
  outputShape?: OutputShape;
  takeover?(tool: string): Takeover | undefined;
  /** Input that breaks the input schema: answer with this instead of the AdCP VALIDATION_ERROR. */
  invalidInput?: Takeover;
  /** Edits a success payload before the result is built; may ask for a summary text item. */
  payload?(tool: string, payload: JsonObject): { text?: 'summary' } | void;
  /** Replaces a built success result. */
  result?(info: ResultInfo): unknown;
  /** Edits an AdCP error body (already sanitized) before its result is built. */
  error?(error: AdcpErrorBody): void;
  /** Replaces a built error result. */
  errorResult?(result: ToolResult): unknown;
  /** Streams this tool's success answer with structuredContent padded to `bytes` (streamed-answer.ts). */
  stream?: { tool: string; bytes: number };
  /** Implemented by the transport module itself (stdout logs, HTTP headers). */
  transport?: 'stdio-stdout' | 'http-content-type' | 'http-session-id';
}

/** Faults aimed at one tool (see the comment at the top of sellers/faults.ts). */
export const SUCCESS_TARGET = 'get_products';
export const CALL_TARGET = 'get_signals';
export const MISSING_REQUIRED_TARGET = 'list_creative_formats';
export const BARE_ERROR_TARGET = 'get_media_buy_delivery';

const ONE_MIB = 1_048_576;

/** Pads `payload.ext` so the serialized payload is `target` UTF-8 bytes (padding is plain ASCII). */
function padTo(payload: JsonObject, target: number): void {
  const ext: JsonObject = isPlainObject(payload['ext']) ? payload['ext'] : {};
  ext['reference_seller_padding'] = '';
  payload['ext'] = ext;
  const base = Buffer.byteLength(JSON.stringify(payload), 'utf8');
  ext['reference_seller_padding'] = 'x'.repeat(Math.max(0, target - base));
}

/** A payload edit applied to the success-shape target only. */
const onTarget = (edit: (payload: JsonObject) => { text?: 'summary' } | void) =>
  (tool: string, payload: JsonObject) => (tool === SUCCESS_TARGET ? edit(payload) : undefined);

const textItem = (text: string) => ({ type: 'text', text });

function findTool(tools: JsonObject[], name: string): JsonObject | undefined {
  return tools.find((t) => t['name'] === name);
}

/** The object schema that describes the payload: the `$defs` entry of a meta-id tool, else the root. */
function payloadSchemaOf(tool: JsonObject): JsonObject | undefined {
  const schema = tool['outputSchema'];
  if (!isPlainObject(schema)) return undefined;
  const defs = schema['$defs'];
  const entry = isPlainObject(defs) ? defs[defName(String(tool['name']))] : undefined;
  return isPlainObject(entry) ? entry : schema;
}

export const behaviours: Record<string, FaultBehaviour> = {
  // transport
  'initialize-unsupported-protocol': {
    initialize: (r) => {
      r['protocolVersion'] = '2023-01-01';
    },
  },
  'initialize-no-server-info': {
    initialize: (r) => {
      delete r['serverInfo'];
    },
  },
  'input-schema-not-object': {
    tools: (tools) => {
      tools.push({
        name: 'reference_echo',
        description: 'Echoes its arguments (declared with a non-object input schema).',
        inputSchema: { type: 'array', items: { type: 'string' } },
      });
    },
  },
  'stdout-logs': { transport: 'stdio-stdout' },
  'tool-name-slash': {
    tools: (tools) => {
      tools.push({
        name: 'tasks/get',
        description: 'Task status lookup, exposed under a name with a slash.',
        inputSchema: { type: 'object', properties: { task_id: { type: 'string' } } },
      });
    },
  },
  'http-bad-content-type': { transport: 'http-content-type' },
  'http-session-id-change': { transport: 'http-session-id' },
  'hang-on-call': { takeover: (tool) => (tool === CALL_TARGET ? { kind: 'hang' } : undefined) },
  'crash-mid-call': { takeover: (tool) => (tool === CALL_TARGET ? { kind: 'crash' } : undefined) },
  'oversize-structured-50mib': { stream: { tool: SUCCESS_TARGET, bytes: 50 * ONE_MIB } },

  // envelope
  'is-error-string': {
    errorResult: (r) => {
      r.isError = 'true';
      return r;
    },
  },
  'content-block-malformed': {
    result: ({ tool, result }) => (tool === SUCCESS_TARGET ? { ...result, content: [...result.content, { type: 'text' }] } : undefined),
  },
  'text-only': {
    result: ({ tool, payload }) => (tool === SUCCESS_TARGET ? { content: [textItem(JSON.stringify(payload))] } : undefined),
  },
  'structured-content-array': {
    result: ({ tool, payload }) =>
      tool === SUCCESS_TARGET ? { content: [textItem(JSON.stringify(payload))], structuredContent: [payload] } : undefined,
  },
  'adcp-error-only-structured': {
    result: ({ tool }) => {
      if (tool !== SUCCESS_TARGET) return undefined;
      const only = { adcp_error: { code: 'PRODUCTS_UNAVAILABLE', message: 'No products right now', recovery: 'transient' } };
      return { content: [textItem(JSON.stringify(only))], structuredContent: only };
    },
  },
  'adcp-error-only-text': {
    result: ({ tool }) => {
      if (tool !== SUCCESS_TARGET) return undefined;
      const only = { adcp_error: { code: 'PRODUCTS_UNAVAILABLE', message: 'No products right now', recovery: 'transient' } };
      return { content: [textItem(JSON.stringify(only))] };
    },
  },
  'oversize-structured-1mib': {
    payload: onTarget((p) => {
      padTo(p, ONE_MIB + 4096);
      return { text: 'summary' };
    }),
  },
  'text-mirror-mismatch': {
    result: ({ tool, payload, result }) => {
      if (tool !== SUCCESS_TARGET) return undefined;
      const other: JsonObject = {};
      for (const [k, v] of Object.entries(payload)) if (k !== 'products') other[k] = v;
      other['products'] = [];
      return { ...result, content: [textItem(JSON.stringify(other))] };
    },
  },
  'payload-nested': {
    result: ({ tool, payload }) => {
      if (tool !== SUCCESS_TARGET) return undefined;
      const nested = { payload };
      return { content: [textItem(JSON.stringify(nested))], structuredContent: nested };
    },
  },
  'status-missing': {
    payload: onTarget((p) => {
      delete p['status'];
    }),
  },
  'status-invalid': {
    payload: onTarget((p) => {
      p['status'] = 'done';
    }),
  },
  'legacy-task-status': {
    payload: onTarget((p) => {
      p['task_status'] = 'completed';
    }),
  },
  'context-not-echoed': {
    payload: onTarget((p) => {
      delete p['context'];
    }),
  },
  'context-altered': {
    payload: onTarget((p) => {
      const sent = p['context'];
      const altered: JsonObject = isPlainObject(sent) ? cloneJson(sent) : {};
      altered['correlation_id'] = `altered-by-seller-${String(altered['correlation_id'] ?? '')}`;
      p['context'] = altered;
    }),
  },
  'proto-keys': {
    payload: onTarget((p) => {
      // JSON.parse makes `__proto__` an own, enumerable key (an object literal would set the prototype).
      p['ext'] = JSON.parse('{"__proto__":{"polluted":true},"note":"reserved key above"}') as JsonObject;
    }),
  },

  // errors
  'error-bare-text': {
    result: ({ tool }) =>
      tool === BARE_ERROR_TARGET
        ? { isError: true, content: [textItem('Delivery reporting is temporarily unavailable. Try again later.')] }
        : undefined,
  },
  'error-text-not-json': {
    errorResult: (r) => {
      r.content = [textItem('The request was rejected: fix the highlighted field and retry.')];
      return r;
    },
  },
  'error-code-65': {
    error: (e) => {
      e.code = `VALIDATION_ERROR_${'X'.repeat(65 - 'VALIDATION_ERROR_'.length)}`;
    },
  },
  'error-5kb': {
    error: (e) => {
      e.details = { ...e.details, reference_seller_padding: 'x'.repeat(5000) };
    },
  },
  'error-recovery-unknown': {
    error: (e) => {
      e.recovery = 'retry-later' as Recovery;
    },
  },
  'retry-after-zero': {
    error: (e) => {
      e.retry_after = 0;
    },
  },
  'retry-after-day': {
    error: (e) => {
      e.retry_after = 86_400;
    },
  },
  'retry-after-fraction': {
    error: (e) => {
      e.retry_after = 2.5;
    },
  },
  'jsonrpc-rate-limit-no-data': {
    takeover: (tool) => (tool === CALL_TARGET ? { kind: 'jsonrpc-error', code: -32029, message: 'Rate limit exceeded' } : undefined),
  },
  'validation-jsonrpc-32602': {
    invalidInput: { kind: 'jsonrpc-error', code: -32602, message: 'Invalid params: arguments do not match the input schema' },
  },
  'error-stack-trace': {
    error: (e) => {
      e.message = "TypeError: Cannot use 'in' operator to search for 'buying_mode' in 42";
      e.details = {
        ...e.details,
        stack: [
          "TypeError: Cannot use 'in' operator to search for 'buying_mode' in 42",
          '    at Object.<anonymous> (/srv/seller/dist/tools/get-products.js:42:17)',
          '    at process.processTicksAndRejections (node:internal/process/task_queues:95:5)',
        ].join('\n'),
      };
    },
  },
  'error-message-control-chars': {
    error: (e) => {
      e.message = `Invalid request\u0007: field \u202Eedom_gniyub\u202C is invalid`;
    },
  },
  'error-message-long': {
    error: (e) => {
      // 300 ASCII characters = 300 UTF-8 bytes.
      e.message = 'Invalid request: the value of buying_mode does not match the input schema. '.repeat(5).slice(0, 300);
    },
  },

  // schemas
  'output-schema-bad-id': {
    tools: (tools) => {
      const tool = findTool(tools, CALL_TARGET);
      if (tool && isPlainObject(tool['outputSchema'])) tool['outputSchema']['$id'] = 'my_tool:output';
    },
  },
  'output-schema-mismatch': {
    tools: (tools) => {
      const tool = findTool(tools, SUCCESS_TARGET);
      const schema = tool ? payloadSchemaOf(tool) : undefined;
      if (!schema) return;
      const props: JsonObject = isPlainObject(schema['properties']) ? schema['properties'] : {};
      props['total_count'] = { type: 'integer' };
      schema['properties'] = props;
      schema['required'] = ['total_count'];
    },
  },
  'legacy-output-shape': { outputShape: 'legacy' },
  'legacy-result-wrapper': {
    // A stale process: tools/list already says root shape (2.4.0), answers still come wrapped.
    result: ({ tool, result }) =>
      toolSpecs.find((s) => s.name === tool)?.metaId ? { ...result, structuredContent: { result: result.structuredContent } } : undefined,
  },
  'adcp-response-missing-required': {
    payload: (tool, p) => {
      if (tool === MISSING_REQUIRED_TARGET) delete p['formats'];
    },
  },

  // capabilities
  'no-capabilities-tool': {
    tools: (tools) => {
      const i = tools.findIndex((t) => t['name'] === 'get_adcp_capabilities');
      if (i >= 0) tools.splice(i, 1);
    },
  },
  'capabilities-no-supported-versions': {
    payload: (tool, p) => {
      if (tool === 'get_adcp_capabilities' && isPlainObject(p['adcp'])) delete p['adcp']['supported_versions'];
    },
  },
  'test-controller-exposed': {
    tools: (tools) => {
      tools.push({
        name: 'comply_test_controller',
        description: 'AdCP compliance test controller (must never be exposed in production).',
        inputSchema: { type: 'object', properties: { scenario: { type: 'string' } } },
      });
    },
  },
};
