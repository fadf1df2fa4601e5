// Cost of judging under a budget (harness/run/judge/judge-sandbox.ts, harness/schemas):
//   - the judge worker: a fresh worker per agent against one reused across agents,
//   - handing a ~10 MB capture to a worker: structured clone against JSON in a transferred buffer,
//   - the error cap: empty products failing the AdCP get_products schema, and 40 missing fields of 150k
//     items, capped (now) against Ajv's plain allErrors (before; `--old`, slow: 16k products ≈ 15 s),
//   - compiling only called tools: 2000 distinct outputSchemas checked (now) against compiled (`--old`),
//   - the pattern engine: re2js against native RegExp on the AdCP patterns, and on `^(a+)+$`.
//   npx tsx bench/judging.ts [--old]
// No assertions; it prints figures. They depend on the machine and its load.
import { Ajv } from 'ajv';
import addFormatsModule from 'ajv-formats';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { getHeapStatistics } from 'node:v8';
import { Worker } from 'node:worker_threads';
import type { AgentCapture } from '../harness/record/exchange.ts';
import { closeJudgeSandboxes, judgeInSandbox } from '../harness/run/judge/judge-sandbox.ts';
import { captureBytes } from '../harness/run/judge/capture-parts.ts';
import { createSchemaService, patternTester, sdkSchemaSource } from '../harness/schemas/index.ts';
import { OutputSchemaCompiler } from '../harness/schemas/output.ts';
import { capture, exchange, minimal30 } from '../test/schemas/helpers.ts';

const OLD = process.argv.includes('--old');
const source = sdkSchemaSource();
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const ms = (n: number) => `${n.toFixed(0)} ms`;
const heapMb = () => getHeapStatistics().used_heap_size / 2 ** 20;

async function timed<T>(f: () => Promise<T> | T): Promise<{ value: T; ms: number }> {
  const t = performance.now();
  const value = await f();
  return { value, ms: performance.now() - t };
}

/** A capture of the reference seller's tasks, each answered with its minimal valid payload. */
function referenceLike(): AgentCapture {
  const payloads = minimal30();
  const exchanges = Object.entries(payloads).map(([tool, p]) => exchange(tool, p, { protocolVersion: '2025-11-25' }));
  return capture({ exchanges, tools: Object.keys(payloads) });
}

async function workers(): Promise<void> {
  console.log('\n## judge worker: fresh per agent vs reused (a 9-call capture)');
  const c = referenceLike();
  const fresh: number[] = [];
  for (let i = 0; i < 5; i++) fresh.push((await timed(() => judgeInSandbox(c, { schemaSource: source, reuse: false }))).ms);
  await judgeInSandbox(c, { schemaSource: source }); // leaves one idle worker
  const reused: number[] = [];
  for (let i = 0; i < 10; i++) reused.push((await timed(() => judgeInSandbox(c, { schemaSource: source }))).ms);
  console.log(`fresh worker: median ${ms(median(fresh))} (${fresh.map(ms).join(', ')})`);
  console.log(`reused worker: median ${ms(median(reused))} (${reused.map(ms).join(', ')})`);
  const heap = await judgeInSandbox(c, { schemaSource: source });
  console.log(`worker heap after judging: ${heap.ok ? `${heap.heapUsedMb} MB` : heap.reason}`);
  await closeJudgeSandboxes();
}

async function handover(): Promise<void> {
  console.log('\n## handing a capture to a worker');
  // Distinct objects per call (structured clone would send a shared array once).
  const products = () =>
    Array.from({ length: 8000 }, (_, j) => ({ product_id: `p${j}`, name: `product ${j}`, price: j * 1.5, tags: ['a', 'b'] }));
  const c = capture({ exchanges: Array.from({ length: 20 }, (_, i) => exchange(`t${i}`, { products: products() })) });
  const w = new Worker(
    'const { parentPort } = require("node:worker_threads"); parentPort.on("message", (m) => { const t = performance.now(); if (m instanceof Uint8Array) JSON.parse(Buffer.from(m).toString("utf8")); parentPort.postMessage(performance.now() - t); });',
    { eval: true },
  );
  const roundTrip = (msg: unknown, transfer?: ArrayBuffer[]) =>
    new Promise<number>((resolve) => {
      w.once('message', resolve);
      w.postMessage(msg, transfer);
    });
  await roundTrip(1);
  for (let i = 0; i < 3; i++) {
    const clone = await timed(() => roundTrip(c));
    const t = performance.now();
    const bytes = captureBytes(c);
    const size = bytes.byteLength;
    const serialize = performance.now() - t;
    const parse = await roundTrip(bytes, [bytes.buffer as ArrayBuffer]);
    const json = performance.now() - t;
    console.log(
      `structured clone ${ms(clone.ms)} | JSON ${(size / 1e6).toFixed(1)} MB: ${ms(json)} (stringify ${ms(serialize)}, worker parse ${ms(parse)})`,
    );
  }
  await w.terminate();
}

async function errorCap(): Promise<void> {
  console.log('\n## error cap');
  for (const n of [16_000, 120_000]) {
    const payload = { products: Array.from({ length: n }, () => ({})) };
    const service = await createSchemaService(capture({ exchanges: [exchange('get_products', payload)] }), source);
    service.compileAdcpSchemas();
    const before = heapMb();
    const r = await timed(() => service.validateAdcpResponse('get_products', payload));
    console.log(
      `${n} empty products vs AdCP get_products, capped: ${ms(r.ms)}, heap +${(heapMb() - before).toFixed(0)} MB, ${JSON.stringify(r.value).slice(0, 120)}`,
    );
  }
  const fields = Object.fromEntries(Array.from({ length: 40 }, (_, i) => [`f${i}`, { type: 'string' }]));
  const wide = {
    type: 'object',
    properties: { items: { type: 'array', items: { type: 'object', required: Object.keys(fields), properties: fields } } },
  };
  const items = { items: Array.from({ length: 150_000 }, () => ({})) };
  const before = heapMb();
  const r = await timed(() => new OutputSchemaCompiler().validate('t', wide, items));
  console.log(`40 fields × 150k items, capped: ${ms(r.ms)}, heap +${(heapMb() - before).toFixed(0)} MB`);
  if (!OLD) return;
  const ajv = new Ajv({ strict: false, allErrors: true, logger: false });
  addFormatsModule.default(ajv);
  const payload = { products: Array.from({ length: 16_000 }, () => ({})) };
  const tree = await source.openTree('3.0.6');
  for (const rel of (await tree.listFiles()) ?? []) {
    try {
      ajv.addSchema((await tree.readJson(rel)) as object, undefined, undefined, false);
    } catch {
      /* duplicates */
    }
  }
  const validate = ajv.getSchema(`${tree.idPrefix}media-buy/get-products-response.json`)!;
  const old = await timed(() => validate(payload));
  console.log(`16000 empty products, plain allErrors (before): ${ms(old.ms)}, ${validate.errors?.length} errors`);
}

async function compileOnlyCalled(): Promise<void> {
  console.log('\n## 2000 distinct outputSchemas (30 properties each), one tool called');
  const schemas = Array.from({ length: 2000 }, (_, i) => {
    const props = Object.fromEntries(
      Array.from({ length: 30 }, (_, k) => [`p${i}_${k}`, { type: 'string', maxLength: 100 + k, description: 'd'.repeat(60) }]),
    );
    return { type: 'object', properties: props, required: Object.keys(props).slice(0, 5) };
  });
  const before = heapMb();
  const now = await timed(() => {
    const c = new OutputSchemaCompiler({ called: new Set(['tool_0']) });
    return schemas.filter((s, i) => c.compile(`tool_${i}`, s).ok).length;
  });
  console.log(`checked (uncalled) + 1 compiled: ${ms(now.ms)}, ${now.value} ok, heap +${(heapMb() - before).toFixed(0)} MB`);
  if (!OLD) return;
  const all = await timed(() => {
    const c = new OutputSchemaCompiler();
    return schemas.filter((s, i) => c.compile(`tool_${i}`, s).ok).length;
  });
  console.log(`all compiled (before): ${ms(all.ms)}, heap +${(heapMb() - before).toFixed(0)} MB`);
}

/** Every `pattern` in the @adcp/sdk schema trees. */
function adcpPatterns(): Set<string> {
  const found = new Set<string>();
  const walk = (n: unknown): void => {
    if (Array.isArray(n)) n.forEach(walk);
    else if (n && typeof n === 'object')
      for (const [k, v] of Object.entries(n))
        if (k === 'pattern' && typeof v === 'string') found.add(v);
        else walk(v);
  };
  const visit = (dir: string): void => {
    for (const f of readdirSync(dir)) {
      const file = path.join(dir, f);
      if (statSync(file).isDirectory()) visit(file);
      else if (f.endsWith('.json')) walk(JSON.parse(readFileSync(file, 'utf8')));
    }
  };
  visit(path.join(path.dirname(createRequire(import.meta.url).resolve('@adcp/sdk/package.json')), 'dist', 'lib', 'schemas-data'));
  return found;
}

function patterns(): void {
  console.log('\n## pattern engine (ns per test, 200k tests each)');
  const cases: Array<[string, string]> = [
    ['^[a-z0-9]([a-z0-9-]*[a-z0-9])?(\\.[a-z0-9]([a-z0-9-]*[a-z0-9])?)*$', 'ads.example.com'],
    ['^[A-Z]{3}$', 'USD'],
    ['^[a-zA-Z0-9_-]+$', 'prod_123-abc'],
    ['^\\d{4}-\\d{2}-\\d{2}$', '2026-01-01'],
    ['^https://', 'https://x.example/a'],
  ];
  for (const [p, s] of cases) {
    const linear = patternTester(p);
    const native = new RegExp(p, 'u');
    const run = (f: (x: string) => boolean) => {
      const t = performance.now();
      for (let i = 0; i < 200_000; i++) f(i % 2 ? s : `${s}!`);
      return ((performance.now() - t) / 200_000) * 1e6;
    };
    console.log(
      `${p.slice(0, 40).padEnd(40)} linear(${linear.engine}) ${run((x) => linear.test(x)).toFixed(0)} ns, native ${run((x) => native.test(x)).toFixed(0)} ns`,
    );
  }
  // The AdCP trees' own patterns on the native engine against long hostile strings (why the registry keeps it).
  const units = ['a', '1', 'a-', 'a.', '1.', 'A', 'aA1_', ' ', 'a:', 'x/'];
  let worst = { ms: 0, pattern: '', input: '' };
  for (const p of adcpPatterns()) {
    const re = new RegExp(p, 'u');
    for (const u of units) {
      for (const prefix of ['', 'P', '#', 'https://', 'sha256:']) {
        const input = `${prefix}${u.repeat(Math.ceil(20_000 / u.length))}!`;
        const t = performance.now();
        re.test(input);
        const took = performance.now() - t;
        if (took > worst.ms) worst = { ms: took, pattern: p, input: `${prefix}${u}…!` };
      }
    }
  }
  console.log(
    `AdCP patterns natively, 20k-character hostile strings: worst ${worst.ms.toFixed(1)} ms (${worst.pattern} on ${JSON.stringify(worst.input)})`,
  );
  const t = performance.now();
  patternTester('^(a+)+$').test(`${'a'.repeat(100_000)}b`);
  console.log(
    `^(a+)+$ on 100k 'a' + 'b', linear: ${ms(performance.now() - t)} (natively 26 characters take ~1.6 s, doubling per character)`,
  );
}

await workers();
await handover();
await errorCap();
await compileOnlyCalled();
patterns();
