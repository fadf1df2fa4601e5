// Real sellers on @modelcontextprotocol/server 2.3.1 and 2.4.0 (test/fixtures/sdk2-sellers/seller.ts,
// child processes over stdio), read with a raw SDK 1.32.2 Client (`client.request` with a permissive
// schema, never callTool). Pins down what each version advertises for a zod `.meta({id})` output and
// what it puts in structuredContent under protocol 2025-11-25, then runs the seed-004 layer gate
// (harness/extract/layer.ts) and the schema service on those captured results.
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { z } from 'zod';
import { detectMetaIdTool, layerInstance, structuredContentTarget } from '../../harness/extract/layer.ts';
import { createSchemaService, sdkSchemaSource, type AgentSchemaService } from '../../harness/schemas/index.ts';
import { capture, PROJECT_ROOT } from './helpers.ts';

const SELLER = path.join(PROJECT_ROOT, 'test', 'fixtures', 'sdk2-sellers', 'seller.ts');
const anyResult = z.unknown();

const REPORT_DEF = {
  type: 'object',
  properties: {
    status: { type: 'string', const: 'completed' },
    impressions: { type: 'integer', minimum: -9007199254740991, maximum: 9007199254740991 },
    note: { type: 'string' },
  },
  required: ['status', 'impressions'],
  additionalProperties: false,
};
const DIALECT = 'https://json-schema.org/draft/2020-12/schema';

/** What each version advertises for `get_report` (output declared with `.meta({ id: 'report_output' })`). */
const ADVERTISED = {
  // 2.0–2.3: the natural schema (root $ref + $defs, no root type) is wrapped for the 2025 wire,
  // its same-document refs rewritten to #/properties/result/…
  '2.3.1': {
    $schema: DIALECT,
    type: 'object',
    properties: { result: { $schema: DIALECT, $ref: '#/properties/result/$defs/report_output', $defs: { report_output: REPORT_DEF } } },
    required: ['result'],
  },
  // 2.4.0: root type object with a root $ref into $defs; no wrapper.
  '2.4.0': { type: 'object', $schema: DIALECT, $ref: '#/$defs/report_output', $defs: { report_output: REPORT_DEF } },
} as const;

const REPORT = { status: 'completed', impressions: 42 };
const PONG = { status: 'completed', pong: true };

interface Observed {
  protocol: string | undefined;
  tools: unknown[];
  report: Record<string, unknown>;
  pong: Record<string, unknown>;
}

for (const version of ['2.3.1', '2.4.0'] as const) {
  describe(`seller on @modelcontextprotocol/server ${version}`, () => {
    let client: Client;
    const seen = {} as Observed;
    let service: AgentSchemaService;

    beforeAll(async () => {
      const transport = new StdioClientTransport({
        command: process.execPath,
        args: ['--import', 'tsx', SELLER, version],
        cwd: PROJECT_ROOT,
        stderr: 'pipe',
      });
      // The 1.x client tells a transport the negotiated revision through this optional hook.
      (transport as { setProtocolVersion?: (v: string) => void }).setProtocolVersion = (v) => (seen.protocol = v);
      client = new Client({ name: 'schemas-test', version: '0.0.0' });
      await client.connect(transport);
      const list = (await client.request({ method: 'tools/list', params: {} }, anyResult)) as { tools: unknown[] };
      seen.tools = list.tools;
      seen.report = (await client.request({ method: 'tools/call', params: { name: 'get_report', arguments: {} } }, anyResult)) as Record<
        string,
        unknown
      >;
      seen.pong = (await client.request({ method: 'tools/call', params: { name: 'ping_plain', arguments: {} } }, anyResult)) as Record<
        string,
        unknown
      >;
      service = await createSchemaService(capture({ tools: ['get_report', 'ping_plain'] }), sdkSchemaSource());
    });

    afterAll(async () => {
      await client?.close();
    });

    const outputSchemaOf = (name: string): unknown => {
      const tool = seen.tools.find((t) => (t as { name?: unknown }).name === name) as { outputSchema?: unknown } | undefined;
      return tool?.outputSchema;
    };

    test('negotiates protocol 2025-11-25', () => {
      expect(seen.protocol).toBe('2025-11-25');
    });

    test(`advertises the ${version === '2.3.1' ? '2.0–2.3 {properties:{result:{$ref}}, required:["result"]}' : 'root $ref + $defs'} outputSchema for the meta-id tool`, () => {
      expect(outputSchemaOf('get_report')).toStrictEqual(ADVERTISED[version]);
    });

    test('advertises the plain tool as a flat object schema', () => {
      expect(outputSchemaOf('ping_plain')).toStrictEqual({
        $schema: DIALECT,
        type: 'object',
        properties: { status: { type: 'string', const: 'completed' }, pong: { type: 'boolean' } },
        required: ['status', 'pong'],
        additionalProperties: false,
      });
    });

    test(`returns structuredContent ${version === '2.3.1' ? 'wrapped as {result:{…}}' : 'flat at the root'}; the text item is flat either way`, () => {
      expect(seen.report.structuredContent).toStrictEqual(version === '2.3.1' ? { result: REPORT } : REPORT);
      expect(seen.report.content).toStrictEqual([{ type: 'text', text: JSON.stringify(REPORT) }]);
      expect(seen.pong.structuredContent).toStrictEqual(PONG);
    });

    test(`layer gate: get_report → ${version === '2.3.1' ? 'legacy_wrapper' : 'validate_root'}, ping_plain → validate_root`, () => {
      const protocol = seen.protocol;
      expect(detectMetaIdTool(outputSchemaOf('get_report'))).toBe(true);
      expect(detectMetaIdTool(outputSchemaOf('ping_plain'))).toBe(false);
      const reportTarget = structuredContentTarget({ tool: 'get_report', protocol, metaIdTool: true }, seen.report);
      expect(reportTarget).toBe(version === '2.3.1' ? 'legacy_wrapper' : 'validate_root');
      expect(layerInstance(reportTarget, seen.report)).toStrictEqual(REPORT);
      expect(structuredContentTarget({ tool: 'ping_plain', protocol, metaIdTool: false }, seen.pong)).toBe('validate_root');
    });

    test('both advertised outputSchemas compile, and each result validates at the layer the gate chose', () => {
      for (const [name, result] of [
        ['get_report', seen.report],
        ['ping_plain', seen.pong],
      ] as const) {
        const schema = outputSchemaOf(name);
        expect(service.compileOutputSchema(name, schema)).toEqual({ ok: true });
        const target = structuredContentTarget({ tool: name, protocol: seen.protocol, metaIdTool: detectMetaIdTool(schema) }, result);
        expect(target === 'legacy_wrapper' || target === 'validate_root').toBe(true);
        const layer = target as 'legacy_wrapper' | 'validate_root';
        expect(service.validateOutput(name, schema, layerInstance(layer, result), layer)).toEqual({ errors: [] });
      }
      // A wrong inner value is reported relative to the inner object, at either layer.
      const schema = outputSchemaOf('get_report');
      const layer = version === '2.3.1' ? 'legacy_wrapper' : 'validate_root';
      expect(service.validateOutput('get_report', schema, { status: 'completed', impressions: 1.5 }, layer)).toEqual({
        errors: [{ pointer: '/impressions', keyword: 'type', expected: 'type integer', found: '1.5' }],
      });
    });

    if (version === '2.3.1') {
      test('2.3.1: the inner object checked against the advertised wrapper without the layer hint fails on `result`', () => {
        expect(service.validateOutput('get_report', outputSchemaOf('get_report'), REPORT)).toEqual({
          errors: [{ pointer: '/', keyword: 'required', expected: "required property 'result'", found: JSON.stringify(REPORT) }],
        });
        // … while the wrapped structuredContent matches the advertised schema at its root.
        expect(service.validateOutput('get_report', outputSchemaOf('get_report'), seen.report.structuredContent)).toEqual({ errors: [] });
      });
    }
  });
}
