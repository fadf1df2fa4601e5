// Cost of AdCP response-schema validation (harness/schemas):
//   - loading a tree (read every file + ajv.addSchema, no compile),
//   - per task, the first validation (lazy compile of that task's response schema, in the order below,
//     so later tasks reuse what earlier ones compiled) against one warm validation of the same payload,
//   - validations per second of a realistic get_products payload (20 products).
// At AdCP 3.0 (the @adcp/sdk data) and 3.1.19 (../shared, when present). Each tree gets a fresh process
// state for its registry, but the Ajv code generator is warm after the first tree.
//   npx tsx bench/schemas.ts
// No assertions; it prints a table. Figures depend on the machine and its load.
import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { dirSchemaSource, sdkSchemaSource, type SchemaSource } from '../harness/schemas/index.ts';
import { AdcpRegistry } from '../harness/schemas/registry.ts';
import { REFERENCE_SELLER_TASKS } from '../sellers/launch.ts';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const SHARED_31 = path.resolve(ROOT, '..', 'shared', 'adcp', 'schemas', '3.1.19');
const WARM_RUNS = 201;
const THROUGHPUT_MS = 1500;

const TASKS = REFERENCE_SELLER_TASKS;

function minimal(task: (typeof TASKS)[number], v31: boolean): Record<string, unknown> {
  const p: Record<(typeof TASKS)[number], Record<string, unknown>> = {
    get_adcp_capabilities: { adcp: { major_versions: [3], idempotency: { supported: false } }, supported_protocols: ['media_buy'] },
    get_products: { products: [] },
    list_creative_formats: { formats: [] },
    list_creatives: { query_summary: { total_matching: 0, returned: 0 }, pagination: { has_more: false }, creatives: [] },
    get_media_buys: { media_buys: [] },
    get_media_buy_delivery: {
      reporting_period: { start: '2026-01-01T00:00:00Z', end: '2026-01-02T00:00:00Z' },
      currency: 'USD',
      media_buy_deliveries: [],
    },
    get_signals: { signals: [] },
    create_media_buy: { media_buy_id: 'mb_1', packages: [] },
    sync_creatives: { creatives: [] },
    update_media_buy: { media_buy_id: 'mb_1' },
    provide_performance_feedback: { success: true },
    activate_signal: { deployments: [] },
  };
  const out = p[task];
  if (v31) {
    out.status = 'completed';
    if (task === 'get_products' || task === 'get_signals') out.cache_scope = 'public';
    if (task === 'create_media_buy') Object.assign(out, { confirmed_at: '2026-01-01T00:00:00Z', revision: 1 });
    if (task === 'update_media_buy') out.revision = 2;
  }
  return out;
}

function product(i: number): Record<string, unknown> {
  return {
    product_id: `prod_${i}`,
    name: `Homepage takeover ${i}`,
    description: 'Premium display inventory on the homepage, desktop and mobile.',
    publisher_properties: [{ publisher_domain: 'news.example', selection_type: 'all' }],
    format_ids: [
      { agent_url: 'https://creative.example/mcp', id: 'display_300x250' },
      { agent_url: 'https://creative.example/mcp', id: 'display_728x90' },
    ],
    delivery_type: 'guaranteed',
    pricing_options: [{ pricing_option_id: `po_${i}`, pricing_model: 'cpm', currency: 'USD', fixed_price: 12.5 }],
    reporting_capabilities: {
      available_reporting_frequencies: ['daily'],
      expected_delay_minutes: 240,
      timezone: 'UTC',
      supports_webhooks: false,
      available_metrics: ['impressions', 'clicks'],
      date_range_support: 'date_range',
    },
    channels: ['display'],
  };
}

/** CPU milliseconds (user + system) of this process since `since`: steadier than wall time on a busy machine. */
const cpuMs = (since: NodeJS.CpuUsage) => {
  const d = process.cpuUsage(since);
  return (d.user + d.system) / 1000;
};
const ms = (n: number) => (n >= 100 ? n.toFixed(0) : n >= 1 ? n.toFixed(1) : n.toFixed(3));
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? 0;

async function benchTree(label: string, source: SchemaSource, version: string): Promise<void> {
  const v31 = version.startsWith('3.1');
  let t = performance.now();
  let cpu = process.cpuUsage();
  const registry = await AdcpRegistry.open(await source.openTree(version));
  const loadMs = performance.now() - t;
  const loadCpu = cpuMs(cpu);
  console.log(`\n## AdCP ${version} (${label}) — tree load (read + addSchema, no compile): ${ms(loadMs)} ms wall, ${ms(loadCpu)} ms CPU`);
  console.log('| task | first validation (compile) ms wall | … ms CPU | warm validation ms | ratio (wall) |');
  console.log('|---|---:|---:|---:|---:|');
  let coldTotal = 0;
  let coldCpuTotal = 0;
  for (const task of TASKS) {
    const payload = minimal(task, v31);
    const id = registry.task(task)?.response;
    if (!id) {
      console.log(`| ${task} | – | – | no schema |`);
      continue;
    }
    t = performance.now();
    cpu = process.cpuUsage();
    const validate = registry.validator(id);
    if (typeof validate === 'string') throw new Error(validate);
    const ok = validate(payload);
    const cold = performance.now() - t;
    const coldCpu = cpuMs(cpu);
    coldTotal += cold;
    coldCpuTotal += coldCpu;
    if (!ok) throw new Error(`${task}: minimal payload invalid: ${JSON.stringify(validate.errors)}`);
    const runs: number[] = [];
    for (let i = 0; i < WARM_RUNS; i++) {
      const s = performance.now();
      validate(payload);
      runs.push(performance.now() - s);
    }
    const warm = median(runs);
    console.log(
      `| ${task} | ${ms(cold)} | ${ms(coldCpu)} | ${ms(warm)} | ${Math.round(cold / Math.max(warm, 1e-6)).toLocaleString('en-US')}× |`,
    );
  }
  console.log(`| all 9 tasks | ${ms(coldTotal)} | ${ms(coldCpuTotal)} | | |`);

  const id = registry.task('get_products')!.response;
  const validate = registry.validator(id);
  if (typeof validate === 'string') throw new Error(validate);
  const payload = { ...minimal('get_products', v31), products: Array.from({ length: 20 }, (_, i) => product(i)) };
  if (!validate(payload)) throw new Error(`realistic get_products invalid: ${JSON.stringify(validate.errors)}`);
  const bytes = Buffer.byteLength(JSON.stringify(payload));
  let n = 0;
  t = performance.now();
  cpu = process.cpuUsage();
  while (performance.now() - t < THROUGHPUT_MS) {
    validate(payload);
    n++;
  }
  const perSec = n / ((performance.now() - t) / 1000);
  const perCpuSec = n / (cpuMs(cpu) / 1000);
  const bad = { ...payload, products: payload.products.map((p, i) => (i % 2 ? { ...p, delivery_type: 'sometimes' } : p)) };
  let m = 0;
  t = performance.now();
  while (performance.now() - t < THROUGHPUT_MS / 2) {
    validate(bad);
    m++;
  }
  const badPerSec = m / ((performance.now() - t) / 1000);
  console.log(
    `get_products, 20 products (${(bytes / 1024).toFixed(1)} KiB): ${Math.round(perSec).toLocaleString('en-US')} validations/s valid ` +
      `(${Math.round(perCpuSec).toLocaleString('en-US')} per CPU-second); ` +
      `${Math.round(badPerSec).toLocaleString('en-US')}/s with 10 errors (allErrors)`,
  );
}

console.log(`node ${process.version}, ${process.platform}/${process.arch}`);
await benchTree('@adcp/sdk', sdkSchemaSource(), '3.0.6');
if (existsSync(path.join(SHARED_31, 'index.json'))) await benchTree('../shared', dirSchemaSource(SHARED_31), '3.1.19');
else console.log('\n(3.1.19 skipped: ../shared is absent)');
