// Every fault of sellers/faults/ starts and shows on the wire: one real seller process per fault and
// a quick raw assertion of the rule it breaks. (Which check ids each fault trips is the self-test
// matrix's job, test/matrix/.) Session faults rotate over stdio, HTTP JSON and HTTP SSE.
import { Ajv2020 } from 'ajv/dist/2020.js';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, expect, test } from 'vitest';
import { faults } from '../../sellers/faults.ts';
import { loadTree, responseErrors } from './adcp-schemas.ts';
import { openSession, probeArguments, type Mode, type SellerSession } from './client.ts';
import { INITIALIZE, INITIALIZED, messageOf, RawHttp, RawStdio, toolCall } from './raw.ts';

type Json = Record<string, unknown>;
const isObject = (v: unknown): v is Json => v !== null && typeof v === 'object' && !Array.isArray(v);
const text0 = (r: Json): string => ((r['content'] as Json[])[0]!['text'] as string) ?? '';
const sc = (r: Json): Json => r['structuredContent'] as Json;
const bytes = (v: unknown): number => Buffer.byteLength(JSON.stringify(v), 'utf8');

type Observation =
  | { via: 'session'; mode?: Mode; run(s: SellerSession): Promise<void> }
  | { via: 'stdio-raw'; run(r: RawStdio): Promise<void> }
  | { via: 'http-raw'; responseMode?: 'json' | 'sse'; run(r: RawHttp): Promise<void> };

const products = (s: SellerSession, correlation = 'obs') => s.call('get_products', probeArguments('get_products', correlation));
const invalid = (s: SellerSession) => s.call('get_products', { buying_mode: 42, context: { correlation_id: 'bad' } });
const adcpError = async (s: SellerSession): Promise<Json> => {
  const r = await invalid(s);
  expect(r['isError']).toBe(true);
  return sc(r)['adcp_error'] as Json;
};
const toolNamed = async (s: SellerSession, name: string): Promise<Json | undefined> =>
  (await s.listTools()).find((t) => t['name'] === name);
const rejection = async (promise: Promise<unknown>): Promise<Json> => {
  try {
    await promise;
  } catch (err) {
    return err as Json;
  }
  throw new Error('expected the call to fail');
};

/** A booking of the reference seller's guaranteed product: answered `submitted`, finished later (tasks.ts). */
const guaranteedBooking = (correlation: string): Json => ({
  ...probeArguments('create_media_buy', correlation),
  packages: [{ product_id: 'sports_video_premium', pricing_option_id: 'video_cpm_fixed', budget: 5000 }],
});

/** A loopback receiver for one observation: every POST body and its headers; the first `refuse` answered 503. */
async function hookReceiver(
  refuse = 0,
): Promise<{ url: string; bodies: Json[]; headers: Array<Record<string, unknown>>; close(): Promise<void> }> {
  const bodies: Json[] = [];
  const headers: Array<Record<string, unknown>> = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      bodies.push(JSON.parse(Buffer.concat(chunks).toString('utf8')) as Json);
      headers.push({ ...req.headers });
      res.statusCode = bodies.length <= refuse ? 503 : 204;
      res.end();
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/hook`,
    bodies,
    headers,
    close: () => new Promise((r) => server.close(() => r())),
  };
}
const withHook = (args: Json, url: string, operation: string): Json => ({
  ...args,
  push_notification_config: { url, operation_id: operation },
});
/** Waits (bounded) until a delivery says the task completed. */
const untilCompleted = async (bodies: Json[]): Promise<void> => {
  for (let i = 0; i < 100 && !bodies.some((b) => b['status'] === 'completed'); i++) await new Promise((r) => setTimeout(r, 50));
};

const observations: Record<string, Observation> = {
  'initialize-unsupported-protocol': {
    via: 'stdio-raw',
    run: async (r) => {
      r.send(INITIALIZE);
      const answer = JSON.parse((await r.until(0)).at(-1)!) as { result: Json };
      expect(answer.result['protocolVersion']).toBe('2023-01-01');
    },
  },
  'initialize-no-server-info': {
    via: 'stdio-raw',
    run: async (r) => {
      r.send(INITIALIZE);
      const answer = JSON.parse((await r.until(0)).at(-1)!) as { result: Json };
      expect(answer.result).not.toHaveProperty('serverInfo');
      expect(answer.result['protocolVersion']).toBe('2025-11-25');
    },
  },
  'input-schema-not-object': {
    via: 'session',
    run: async (s) => expect((await toolNamed(s, 'reference_echo'))?.['inputSchema']).toMatchObject({ type: 'array' }),
  },
  'stdout-logs': {
    via: 'stdio-raw',
    run: async (r) => {
      r.send(INITIALIZE);
      await r.until(0);
      r.send(INITIALIZED);
      r.send(toolCall(1, 'get_products', probeArguments('get_products', 'logs')));
      const lines = await r.until(1);
      const junk = lines.filter((l) => {
        try {
          JSON.parse(l);
          return false;
        } catch {
          return true;
        }
      });
      expect(junk).toEqual(['[reference-seller] answering tools/call get_products']);
    },
  },
  'tool-name-slash': { via: 'session', run: async (s) => expect(await toolNamed(s, 'get/products')).toBeDefined() },
  'http-bad-content-type': {
    via: 'http-raw',
    run: async (r) => {
      await r.handshake();
      const answer = await r.send(toolCall(1, 'get_signals', probeArguments('get_signals', 'ct')));
      expect(answer.headers.get('content-type')).toBe('text/plain; charset=utf-8');
      expect(messageOf(answer.text)['id']).toBe(1); // the body itself is a good answer
      const other = await r.send(toolCall(2, 'get_products', probeArguments('get_products', 'ct')));
      expect(other.headers.get('content-type')).toBe('application/json');
    },
  },
  'http-session-id-change': {
    via: 'http-raw',
    responseMode: 'sse',
    run: async (r) => {
      const init = await r.handshake();
      const assigned = init.headers.get('mcp-session-id');
      expect(assigned).toBeTruthy();
      const list = await r.send({ jsonrpc: '2.0', id: 1, method: 'tools/list' });
      const changed = list.headers.get('mcp-session-id');
      expect(changed).toBeTruthy();
      expect(changed).not.toBe(assigned);
      // The server still honours the id it handed out.
      r.sessionId = changed ?? undefined;
      const call = await r.send(toolCall(2, 'get_products', probeArguments('get_products', 'sid')));
      expect(call.status).toBe(200);
      expect(isObject(messageOf(call.text)['result'])).toBe(true);
    },
  },
  'hang-on-call': {
    via: 'session',
    run: async (s) => {
      const err = await rejection(s.call('get_signals', probeArguments('get_signals', 'hang'), 1_500));
      expect(err['code']).toBe(-32001); // the client's own request timeout
      expect(sc(await products(s))['status']).toBe('completed'); // the seller is still up
    },
  },
  'crash-mid-call': {
    via: 'stdio-raw',
    run: async (r) => {
      r.send(INITIALIZE);
      await r.until(0);
      r.send(INITIALIZED);
      r.send(toolCall(1, 'get_signals', probeArguments('get_signals', 'crash')));
      expect(await r.until(1)).toEqual([]);
      expect((await r.exited).code).toBe(70);
    },
  },
  'oversize-structured-50mib': {
    via: 'http-raw',
    run: async (r) => {
      await r.handshake();
      const res = await r.post(toolCall(1, 'get_products', probeArguments('get_products', 'big')));
      let total = 0;
      let head = '';
      let tail = '';
      const decoder = new TextDecoder();
      for await (const chunk of res.body!) {
        total += chunk.length;
        const s = decoder.decode(chunk, { stream: true });
        if (head.length < 200) head += s.slice(0, 200);
        tail = (tail + s).slice(-200);
      }
      expect(total).toBeGreaterThan(50 * 1_048_576);
      expect(total).toBeLessThan(50 * 1_048_576 + 16_384);
      expect(head.startsWith('{"jsonrpc":"2.0","id":1,"result":')).toBe(true);
      expect(tail.endsWith('}}}')).toBe(true);
    },
  },
  'is-error-string': {
    via: 'session',
    run: async (s) => expect((await invalid(s))['isError']).toBe('true'),
  },
  'content-block-malformed': {
    via: 'session',
    run: async (s) => expect((await products(s))['content']).toContainEqual({ type: 'text' }),
  },
  'text-only': {
    via: 'session',
    run: async (s) => {
      const r = await products(s);
      expect(r).not.toHaveProperty('structuredContent');
      expect(JSON.parse(text0(r))['status']).toBe('completed');
    },
  },
  'structured-content-array': {
    via: 'session',
    run: async (s) => {
      const r = await products(s);
      expect(Array.isArray(r['structuredContent'])).toBe(true);
      expect(JSON.parse(text0(r))['status']).toBe('completed');
    },
  },
  'adcp-error-only-structured': {
    via: 'session',
    run: async (s) => {
      const r = await products(s);
      expect(r['isError']).toBeUndefined();
      expect(Object.keys(sc(r))).toEqual(['adcp_error']);
    },
  },
  'adcp-error-only-text': {
    via: 'session',
    run: async (s) => {
      const r = await products(s);
      expect(r['isError']).toBeUndefined();
      expect(r).not.toHaveProperty('structuredContent');
      expect(Object.keys(JSON.parse(text0(r)) as Json)).toEqual(['adcp_error']);
    },
  },
  'oversize-structured-1mib': {
    via: 'session',
    run: async (s) => {
      const r = await products(s);
      expect(bytes(r['structuredContent'])).toBeGreaterThan(1_048_576);
      expect(bytes(r)).toBeLessThan(1_048_576 + 8_192); // under the harness's byte cap
      expect(text0(r).length).toBeLessThan(200);
    },
  },
  'text-mirror-mismatch': {
    via: 'session',
    run: async (s) => {
      const r = await products(s);
      expect(JSON.parse(text0(r))).not.toEqual(sc(r));
    },
  },
  'payload-nested': {
    via: 'session',
    run: async (s) => {
      const r = sc(await products(s));
      expect(Object.keys(r)).toEqual(['payload']);
      expect((r['payload'] as Json)['status']).toBe('completed');
    },
  },
  'status-missing': { via: 'session', run: async (s) => expect(sc(await products(s))).not.toHaveProperty('status') },
  'status-invalid': { via: 'session', run: async (s) => expect(sc(await products(s))['status']).toBe('done') },
  'legacy-task-status': { via: 'session', run: async (s) => expect(sc(await products(s))['task_status']).toBe('completed') },
  'context-not-echoed': { via: 'session', run: async (s) => expect(sc(await products(s))).not.toHaveProperty('context') },
  'context-altered': {
    via: 'session',
    run: async (s) => {
      const context = sc(await products(s, 'sent-id'))['context'] as Json;
      expect(context['correlation_id']).not.toBe('sent-id');
    },
  },
  'proto-keys': {
    via: 'session',
    run: async (s) => {
      const r = await products(s);
      expect(Object.hasOwn(sc(r)['ext'] as object, '__proto__')).toBe(true);
      expect(text0(r)).toContain('"__proto__":{"polluted":true}');
    },
  },
  'error-bare-text': {
    via: 'session',
    run: async (s) => {
      const r = await s.call('get_media_buy_delivery', probeArguments('get_media_buy_delivery', 'bare'));
      expect(r['isError']).toBe(true);
      expect(r).not.toHaveProperty('structuredContent');
      expect(() => JSON.parse(text0(r))).toThrow();
    },
  },
  'error-text-not-json': {
    via: 'session',
    run: async (s) => {
      const r = await invalid(s);
      expect(sc(r)['adcp_error']).toMatchObject({ code: 'VALIDATION_ERROR' });
      expect(() => JSON.parse(text0(r))).toThrow();
    },
  },
  'error-code-65': { via: 'session', run: async (s) => expect(String((await adcpError(s))['code']).length).toBe(65) },
  'error-5kb': { via: 'session', run: async (s) => expect(bytes(await adcpError(s))).toBeGreaterThan(4_096) },
  'error-recovery-unknown': { via: 'session', run: async (s) => expect((await adcpError(s))['recovery']).toBe('retry-later') },
  'error-vendor-code-malformed': { via: 'session', run: async (s) => expect((await adcpError(s))['code']).toBe('BUYING_MODE_UNKNOWN') },
  'error-field-not-pointer': {
    via: 'session',
    run: async (s) => {
      const e = await adcpError(s);
      expect(e['field']).toBe('/buying_mode');
      expect((e['issues'] as Json[])[0]?.['pointer']).toBe('/buying_mode');
    },
  },
  'required-task-missing': {
    via: 'session',
    run: async (s) => {
      expect(await toolNamed(s, 'list_creative_formats')).toBeUndefined();
      const caps = sc(await s.call('get_adcp_capabilities', {}));
      expect(caps['supported_protocols']).toContain('creative');
    },
  },
  'retry-after-zero': { via: 'session', run: async (s) => expect((await adcpError(s))['retry_after']).toBe(0) },
  'retry-after-day': { via: 'session', run: async (s) => expect((await adcpError(s))['retry_after']).toBe(86_400) },
  'retry-after-fraction': { via: 'session', run: async (s) => expect((await adcpError(s))['retry_after']).toBe(2.5) },
  'jsonrpc-rate-limit-no-data': {
    via: 'session',
    run: async (s) => {
      const err = await rejection(s.call('get_signals', probeArguments('get_signals', 'rl')));
      expect(err['code']).toBe(-32029);
      expect(err['data']).toBeUndefined();
    },
  },
  'validation-jsonrpc-32602': {
    via: 'session',
    run: async (s) => {
      const err = await rejection(invalid(s));
      expect(err['code']).toBe(-32602);
      expect(sc(await products(s))['status']).toBe('completed'); // valid input is unaffected
    },
  },
  'error-stack-trace': {
    via: 'session',
    run: async (s) => {
      const e = await adcpError(s);
      expect(e['message']).toMatch(/^TypeError: /);
      expect(String((e['details'] as Json)['stack'])).toContain('(/srv/seller/');
    },
  },
  'error-message-control-chars': {
    via: 'session',
    // eslint-disable-next-line no-control-regex -- the fault puts a control character in the message
    run: async (s) => expect(String((await adcpError(s))['message'])).toMatch(/\u0007.*\u202e/u),
  },
  'error-message-long': {
    via: 'session',
    run: async (s) => expect(Buffer.byteLength(String((await adcpError(s))['message']))).toBe(300),
  },
  'output-schema-bad-id': {
    via: 'session',
    run: async (s) => {
      const schema = (await toolNamed(s, 'get_signals'))?.['outputSchema'] as Json;
      expect(schema['$id']).toBe('my_tool:output');
      expect(() => new Ajv2020({ strict: false }).compile(schema)).toThrow();
    },
  },
  'output-schema-mismatch': {
    via: 'session',
    run: async (s) => {
      const schema = (await toolNamed(s, 'get_products'))?.['outputSchema'] as object;
      const validate = new Ajv2020({ strict: false }).compile(schema);
      expect(validate(sc(await products(s)))).toBe(false);
      expect(JSON.stringify(validate.errors)).toContain('total_count');
    },
  },
  'legacy-output-shape': {
    via: 'session',
    run: async (s) => {
      expect((await toolNamed(s, 'get_products'))?.['outputSchema']).toMatchObject({ required: ['result'] });
      expect(Object.keys(sc(await products(s)))).toEqual(['result']);
    },
  },
  'legacy-result-wrapper': {
    via: 'session',
    run: async (s) => {
      expect((await toolNamed(s, 'get_products'))?.['outputSchema']).toMatchObject({ $ref: '#/$defs/get_products_response' });
      expect(Object.keys(sc(await products(s)))).toEqual(['result']);
    },
  },
  'adcp-response-missing-required': {
    via: 'session',
    run: async (s) => {
      const payload = sc(await s.call('list_creative_formats', { context: { correlation_id: 'f' } }));
      expect(payload).not.toHaveProperty('formats');
      expect(responseErrors(loadTree('3.0'), 'list_creative_formats', payload).join('\n')).toContain("required property 'formats'");
    },
  },
  'no-capabilities-tool': {
    via: 'session',
    run: async (s) => {
      expect(await toolNamed(s, 'get_adcp_capabilities')).toBeUndefined();
      expect((await s.call('get_adcp_capabilities', {}))['isError']).toBe(true);
    },
  },
  'capabilities-versions-malformed': {
    via: 'session',
    run: async (s) => expect((sc(await s.call('get_adcp_capabilities', {}))['adcp'] as Json)['supported_versions']).toEqual(['three']),
  },
  'tool-name-duplicate': {
    via: 'session',
    run: async (s) => expect((await s.listTools()).filter((t) => t['name'] === 'get_signals')).toHaveLength(2),
  },
  'jsonrpc-undeclared-request': {
    via: 'stdio-raw',
    run: async (r) => {
      r.send(INITIALIZE);
      await r.until(0);
      r.send(INITIALIZED);
      r.send(toolCall(1, 'get_signals', probeArguments('get_signals', 'roots')));
      const lines = await r.until(1);
      const requests = lines.map((l) => JSON.parse(l) as Json).filter((m) => m['method'] === 'roots/list');
      expect(requests).toHaveLength(1);
      expect(typeof requests[0]!['id']).toBe('string');
    },
  },
  'capabilities-no-supported-versions': {
    via: 'session',
    run: async (s) => {
      const adcp = sc(await s.call('get_adcp_capabilities', {}))['adcp'] as Json;
      expect(adcp).not.toHaveProperty('supported_versions');
      expect(adcp['major_versions']).toEqual([3]);
    },
  },
  'version-unsupported-accepted': {
    via: 'session',
    run: async (s) => {
      const r = await s.call('get_products', { ...probeArguments('get_products', 'v99'), adcp_major_version: 99 });
      expect(r['isError']).toBeUndefined();
      expect((sc(r)['products'] as Json[]).length).toBeGreaterThan(0);
    },
  },
  'version-no-echo': {
    via: 'session',
    run: async (s) => {
      const pinned = await s.call('get_products', { ...probeArguments('get_products', 'echo'), adcp_version: '3.0' });
      expect(sc(pinned)).not.toHaveProperty('adcp_version');
      expect(sc(await invalid(s))).not.toHaveProperty('adcp_version');
    },
  },
  'version-downshift-wrong': {
    via: 'session',
    run: async (s) => {
      const r = await s.call('get_products', { ...probeArguments('get_products', 'down'), adcp_version: '3.99', adcp_major_version: 3 });
      expect(sc(r)['adcp_version']).toBe('3.0');
    },
  },
  'version-major-mismatch-served': {
    via: 'session',
    run: async (s) => {
      const r = await s.call('get_products', { ...probeArguments('get_products', 'mm'), adcp_version: '3.1', adcp_major_version: 4 });
      expect(r['isError']).toBeUndefined();
      expect(sc(r)['adcp_version']).toBe('3.1');
    },
  },
  'protocol-fields-rejected': {
    via: 'session',
    run: async (s) => {
      const r = await s.call('get_products', { ...probeArguments('get_products', 'pf'), governance_context: 'a.b.c' });
      expect(r['isError']).toBe(true);
      expect((sc(r)['adcp_error'] as Json)['code']).toBe('VALIDATION_ERROR');
    },
  },
  'context-fabricated': {
    via: 'session',
    run: async (s) => {
      const { context: _sent, ...args } = probeArguments('get_products', 'none');
      expect(sc(await s.call('get_products', args))['context']).toEqual({ trace_id: 'seller-generated-trace' });
    },
  },
  'unknown-product-booked': {
    via: 'session',
    run: async (s) => {
      const args = probeArguments('create_media_buy', 'unknown');
      const r = await s.call('create_media_buy', {
        ...args,
        packages: [{ product_id: 'never-issued', pricing_option_id: 'none', budget: 100 }],
      });
      expect(r['isError']).toBeUndefined();
      expect(typeof sc(r)['media_buy_id']).toBe('string');
    },
  },
  'idempotency-replay-rebooks': {
    via: 'session',
    run: async (s) => {
      const args = probeArguments('create_media_buy', 'rebook');
      const first = sc(await s.call('create_media_buy', args))['media_buy_id'];
      const again = sc(await s.call('create_media_buy', args))['media_buy_id'];
      expect(again).toBe(`${String(first)}_rebooked`);
    },
  },
  'idempotency-conflict-names-field': {
    via: 'session',
    run: async (s) => {
      const args = probeArguments('create_media_buy', 'conflict');
      await s.call('create_media_buy', args);
      const other = await s.call('create_media_buy', { ...args, packages: [{ ...(args['packages'] as Json[])[0]!, budget: 1 }] });
      expect(sc(other)['adcp_error']).toMatchObject({ code: 'IDEMPOTENCY_CONFLICT', field: 'packages[0].budget' });
    },
  },
  'idempotency-replay-unflagged': {
    via: 'session',
    run: async (s) => {
      const args = probeArguments('create_media_buy', 'unflagged');
      const first = sc(await s.call('create_media_buy', args));
      const again = sc(await s.call('create_media_buy', args));
      expect(again['media_buy_id']).toBe(first['media_buy_id']);
      expect(again).not.toHaveProperty('replayed');
    },
  },
  'idempotency-error-cached': {
    via: 'session',
    run: async (s) => {
      const args = probeArguments('create_media_buy', 'errcache');
      const unknown = [{ ...(args['packages'] as Json[])[0]!, product_id: 'no-such-product' }];
      expect(sc(await s.call('create_media_buy', { ...args, packages: unknown }))['adcp_error']).toMatchObject({
        code: 'PRODUCT_NOT_FOUND',
      });
      expect(sc(await s.call('create_media_buy', args))['adcp_error']).toMatchObject({ code: 'IDEMPOTENCY_CONFLICT' });
    },
  },
  'idempotency-key-format-ignored': {
    via: 'session',
    run: async (s) => {
      const r = sc(await s.call('create_media_buy', { ...probeArguments('create_media_buy', 'shortkey'), idempotency_key: 'short-1' }));
      expect(typeof r['media_buy_id']).toBe('string');
    },
  },
  'webhook-unsigned': {
    via: 'session',
    run: async (s) => {
      const hook = await hookReceiver();
      try {
        await s.call('create_media_buy', withHook(guaranteedBooking('unsigned'), hook.url, 'op_unsigned'));
        await untilCompleted(hook.bodies);
        expect(hook.headers.length).toBeGreaterThan(0);
        for (const h of hook.headers) expect(h).not.toHaveProperty('signature');
      } finally {
        await hook.close();
      }
    },
  },
  'webhook-operation-id-dropped': {
    via: 'session',
    run: async (s) => {
      const hook = await hookReceiver();
      try {
        await s.call('create_media_buy', withHook(guaranteedBooking('noop'), hook.url, 'op_noop'));
        await untilCompleted(hook.bodies);
        expect(hook.bodies.length).toBeGreaterThan(0);
        for (const b of hook.bodies) expect(b).not.toHaveProperty('operation_id');
      } finally {
        await hook.close();
      }
    },
  },
  'webhook-retry-new-key': {
    via: 'session',
    run: async (s) => {
      const hook = await hookReceiver(1); // the first delivery refused: the seller retries it
      try {
        await s.call('create_media_buy', withHook(guaranteedBooking('retry'), hook.url, 'op_retry'));
        await untilCompleted(hook.bodies);
        // The refused event's retry may come after later events: find it by its status.
        for (let i = 0; i < 60 && hook.bodies.filter((b) => b['status'] === hook.bodies[0]?.['status']).length < 2; i++)
          await new Promise((r) => setTimeout(r, 50));
        const [first, retry] = hook.bodies.filter((b) => b['status'] === hook.bodies[0]?.['status']);
        expect(retry).toBeDefined();
        expect(retry?.['idempotency_key']).not.toBe(first?.['idempotency_key']);
      } finally {
        await hook.close();
      }
    },
  },
  'webhook-inline-duplicate': {
    via: 'session',
    run: async (s) => {
      const hook = await hookReceiver();
      try {
        const r = await s.call('create_media_buy', withHook(probeArguments('create_media_buy', 'inline-dup'), hook.url, 'op_inline'));
        expect(sc(r)['media_buy_id']).toEqual(expect.any(String));
        await untilCompleted(hook.bodies);
        expect(hook.bodies[0]).toMatchObject({ status: 'completed', operation_id: 'op_inline' });
      } finally {
        await hook.close();
      }
    },
  },
  'idempotency-concurrent-books-twice': {
    via: 'session',
    run: async (s) => {
      const args = probeArguments('create_media_buy', 'twice');
      const [a, b] = await Promise.all([s.call('create_media_buy', args), s.call('create_media_buy', args)]);
      expect(sc(a!)['media_buy_id']).not.toBe(sc(b!)['media_buy_id']);
    },
  },
  'idempotency-key-optional': {
    via: 'session',
    run: async (s) => {
      const { idempotency_key: _key, ...withoutKey } = probeArguments('create_media_buy', 'nokey');
      const r = await s.call('create_media_buy', withoutKey);
      expect(r['isError']).toBeUndefined();
      expect(typeof sc(r)['media_buy_id']).toBe('string');
    },
  },
  'media-buy-read-misses-newest': {
    via: 'session',
    run: async (s) => {
      const args = probeArguments('create_media_buy', 'lag');
      const id = sc(await s.call('create_media_buy', args))['media_buy_id'];
      const read = sc(await s.call('get_media_buys', { account: args['account'], media_buy_ids: [id] }));
      expect(read['media_buys']).toEqual([]);
    },
  },
  'media-buy-revision-frozen': {
    via: 'session',
    run: async (s) => {
      const args = probeArguments('create_media_buy', 'frozen');
      const booked = sc(await s.call('create_media_buy', args));
      const update = (key: string, fields: Json) =>
        s.call('update_media_buy', {
          idempotency_key: `${key}-0123456789abcdef`,
          account: args['account'],
          media_buy_id: booked['media_buy_id'],
          ...fields,
        });
      expect(sc(await update('pause', { revision: 1, paused: true }))['revision']).toBe(1);
      expect(sc(await update('stale', { revision: 0, paused: false }))['revision']).toBe(1); // stale, and applied
    },
  },
  'media-buy-cancel-not-final': {
    via: 'session',
    run: async (s) => {
      const args = probeArguments('create_media_buy', 'cancel');
      const id = sc(await s.call('create_media_buy', args))['media_buy_id'];
      const cancel = (key: string) =>
        s.call('update_media_buy', { idempotency_key: `${key}-0123456789`, account: args['account'], media_buy_id: id, canceled: true });
      expect(sc(await cancel('first'))['media_buy_status']).toBe('canceled');
      const again = await cancel('again');
      expect(again['isError']).toBeUndefined();
    },
  },
  'media-buy-status-legacy-only': {
    via: 'session',
    run: async (s) => {
      const r = sc(await s.call('create_media_buy', { ...probeArguments('create_media_buy', 'legacy'), adcp_version: '3.1' }));
      expect(typeof r['media_buy_id']).toBe('string');
      expect(r).not.toHaveProperty('media_buy_status');
    },
  },
  // The task lifecycle (sellers/reference/tasks.ts): a guaranteed booking goes async.
  'task-submitted-no-task-id': {
    via: 'session',
    run: async (s) => {
      const r = sc(await s.call('create_media_buy', guaranteedBooking('no-task-id')));
      expect(r['status']).toBe('submitted');
      expect(r).not.toHaveProperty('task_id');
    },
  },
  'task-never-completes': {
    via: 'session',
    run: async (s) => {
      const r = sc(await s.call('create_media_buy', guaranteedBooking('never')));
      await new Promise((done) => setTimeout(done, 500)); // the clean seller completes in about 300 ms
      const polled = sc(await s.call('tasks/get', { task_id: r['task_id'], include_result: true }));
      expect(polled['status']).toBe('working');
      expect(polled).not.toHaveProperty('result');
    },
  },
  'task-replay-new-task': {
    via: 'session',
    run: async (s) => {
      const args = guaranteedBooking('replay-new');
      const first = sc(await s.call('create_media_buy', args));
      const again = sc(await s.call('create_media_buy', args));
      expect(again).toMatchObject({ status: 'submitted', replayed: true });
      expect(again['task_id']).not.toBe(first['task_id']);
    },
  },
  'media-buy-past-start-accepted': {
    via: 'session',
    run: async (s) => {
      const start = new Date(Date.now() - 2 * 24 * 3600 * 1000).toISOString();
      const r = sc(await s.call('create_media_buy', { ...probeArguments('create_media_buy', 'past'), start_time: start }));
      expect(typeof r['media_buy_id']).toBe('string');
    },
  },
  'media-buy-inverted-flight-accepted': {
    via: 'session',
    run: async (s) => {
      const args = probeArguments('create_media_buy', 'inverted');
      const r = sc(await s.call('create_media_buy', { ...args, start_time: args['end_time'], end_time: args['start_time'] }));
      expect(typeof r['media_buy_id']).toBe('string');
    },
  },
  'creative-list-misses-synced': {
    via: 'session',
    run: async (s) => {
      const args = probeArguments('sync_creatives', 'buffered');
      expect(sc(await s.call('sync_creatives', args))['creatives']).toMatchObject([{ creative_id: 'cr_buffered', action: 'created' }]);
      const listed = sc(await s.call('list_creatives', { account: args['account'] }))['creatives'] as Json[];
      expect(listed.map((c) => c['creative_id'])).not.toContain('cr_buffered');
    },
  },
  'pagination-cursor-ignored': {
    via: 'session',
    run: async (s) => {
      const base = probeArguments('get_products', 'pages');
      const first = sc(await s.call('get_products', { ...base, pagination: { max_results: 1 } }));
      const cursor = (first['pagination'] as Json)['cursor'];
      const second = sc(await s.call('get_products', { ...base, pagination: { max_results: 1, cursor } }));
      expect(second['products']).toEqual(first['products']);
      expect(second['pagination']).toMatchObject({ has_more: true });
    },
  },
  'auth-optional': {
    via: 'http-raw',
    run: async (r) => {
      // Started with a token: no Authorization at all is served, a wrong one refused.
      expect((await r.handshake()).status).toBe(200);
      const wrong = await fetch(r.url, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
          authorization: 'Bearer not-the-token',
        },
        body: JSON.stringify(INITIALIZE),
      });
      expect(wrong.status).toBe(401);
      expect(wrong.headers.get('www-authenticate')).toMatch(/^Bearer /);
    },
  },
  'auth-invalid-served': {
    via: 'http-raw',
    run: async (r) => {
      // Started with a token: any Bearer value is served, a wrong one too.
      const wrong = await fetch(r.url, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
          authorization: 'Bearer not-the-token',
        },
        body: JSON.stringify(INITIALIZE),
      });
      expect(wrong.status).toBe(200);
    },
  },
  'auth-discovery-protected': {
    via: 'http-raw',
    // Started with a token: initialize without it is refused (the conformant seller serves it: discovery is public).
    run: async (r) => expect((await r.handshake()).status).toBe(401),
  },
  'credential-in-args-accepted': {
    via: 'session',
    run: async (s) => {
      const r = await s.call('get_adcp_capabilities', { ext: { api_key: 'made-up-value' } });
      expect(r['isError']).toBeUndefined();
    },
  },
  'test-controller-exposed': { via: 'session', run: async (s) => expect(await toolNamed(s, 'comply_test_controller')).toBeDefined() },
  'test-controller-task-id-ignored': {
    via: 'session',
    run: async (s) => {
      const account = { operator: 'buyer.example', sandbox: true };
      const params = { arm: 'submitted', task_id: 'forced-by-buyer' };
      await s.call('comply_test_controller', { scenario: 'force_create_media_buy_arm', params, account });
      const r = sc(await s.call('create_media_buy', { ...probeArguments('create_media_buy', 'forced'), account }));
      expect(r['status']).toBe('submitted');
      expect(r['task_id']).not.toBe('forced-by-buyer');
    },
  },
  'test-controller-arm-ignored': {
    via: 'session',
    run: async (s) => {
      const account = { operator: 'buyer.example', sandbox: true };
      const params = { arm: 'submitted', task_id: 'forced-by-buyer' };
      const forced = sc(await s.call('comply_test_controller', { scenario: 'force_create_media_buy_arm', params, account }));
      expect(forced['success']).toBe(true);
      const r = sc(await s.call('create_media_buy', { ...probeArguments('create_media_buy', 'forced'), account }));
      expect(r['task_id']).not.toBe('forced-by-buyer');
    },
  },
  'no-adcp-tools': {
    via: 'session',
    run: async (s) => {
      expect((await s.listTools()).map((t) => t['name'])).toEqual(['ping']);
      expect(text0(await s.call('ping', {}))).toBe('pong');
      for (const tool of ['get_adcp_capabilities', 'get_products']) {
        const err = await rejection(s.call(tool, probeArguments(tool, 'none')));
        expect(err['code']).toBe(-32602);
        expect(String(err['message'])).toContain(`Unknown tool: ${tool}`);
      }
    },
  },
};

const ROTATION: Mode[] = ['stdio', 'json', 'sse'];

describe('fault modes', () => {
  test('every fault has an observation here, and every observation a fault', () => {
    expect(Object.keys(observations).sort()).toEqual(faults.map((f) => f.name).sort());
  });

  describe.concurrent('each fault starts and is observable on the wire', () => {
    test.for(faults.map((f, i) => [f.name, i] as const))('%s', async ([name, index]) => {
      const observation = observations[name];
      if (!observation) throw new Error(`no observation for ${name}`);
      const credentials = faults.find((f) => f.name === name)?.agent?.credentials === true;
      const opts = { faults: [name], ...(credentials ? { token: 'fault-observation-token' } : {}) };
      if (observation.via === 'stdio-raw') {
        const raw = new RawStdio(opts);
        try {
          await observation.run(raw);
        } finally {
          await raw.close();
        }
      } else if (observation.via === 'http-raw') {
        const raw = await RawHttp.start({ ...opts, responseMode: observation.responseMode ?? 'json' });
        try {
          await observation.run(raw);
        } finally {
          await raw.close();
        }
      } else {
        const fault = faults.find((f) => f.name === name)!;
        const mode = observation.mode ?? (fault.transports?.includes('stdio') === false ? 'json' : ROTATION[index % ROTATION.length]!);
        const session = await openSession(mode, opts);
        try {
          await observation.run(session);
        } finally {
          await session.close();
        }
      }
    });
  });
});
