// End to end through the CLI, against the reference seller: the agent's `account` (a seller that requires
// one refuses a run without it with ACCOUNT_REQUIRED, and is conformant with it), the state rules a
// read-only run leaves out of reach (one grouped line per agent, with how to enable them), the ids the
// sandbox flows created, and a failure that rests on two calls (a concurrent replay booked twice, a
// read that missed a new buy) shown with both requests and both answers — in every report format.
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { beforeAll, describe, expect, test } from 'vitest';
import { catalog } from '../../harness/checks/catalog.ts';
import { stateRuleIds } from '../../harness/run/judge/session-facts.ts';
import { REFERENCE_WEBHOOK_JWKS, stdioSellerCommand, type SellerOptions } from '../../sellers/launch.ts';
import { canValidateJunit, runCli, tempDirs, validateJunit, type CliResult } from './cli.helpers.ts';
import { reportSchemaErrors } from './nightly.helpers.ts';

const tmp = tempDirs();
const timeouts = { connect: 15_000, call: 10_000, agent: 90_000 };
const ACCOUNT = { account_id: 'acc_123' };

const seller = (name: string, opts: SellerOptions, extra: Record<string, unknown> = {}) => ({
  name,
  transport: 'stdio',
  ...stdioSellerCommand(opts),
  timeouts,
  webhookKeys: REFERENCE_WEBHOOK_JWKS, // its async bookings' webhooks are verified
  ...extra,
});

interface Related {
  call: number;
  tool: string;
  request?: string;
  answer?: string;
}
interface JsonAgent {
  name: string;
  verdict: string;
  account?: { source: string; reference: string; text: string; refusals?: Array<{ code: string; calls: number; tools: string[] }> };
  stateRulesOutOfReach?: { rules: string[]; text: string; enable: string };
  created?: { objects: Array<{ kind: string; id: string; cleanup: string }>; omitted: number; text: string };
  taskLifecycle?: {
    text: string;
    calls: Array<{ call: number; step: string; tool: string; status: string; request: string; answer?: string }>;
  };
  webhooks?: {
    text: string;
    deliveries: Array<{ call: number; answered: number; verification?: { ok: boolean; keyid?: string; code?: string } }>;
  };
  outcomes: Array<{ check: string; status: string; evidence?: { request?: string; answer?: string; related?: Related[] } }>;
}

let cli: CliResult;
let report: { agents: JsonAgent[] };
let files: { summary: string; html: string; junit: string; dir: string };
const byName = (name: string): JsonAgent => report.agents.find((a) => a.name === name)!;

beforeAll(async () => {
  const dir = await tmp('account-state');
  const config = join(dir, 'agents.json');
  await writeFile(
    config,
    JSON.stringify({
      agents: [
        seller('no-account', { requireAccount: 'acc_123' }, { sandbox: true }),
        seller('with-account', { requireAccount: 'acc_123' }, { sandbox: true, account: ACCOUNT }),
        seller('read-only', {}, {}),
        seller('books-twice', { faults: ['idempotency-concurrent-books-twice'] }, { sandbox: true }),
        seller('read-misses', { faults: ['media-buy-read-misses-newest'] }, { sandbox: true }),
        seller('unsigned', { faults: ['webhook-unsigned'] }, { sandbox: true }),
      ],
    }),
  );
  cli = await runCli(['run', '--config', config, '--out', dir, '--concurrency', '6']);
  const read = (f: string) => readFile(join(dir, f), 'utf8');
  report = JSON.parse(await read('report.json')) as { agents: JsonAgent[] };
  files = { summary: await read('summary.md'), html: await read('report.html'), junit: await read('junit.xml'), dir };
}, 240_000);

describe('a seller that requires an account', () => {
  test('without `account`: its calls are refused with ACCOUNT_REQUIRED, every report says so, and the run is not conformant', () => {
    const a = byName('no-account');
    expect(a.verdict).not.toBe('conformant');
    expect(a.account).toMatchObject({ source: 'harness', reference: expect.stringContaining('"sandbox":true') });
    const required = a.account?.refusals?.find((r) => r.code === 'ACCOUNT_REQUIRED');
    expect(required?.tools).toContain('get_products');
    // The mutating calls named the harness's own natural-key reference, which this seller does not know.
    expect(a.account?.refusals?.find((r) => r.code === 'ACCOUNT_NOT_FOUND')?.tools).toContain('create_media_buy');
    expect(a.account?.text).toMatch(/the seller refused \d+ calls with ACCOUNT_REQUIRED \(get_products/);
    expect(cli.stdout).toContain(a.account!.text);
    expect(files.summary).toMatch(/\*\*no-account\*\* account: none configured.*the seller refused \d+ calls with ACCOUNT_REQUIRED/);
    expect(files.junit).toMatch(/<property name="account" value="account: none configured[^"]*the seller refused/);
  });

  test('with `account: {account_id: acc_123}`: conformant, and every report names the account', () => {
    const a = byName('with-account');
    expect(a.verdict).toBe('conformant');
    expect(a.account).toEqual({ source: 'config', reference: JSON.stringify(ACCOUNT), text: expect.stringContaining('config `account`') });
    expect(files.summary).toContain('**with-account** account: {"account_id":"acc_123"} (config \\`account\\`)');
    expect(files.html).toContain('data-account="config"');
    expect(files.junit).toMatch(/<property name="account" value="account: \{&quot;account_id&quot;:&quot;acc_123&quot;\}/);
    expect(cli.stdout).toContain('account: {"account_id":"acc_123"} (config `account`)');
  });
});

describe('a read-only run', () => {
  test('lists every state rule out of reach in one grouped line per agent, with how to enable them, in every report', () => {
    const rules = stateRuleIds(catalog);
    expect(rules.length).toBeGreaterThan(0);
    const a = byName('read-only');
    expect(a.verdict).toBe('conformant');
    expect(a.stateRulesOutOfReach?.rules).toEqual(rules);
    expect(a.stateRulesOutOfReach?.enable).toContain('sandbox: true');
    const line = a.stateRulesOutOfReach!.text;
    // Terminal: one line, not one per rule.
    expect(cli.stdout.split('\n').filter((l) => l.includes('out of reach'))).toEqual([`  ${line}`]);
    expect(files.summary.match(/state rules? out of reach/g)).toHaveLength(1);
    expect(files.html.match(/data-state-rules-out-of-reach=/g)).toHaveLength(1);
    expect(files.junit.match(/<property name="stateRules.outOfReach"/g)).toHaveLength(1);
    // Sandbox agents have none out of reach.
    expect(byName('with-account').stateRulesOutOfReach).toBeUndefined();
  });
});

describe('sandbox flows', () => {
  test('every report lists what they created, cleaned up or kept', () => {
    const created = byName('with-account').created;
    expect(created?.objects.some((o) => o.kind === 'media_buy')).toBe(true);
    for (const o of created!.objects) expect(['cleaned-up', 'kept']).toContain(o.cleanup);
    const first = created!.objects[0]!;
    expect(cli.stdout).toContain(`${first.kind} ${first.id} (`);
    expect(files.summary).toContain("created in the seller's sandbox");
    expect(files.html).toContain('data-created=');
    expect(files.junit).toContain('<property name="created.0"');
  });
});

describe('an async create (a guaranteed booking the seller answers submitted)', () => {
  test('every report shows the submitted answer, each poll, the terminal result, and each webhook delivery with its verification', () => {
    const a = byName('with-account');
    const trace = a.taskLifecycle!;
    const [book, ...rest] = trace.calls;
    expect(book).toMatchObject({ step: 'book', tool: 'create_media_buy', status: 'submitted' });
    expect(book!.answer).toContain('"status":"submitted"');
    const polls = rest.filter((c) => c.step.startsWith('poll-'));
    expect(polls.length).toBeGreaterThan(0);
    expect(polls.at(-1)).toMatchObject({ status: 'completed' });
    expect(polls.at(-1)!.answer).toContain('media_buy_id');
    expect(trace.text).toMatch(
      /answered submitted \(task [^)]+\) → \d+ polls? with (tasks\/get|get_task_status) → completed \(media_buy_id /,
    );
    const deliveries = a.webhooks!.deliveries;
    expect(deliveries.length).toBeGreaterThanOrEqual(2);
    for (const d of deliveries) expect(d.verification).toMatchObject({ ok: true, keyid: 'reference-seller-webhook-2026' });

    // Terminal: the line, every call, every delivery with its signature.
    expect(cli.stdout).toContain(trace.text);
    for (const c of trace.calls) expect(cli.stdout).toContain(`call ${c.call} ${c.tool} (${c.step}): ${c.status}`);
    const verified = (text: string) => text.match(/signature verified \(key reference-seller-webhook-2026\)/g)?.length ?? 0;
    expect(verified(section(cli.stdout, trace.text))).toBeGreaterThanOrEqual(deliveries.length);
    // summary.md: the calls, the first answer and the terminal result quoted, the deliveries.
    const summary = section(files.summary, '## Task lifecycle and webhooks');
    expect(summary).toContain(`(book): submitted`);
    expect(summary).toMatch(/\(poll-\d+\): completed[^\n]*answered: [^\n]*media\\?_buy\\?_id/);
    expect(verified(summary)).toBeGreaterThanOrEqual(deliveries.length);
    // report.html: every call with its request and answer, every delivery with its verdict.
    expect(files.html).toContain(`data-task-trace="${trace.calls.length}"`);
    expect(files.html).toContain('data-step="book" data-status="submitted"');
    expect(files.html).toMatch(/data-step="poll-\d+" data-status="completed"/);
    expect(files.html.match(/data-verified="true"/g)!.length).toBeGreaterThanOrEqual(deliveries.length);
    // junit.xml: one property per call and per delivery.
    for (const i of trace.calls.keys()) expect(files.junit).toContain(`<property name="taskLifecycle.${i}"`);
    for (const i of deliveries.keys())
      expect(files.junit).toMatch(new RegExp(`<property name="webhooks\\.${i}" value="[^"]*signature verified`));
  });

  test('unsigned deliveries: each rejected, in every report', () => {
    const deliveries = byName('unsigned').webhooks!.deliveries;
    expect(deliveries.length).toBeGreaterThan(0);
    for (const d of deliveries) expect(d.verification).toMatchObject({ ok: false, code: expect.stringMatching(/^webhook_signature_/) });
    const rejected = /signature rejected: webhook_signature_/g;
    expect(section(cli.stdout, 'unsigned').match(rejected)?.length).toBeGreaterThanOrEqual(deliveries.length);
    expect(files.summary.match(rejected)?.length).toBeGreaterThanOrEqual(deliveries.length);
    expect(files.html.match(/data-verified="false"/g)?.length).toBeGreaterThanOrEqual(deliveries.length);
    expect(
      files.junit.match(/<property name="webhooks\.\d+" value="[^"]*signature rejected: webhook_signature_/g)?.length,
    ).toBeGreaterThanOrEqual(deliveries.length);
  });
});

const section = (text: string, from: string) => text.slice(Math.max(0, text.indexOf(from)));

describe('a failure resting on two calls', () => {
  const related = (agent: string, check: string): { o: JsonAgent['outcomes'][number]; r: Related } => {
    const o = byName(agent).outcomes.find((x) => x.check === check && x.status === 'fail' && x.evidence?.related?.length)!;
    return { o, r: o.evidence!.related![0]! };
  };

  test('a concurrent replay that books twice: both requests and both answers, in every report', () => {
    const { o, r } = related('books-twice', 'idempotency.concurrent');
    expect(o.evidence?.request).toContain('create_media_buy');
    expect(r.request).toContain('create_media_buy');
    expect(r.answer).toContain('media_buy_id');
    expect(o.evidence?.answer).toContain('media_buy_id');
    expect(cli.stdout).toContain(`with call ${r.call}: ${r.tool}`);
    expect(files.summary).toContain(`**with call ${r.call}**`);
    expect(files.html).toContain(`with call ${r.call}`);
    expect(files.junit).toContain(`with call ${r.call}: ${r.tool}`);
  });

  test('a read that misses a new buy: the booking and the read, in every report', () => {
    const { o, r } = related('read-misses', 'media-buy.read-after-write');
    expect(o.evidence?.request).toContain('get_media_buys');
    expect(r.tool).toContain('create_media_buy');
    expect(r.answer).toContain('media_buy_id');
    expect(files.junit).toContain(`with call ${r.call}: ${r.tool}`);
  });

  test('report.json validates against its schema; junit.xml against JUnit’s', () => {
    expect(reportSchemaErrors(report)).toBeNull();
    if (canValidateJunit) validateJunit(join(files.dir, 'junit.xml'));
  });
});
