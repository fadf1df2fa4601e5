// Pure helpers of the reference seller (no process needed).
import { describe, expect, test } from 'vitest';
import { AdcpFailure, pointerToField } from '../../sellers/reference/adcp-error.ts';
import { errorResult, payloadOf, safeText, sanitizeError } from '../../sellers/reference/envelope.ts';
import { canonicalJson } from '../../sellers/reference/json.ts';
import { parseSellerArgs, UsageError } from '../../sellers/reference/options.ts';
import { outputSchemaFor } from '../../sellers/reference/output-schemas.ts';
import { SellerState } from '../../sellers/reference/state.ts';
import { streamedAnswer } from '../../sellers/reference/streamed-answer.ts';
import { toolSpecs } from '../../sellers/reference/tools.ts';
import { validateArguments } from '../../sellers/reference/validate-input.ts';

const spec = (name: string) => toolSpecs.find((s) => s.name === name)!;

describe('reference seller helpers', () => {
  test('pointerToField turns RFC 6901 pointers into JSONPath-lite', () => {
    expect(pointerToField('/packages/0/budget')).toBe('packages[0].budget');
    expect(pointerToField('/buying_mode')).toBe('buying_mode');
    expect(pointerToField('/a~1b/c~0d')).toBe('a/b.c~d');
    expect(pointerToField('')).toBe('');
  });

  test('safeText strips control and bidi characters and caps UTF-8 bytes', () => {
    expect(safeText('a\u0007b\u202ec', 100)).toBe('a?b?c');
    const capped = safeText('é'.repeat(300), 256);
    expect(Buffer.byteLength(capped)).toBeLessThanOrEqual(256);
    expect(capped.endsWith('…')).toBe(true);
  });

  test('sanitizeError keeps the code and recovery, bounds message, suggestion and field', () => {
    const e = sanitizeError({ code: 'X', message: 'm'.repeat(400), recovery: 'terminal', suggestion: 's'.repeat(900), field: 'f\u0000' });
    expect(Buffer.byteLength(e.message)).toBeLessThanOrEqual(256);
    expect(Buffer.byteLength(e.suggestion!)).toBeLessThanOrEqual(512);
    expect(e.field).toBe('f?');
  });

  test('payloadOf puts status first and the context object as sent', () => {
    const context = { correlation_id: 'c' };
    const p = payloadOf({ products: [] }, context);
    expect(Object.keys(p)).toEqual(['status', 'products', 'context']);
    expect(p['context']).toBe(context);
    expect(payloadOf({}, undefined)).toEqual({ status: 'completed' });
  });

  test('errorResult mirrors {adcp_error} in content[0].text and carries the context next to it', () => {
    const r = errorResult({ code: 'VALIDATION_ERROR', message: 'bad', recovery: 'correctable' }, { correlation_id: 'c' });
    expect(r.isError).toBe(true);
    expect(r.structuredContent).toEqual({
      adcp_error: { code: 'VALIDATION_ERROR', message: 'bad', recovery: 'correctable' },
      context: { correlation_id: 'c' },
    });
    expect(JSON.parse((r.content[0] as { text: string }).text)).toEqual({
      adcp_error: { code: 'VALIDATION_ERROR', message: 'bad', recovery: 'correctable' },
    });
  });

  test('canonicalJson ignores key order', () => {
    expect(canonicalJson({ b: 1, a: [{ y: 2, x: 1 }] })).toBe(canonicalJson({ a: [{ x: 1, y: 2 }], b: 1 }));
  });

  test('validateArguments reports the offending field as VALIDATION_ERROR with issues', () => {
    expect(() => validateArguments('get_products', { buying_mode: 'brief' })).not.toThrow();
    try {
      validateArguments('create_media_buy', { idempotency_key: 'short' });
      expect.unreachable();
    } catch (err) {
      expect(err).toBeInstanceOf(AdcpFailure);
      const body = (err as AdcpFailure).body;
      expect(body.code).toBe('VALIDATION_ERROR');
      expect(body.issues?.length).toBeGreaterThan(0);
      expect(body.field).toBe(body.issues![0]!.pointer.slice(1).replaceAll('/', '.'));
    }
  });

  test('idempotent replays return the first body; a changed request conflicts; context is not part of the key', () => {
    const state = new SellerState();
    let runs = 0;
    const run = () => ({ id: ++runs });
    expect(state.idempotent('t', 'k', { a: 1, context: { x: 1 } }, run)).toEqual({ body: { id: 1 }, replayed: false });
    expect(state.idempotent('t', 'k', { a: 1, context: { x: 2 } }, run)).toEqual({ body: { id: 1 }, replayed: true });
    expect(state.idempotent('t', 'k', { a: 2 }, run)).toEqual({ conflict: true });
    expect(runs).toBe(1);
  });

  test('output schemas: root $ref into $defs, legacy result wrapper, plain for tools without a meta id', () => {
    expect(outputSchemaFor(spec('get_products'), 'root')).toMatchObject({ type: 'object', $ref: '#/$defs/get_products_response' });
    expect(outputSchemaFor(spec('get_products'), 'legacy')).toMatchObject({
      required: ['result'],
      properties: { result: { $ref: '#/$defs/get_products_response' } },
    });
    expect(outputSchemaFor(spec('get_adcp_capabilities'), 'legacy')).not.toHaveProperty('$ref');
  });

  test('a streamed answer is one valid JSON-RPC message with structuredContent of the asked size', () => {
    const payload = payloadOf({ products: [] }, { correlation_id: 'c' });
    const text = [...streamedAnswer(7, spec('get_products'), payload, 200_000)].join('');
    const msg = JSON.parse(text) as { id: number; result: { structuredContent: unknown; content: Array<{ text: string }> } };
    expect(msg.id).toBe(7);
    expect(Buffer.byteLength(JSON.stringify(msg.result.structuredContent))).toBe(200_000);
    expect(msg.result.content[0]!.text).toMatch(/products/);
  });

  test('parseSellerArgs: defaults, repeatable faults, legacy fault implies legacy shape, usage errors', async () => {
    const d = await parseSellerArgs([]);
    expect(d).toMatchObject({ transport: 'stdio', port: 0, responseMode: 'json', outputShape: 'root', sandbox: true });
    const c = await parseSellerArgs([
      ...['--transport', 'http', '--port', '8080', '--response-mode', 'sse'],
      ...['--fault', 'text-only', '--fault', 'legacy-output-shape'],
    ]);
    expect(c.faults.map((f) => f.name)).toEqual(['text-only', 'legacy-output-shape']);
    expect(c.outputShape).toBe('legacy');
    await expect(parseSellerArgs(['--fault', 'nope'])).rejects.toThrow(UsageError);
    await expect(parseSellerArgs(['--transport', 'http', '--fault', 'stdout-logs'])).rejects.toThrow(/stdio only/);
    await expect(parseSellerArgs(['--port', '-1'])).rejects.toThrow(UsageError);
    await expect(parseSellerArgs(['--bogus'])).rejects.toThrow(UsageError);
    expect((await parseSellerArgs(['--no-sandbox'])).sandbox).toBe(false);
  });
});
