// The structured-content layer gate (seed 004) and metaIdTool detection. The last block runs real
// @modelcontextprotocol/server 2.3.1 / 2.4.0 sellers over stdio (test/fixtures/sdk2-sellers) and feeds
// what they advertise and send into the gate.
import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { describe, expect, test } from 'vitest';
import { z } from 'zod';
import { Ajv2020 } from 'ajv/dist/2020.js';
import {
  AUDIT_RECORD_SCHEMA,
  auditRecordValid,
  detectMetaIdTool,
  LAYER_TARGETS,
  layerInstance,
  structuredContentTarget,
} from '../../harness/extract/layer.ts';

const record = { tool: 'get_report', protocol: '2025-11-25', metaIdTool: true };
const payload = { region: 'apac', count: 42 };
const sc = (structuredContent: unknown) => ({ content: [], structuredContent });

describe('AUDIT_RECORD_SCHEMA', () => {
  test('is seed 004 schema', () => {
    expect(AUDIT_RECORD_SCHEMA).toEqual({
      $schema: 'https://json-schema.org/draft/2020-12/schema',
      type: 'object',
      additionalProperties: false,
      required: ['tool', 'protocol', 'metaIdTool'],
      properties: {
        tool: { type: 'string', minLength: 1 },
        protocol: { enum: ['2025-11-25', '2026-07-28'] },
        metaIdTool: { type: 'boolean' },
      },
    });
    expect(LAYER_TARGETS).toEqual(['schema', 'missing', 'legacy_wrapper', 'validate_root']);
  });

  test('is a valid 2020-12 schema (checked here: the run compiles it without validating it again)', () => {
    const ajv = new Ajv2020({ allErrors: true });
    expect(ajv.validateSchema(AUDIT_RECORD_SCHEMA), JSON.stringify(ajv.errors)).toBe(true);
  });

  test.for([
    ['valid', record, true],
    ['2026-07-28', { ...record, protocol: '2026-07-28' }, true],
    ['missing tool', { protocol: '2025-11-25', metaIdTool: true }, false],
    ['empty tool', { ...record, tool: '' }, false],
    ['null tool', { ...record, tool: null }, false],
    ['old protocol', { ...record, protocol: '2025-06-18' }, false],
    ['string metaIdTool', { ...record, metaIdTool: 'true' }, false],
    ['extra key', { ...record, extra: 1 }, false],
    ['null', null, false],
    ['array', [record], false],
  ] as const)('%s → %s', ([, r, ok]) => {
    expect(auditRecordValid(r)).toBe(ok);
  });
});

describe('structuredContentTarget', () => {
  test('order: schema → missing → legacy_wrapper → validate_root', () => {
    expect(structuredContentTarget({ ...record, protocol: 'x' }, {})).toBe('schema');
    expect(structuredContentTarget(record, {})).toBe('missing');
    expect(structuredContentTarget(record, sc({ result: payload }))).toBe('legacy_wrapper');
    expect(structuredContentTarget(record, sc(payload))).toBe('validate_root');
  });

  test('legacy_wrapper needs metaIdTool, 2025-11-25, exactly {result: object}', () => {
    expect(structuredContentTarget({ ...record, metaIdTool: false }, sc({ result: payload }))).toBe('validate_root');
    expect(structuredContentTarget({ ...record, protocol: '2026-07-28' }, sc({ result: payload }))).toBe('validate_root');
    for (const bad of [{ result: 1 }, { result: [payload] }, { result: null }, { result: payload, status: 'completed' }]) {
      expect(structuredContentTarget(record, sc(bad))).toBe('validate_root');
    }
  });

  test('missing: structuredContent absent, array, null, string; result not an object', () => {
    for (const r of [{}, sc([payload]), sc(null), sc('{"result":{}}'), null, 'x'])
      expect(structuredContentTarget(record, r)).toBe('missing');
  });

  test('layerInstance', () => {
    const legacy = sc({ result: payload });
    expect(layerInstance('legacy_wrapper', legacy)).toBe(payload);
    expect(layerInstance('validate_root', legacy)).toEqual({ result: payload });
    expect(layerInstance('schema', legacy)).toBeUndefined();
    expect(layerInstance('missing', {})).toBeUndefined();
  });
});

describe('detectMetaIdTool', () => {
  test('zod .meta({id}) JSON Schema (root $ref into $defs) → true; plain object → false', () => {
    const meta = z.toJSONSchema(z.object({ a: z.string() }).meta({ id: 'my_output' }));
    expect(detectMetaIdTool(meta)).toBe(true);
    expect(detectMetaIdTool({ type: 'object', ...meta })).toBe(true);
    expect(detectMetaIdTool(z.toJSONSchema(z.object({ a: z.string() })))).toBe(false);
  });

  test('2.0–2.3 wrap shape → true', () => {
    expect(
      detectMetaIdTool({
        type: 'object',
        properties: { result: { $ref: '#/properties/result/$defs/x', $defs: { x: {} } } },
        required: ['result'],
      }),
    ).toBe(true);
  });

  test('look-alikes → false', () => {
    for (const s of [
      null,
      [],
      'x',
      { $ref: '#/$defs/missing', $defs: {} },
      { $ref: '#/properties/a' },
      { $ref: 'https://example.com/s.json' },
      { properties: { result: { type: 'object' } }, required: ['result'] },
      { properties: { result: { $ref: '#/$defs/x' } }, required: ['result', 'other'] },
      { properties: { result: { $ref: '#/$defs/x' } } },
    ]) {
      expect(detectMetaIdTool(s)).toBe(false);
    }
    expect(detectMetaIdTool({ $ref: '#/$defs/a~1b', $defs: { 'a/b': {} } })).toBe(true);
    expect(detectMetaIdTool({ $ref: '#/definitions/x', definitions: { x: {} } })).toBe(true);
  });
});

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const fixture = path.join(root, 'test', 'fixtures', 'sdk2-sellers', 'seller.ts');

describe.skipIf(!existsSync(fixture))('real SDK 2.x sellers over stdio', () => {
  test.for(['2.3.1', '2.4.0'] as const)('%s: advertised schema and structuredContent pick the right layer', async (version) => {
    let negotiated: string | undefined;
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: ['--import', 'tsx', fixture, version],
      cwd: root,
      stderr: 'pipe',
    });
    (transport as Transport).setProtocolVersion = (v: string) => {
      negotiated = v;
    };
    const client = new Client({ name: 'layer-test', version: '0.0.0' });
    await client.connect(transport);
    try {
      const list = (await client.request({ method: 'tools/list', params: {} }, z.any())) as {
        tools: Array<{ name: string; outputSchema?: unknown }>;
      };
      const schemaOf = (name: string) => list.tools.find((t) => t.name === name)?.outputSchema;
      expect(detectMetaIdTool(schemaOf('get_report'))).toBe(true);
      expect(detectMetaIdTool(schemaOf('ping_plain'))).toBe(false);

      const result: unknown = await client.request({ method: 'tools/call', params: { name: 'get_report', arguments: {} } }, z.any());
      expect(negotiated).toBe('2025-11-25');
      const target = structuredContentTarget({ tool: 'get_report', protocol: negotiated, metaIdTool: true }, result);
      expect(target).toBe(version === '2.3.1' ? 'legacy_wrapper' : 'validate_root');
      expect(layerInstance(target, result)).toEqual({ status: 'completed', impressions: 42 });
    } finally {
      await client.close();
    }
  });
});
