// One vector case → pass / fail(diff) / skip(reason). The kind comes from the case's fields:
//   expected_outcomes                → envelope-check case (harness/checks/vector-cases.ts)
//   expected_target                  → structured-content layer case (harness/extract/layer.ts)
//   expected_error / expected_action → error extraction (official transport-error-mapping format)
//   expected_data                    → success extraction (official mcp-response-extraction format)
// Optional fields our files add: success `expected_pointer`; error `expected_recovery`,
// `expected_retry_after` (null = the client has no delay), `expected_source`, `expected_pointer`;
// layer `expected_instance`.
import { existsSync } from 'node:fs';
import { extname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { clientAction, clientRetryAfter, effectiveRecovery, extractFromMessage, type MessageParts } from '../extract/error.ts';
import { hasOwn, isObject, own } from '../json.ts';
import { layerInstance, structuredContentTarget, type AuditRecord } from '../extract/layer.ts';
import { locateSuccess } from '../extract/success.ts';
import { GeneratorError, generateExpectedData, generateResponse } from './generate.ts';
import { jsonDiff, show } from './json-diff.ts';

export type CaseKind = 'success' | 'error' | 'layer' | 'check' | 'unknown';

export type CaseResult =
  | { id: string; kind: CaseKind; status: 'pass' }
  | { id: string; kind: CaseKind; status: 'fail'; diff: string }
  | { id: string; kind: CaseKind; status: 'skip'; reason: string };

export const CHECKS_MISSING = 'check vectors need harness/checks';

export function caseKind(v: unknown): CaseKind {
  if (hasOwn(v, 'expected_outcomes')) return 'check';
  if (hasOwn(v, 'expected_target')) return 'layer';
  if (hasOwn(v, 'expected_error') || hasOwn(v, 'expected_action')) return 'error';
  if (hasOwn(v, 'expected_data') || hasOwn(v, 'expected_data_generator')) return 'success';
  return 'unknown';
}

export function caseId(v: unknown, index: number): string {
  const id = own(v, 'id');
  return typeof id === 'string' && id !== '' ? id : `#${index}`;
}

/** A vector's `response` as JSON-RPC parts: a whole JSON-RPC message ({jsonrpc, id, result|error}),
 *  or a bare tool result. */
export function responseParts(response: unknown): MessageParts {
  if (isObject(response) && hasOwn(response, 'jsonrpc')) {
    const parts: MessageParts = {};
    if (hasOwn(response, 'result')) parts.result = own(response, 'result');
    if (hasOwn(response, 'error')) parts.error = own(response, 'error');
    return parts;
  }
  return { result: response };
}

function joinDiffs(diffs: Array<string | null>): string | null {
  const real = diffs.filter((d): d is string => d !== null);
  return real.length ? real.join('; ') : null;
}

function runSuccess(v: unknown): string | null {
  const response = hasOwn(v, 'response_generator') ? generateResponse(own(v, 'response_generator')) : own(v, 'response');
  const expected = hasOwn(v, 'expected_data_generator') ? generateExpectedData(own(v, 'expected_data_generator')) : own(v, 'expected_data');
  const located = locateSuccess(response);
  const dataDiff = jsonDiff(expected ?? null, located?.data ?? null);
  if (dataDiff) return `data ${dataDiff}`;
  const diffs: Array<string | null> = [];
  // `path` names the extraction path a non-null result must come from
  const path = own(v, 'path');
  if (located && (path === 'structuredContent' || path === 'text_fallback') && located.path !== path) {
    diffs.push(`path: expected ${show(path)}, got ${show(located.path)}`);
  }
  if (hasOwn(v, 'expected_pointer')) {
    const want = own(v, 'expected_pointer');
    if (want !== (located?.pointer ?? null)) diffs.push(`pointer: expected ${show(want)}, got ${show(located?.pointer ?? null)}`);
  }
  return joinDiffs(diffs);
}

function runError(v: unknown): string | null {
  const extracted = extractFromMessage(responseParts(own(v, 'response')));
  const error = extracted?.error ?? null;
  const diffs: Array<string | null> = [];
  if (hasOwn(v, 'expected_error')) {
    const d = jsonDiff(own(v, 'expected_error'), error);
    if (d) diffs.push(`error ${d}`);
  }
  if (hasOwn(v, 'expected_action')) {
    const want = own(v, 'expected_action');
    const got = clientAction(error);
    if (want !== got) diffs.push(`action: expected ${show(want)}, got ${show(got)}`);
  }
  const path = own(v, 'path');
  if (extracted && typeof path === 'string' && path !== extracted.source) {
    diffs.push(`path: expected ${show(path)}, got ${show(extracted.source)}`);
  }
  if (hasOwn(v, 'expected_source')) {
    const want = own(v, 'expected_source');
    if (want !== (extracted?.source ?? null)) diffs.push(`source: expected ${show(want)}, got ${show(extracted?.source ?? null)}`);
  }
  if (hasOwn(v, 'expected_pointer')) {
    const want = own(v, 'expected_pointer');
    if (want !== (extracted?.pointer ?? null)) diffs.push(`pointer: expected ${show(want)}, got ${show(extracted?.pointer ?? null)}`);
  }
  if (hasOwn(v, 'expected_recovery')) {
    const want = own(v, 'expected_recovery');
    const got = error ? effectiveRecovery(error) : null;
    if (want !== got) diffs.push(`recovery: expected ${show(want)}, got ${show(got)}`);
  }
  if (hasOwn(v, 'expected_retry_after')) {
    const want = own(v, 'expected_retry_after');
    const got = error ? (clientRetryAfter(error) ?? null) : null;
    if (want !== got) diffs.push(`retry_after: expected ${show(want)}, got ${show(got)}`);
  }
  return joinDiffs(diffs);
}

function runLayer(v: unknown): string | null {
  const record = own(v, 'record') as AuditRecord;
  const response = own(v, 'response');
  const target = structuredContentTarget(record, response);
  const want = own(v, 'expected_target');
  if (want !== target) return `target: expected ${show(want)}, got ${show(target)}`;
  if (hasOwn(v, 'expected_instance')) {
    const d = jsonDiff(own(v, 'expected_instance'), layerInstance(target, response) ?? null);
    if (d) return `instance ${d}`;
  }
  return null;
}

type CheckRunner = (vector: unknown) => { ok: boolean; diff: string };
let checkRunner: Promise<CheckRunner | string> | undefined;

/** harness/checks/vector-cases.ts (written by the checks stage), imported once; a string says why it
 *  is not usable. Resolved by URL so the type-checker does not require the module to exist yet. */
function loadCheckRunner(): Promise<CheckRunner | string> {
  // .ts from source, .js in the compiled build (dist/): the same extension as this module's.
  const url = new URL(`../checks/vector-cases${extname(fileURLToPath(import.meta.url))}`, import.meta.url);
  if (!existsSync(fileURLToPath(url))) return Promise.resolve(CHECKS_MISSING);
  checkRunner ??= (import(url.href) as Promise<Record<string, unknown>>).then(
    (mod) => {
      const fn = mod['runCheckVector'];
      return typeof fn === 'function' ? (fn as CheckRunner) : `${CHECKS_MISSING} (vector-cases.ts exports no runCheckVector)`;
    },
    (err: unknown) => `${CHECKS_MISSING} (vector-cases.ts failed to load: ${errorText(err)})`,
  );
  return checkRunner;
}

function errorText(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}

/** Run one case; never throws (a broken case is a failure naming why). */
export async function runCase(v: unknown, index: number): Promise<CaseResult> {
  const id = caseId(v, index);
  const kind = caseKind(v);
  if (!isObject(v)) return { id, kind, status: 'fail', diff: 'vector is not an object' };
  const transport = own(v, 'transport');
  if (transport !== undefined && transport !== 'mcp') {
    return { id, kind, status: 'skip', reason: `transport ${show(transport)}: this harness implements the MCP binding only` };
  }
  try {
    let diff: string | null;
    switch (kind) {
      case 'success':
        diff = runSuccess(v);
        break;
      case 'error':
        diff = runError(v);
        break;
      case 'layer':
        diff = runLayer(v);
        break;
      case 'check': {
        const runner = await loadCheckRunner();
        if (typeof runner === 'string') return { id, kind, status: 'fail', diff: runner };
        const r = runner(v);
        diff = r.ok ? null : r.diff || 'check vector failed';
        break;
      }
      default:
        diff = 'unknown vector kind (no expected_data, expected_error, expected_action, expected_target or expected_outcomes)';
    }
    return diff === null ? { id, kind, status: 'pass' } : { id, kind, status: 'fail', diff };
  } catch (err) {
    const what = err instanceof GeneratorError ? 'bad generator' : 'runner error';
    return { id, kind, status: 'fail', diff: `${what}: ${errorText(err)}` };
  }
}
