// The idempotency walk live against the reference seller, over stdio and HTTP: its steps in order, the
// concurrent pair really on the wire together (both requests sent before either answer), the seller
// facing that race (the second waits and replays), every booking canceled and listed, and the four
// deeper rules judged pass — then the faults that break them, each judged fail with its evidence.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { captureAgent } from '../../harness/capture/capture-agent.ts';
import { judgeAgent } from '../../harness/checks/engine.ts';
import type { AgentConfig, HttpAgentConfig, StdioAgentConfig } from '../../harness/config/types.ts';
import { DEFAULT_MAX_BYTES } from '../../harness/config/index.ts';
import type { AgentCapture } from '../../harness/record/exchange.ts';
import { startHttpSeller, stdioSellerCommand, type SellerOptions } from '../../sellers/launch.ts';

const timeouts = { connectMs: 20_000, callMs: 8_000, agentMs: 60_000 };
const DEEP = ['idempotency.replayed-flag', 'idempotency.error-not-cached', 'idempotency.malformed-key', 'idempotency.concurrent'];
type Wire = { direction: 'out' | 'in'; message: unknown };

function stdio(opts: SellerOptions = {}): StdioAgentConfig {
  const { command, args } = stdioSellerCommand(opts);
  return {
    name: 'ref',
    transport: 'stdio',
    command,
    args,
    env: {},
    timeouts,
    production: false,
    sandbox: true,
    maxBytes: DEFAULT_MAX_BYTES,
    secrets: [],
  };
}

function http(url: string): HttpAgentConfig {
  return {
    name: 'ref-http',
    transport: 'http',
    url,
    headers: {},
    timeouts,
    production: false,
    sandbox: true,
    maxBytes: DEFAULT_MAX_BYTES,
    secrets: [],
  };
}

const steps = (c: AgentCapture): string[] =>
  c.exchanges.filter((x) => x.scenario?.name === 'idempotency').map((x) => `${x.tool} ${x.scenario!.step}`);
const statuses = (c: AgentCapture): Record<string, string> =>
  Object.fromEntries(
    judgeAgent(c, { agent: c.agent })
      .filter((o) => DEEP.includes(o.check))
      .map((o) => [o.check, o.status]),
  );
const payload = (c: AgentCapture, step: string): Record<string, unknown> => {
  const x = c.exchanges.find((e) => e.scenario?.step === step)!;
  return (x.outcome.kind === 'result' ? (x.outcome.result as Record<string, unknown>)['structuredContent'] : {}) as Record<string, unknown>;
};

/** The capture and every JSON-RPC message of its session, in wire order. */
async function captured(agent: AgentConfig): Promise<{ capture: AgentCapture; wire: Wire[] }> {
  const wire: Wire[] = [];
  const capture = await captureAgent(agent, { onWire: (e) => wire.push({ direction: e.direction, message: e.message }) });
  return { capture, wire };
}

/** Position in the wire of the request sent with `args`' idempotency key (both of the pair share it), and of their answers. */
function pairOnTheWire(wire: Wire[], key: string): { sent: number[]; answered: number[] } {
  const ids = new Map<unknown, number>();
  const sent: number[] = [];
  wire.forEach((m, i) => {
    const msg = m.message as { id?: unknown; params?: { arguments?: { idempotency_key?: unknown } } };
    if (m.direction === 'out' && msg.params?.arguments?.idempotency_key === key) {
      ids.set(msg.id, i);
      sent.push(i);
    }
  });
  const answered = wire.flatMap((m, i) => (m.direction === 'in' && ids.has((m.message as { id?: unknown }).id) ? [i] : []));
  return { sent, answered };
}

function expectWalk(capture: AgentCapture, wire: Wire[]): void {
  expect(steps(capture)).toEqual([
    'create_media_buy original',
    'create_media_buy replay',
    'create_media_buy conflict',
    'create_media_buy missing-key',
    'create_media_buy error-first',
    'create_media_buy error-retry',
    'create_media_buy malformed-key',
    'create_media_buy concurrent-first',
    'create_media_buy concurrent-second',
    'update_media_buy cleanup',
    'update_media_buy cleanup',
    'update_media_buy cleanup',
  ]);
  // The pair: both requests on the wire before either answer came back.
  const first = capture.exchanges.find((x) => x.scenario?.step === 'concurrent-first')!;
  const { sent, answered } = pairOnTheWire(wire, String(first.request.arguments['idempotency_key']));
  expect(sent).toHaveLength(2);
  expect(answered).toHaveLength(2);
  expect(Math.max(...sent)).toBeLessThan(Math.min(...answered));
  // The seller faced the race: one booking, the other answer its replay.
  const [a, b] = [payload(capture, 'concurrent-first'), payload(capture, 'concurrent-second')];
  expect(a['media_buy_id']).toBe(b['media_buy_id']);
  expect([a['replayed'], b['replayed']].filter((r) => r === true)).toHaveLength(1);
  // The refused request left its key free; the malformed key was refused as INVALID_REQUEST.
  expect(payload(capture, 'error-first')['adcp_error']).toMatchObject({ code: 'PRODUCT_NOT_FOUND' });
  expect(typeof payload(capture, 'error-retry')['media_buy_id']).toBe('string');
  expect(payload(capture, 'malformed-key')['adcp_error']).toMatchObject({ code: 'INVALID_REQUEST', field: 'idempotency_key' });
  // Three buys booked (original, corrected retry, the pair), each canceled and listed.
  const record = capture.scenarios?.find((r) => r.name === 'idempotency');
  expect(record?.status).toBe('ran');
  expect(record?.created?.map((c) => `${c.kind} ${c.cleanup}`)).toEqual([
    'media_buy cleaned-up',
    'media_buy cleaned-up',
    'media_buy cleaned-up',
  ]);
  expect(new Set(record?.created?.map((c) => c.id)).size).toBe(3);
  expect(statuses(capture)).toEqual(Object.fromEntries(DEEP.map((id) => [id, 'pass'])));
}

describe('the idempotency walk against the reference seller', () => {
  let seller: { url: string; close(): Promise<void> };
  beforeAll(async () => {
    seller = await startHttpSeller();
  });
  afterAll(async () => {
    await seller?.close();
  });

  test('stdio: every step, the pair sent together, what was booked canceled; the four rules pass', async () => {
    const { capture, wire } = await captured(stdio());
    expectWalk(capture, wire);
  }, 90_000);

  test('HTTP: the same, two POSTs in flight at once on one session', async () => {
    const { capture, wire } = await captured(http(seller.url));
    expectWalk(capture, wire);
  }, 90_000);
});

describe('faults the walk shows', () => {
  test('a seller without an in-flight guard books the pair twice: fail, with the first request as related evidence', async () => {
    const { capture } = await captured(stdio({ faults: ['idempotency-concurrent-books-twice'] }));
    const outcome = judgeAgent(capture, { agent: capture.agent }).find((o) => o.check === 'idempotency.concurrent')!;
    const first = capture.exchanges.findIndex((x) => x.scenario?.step === 'concurrent-first');
    const second = capture.exchanges.findIndex((x) => x.scenario?.step === 'concurrent-second');
    expect(outcome).toMatchObject({ status: 'fail', related: [first] });
    expect(outcome).toMatchObject({ call: second, pointer: '/result/structuredContent/media_buy_id' });
    expect(payload(capture, 'concurrent-first')['media_buy_id']).not.toBe(payload(capture, 'concurrent-second')['media_buy_id']);
    // Both buys are canceled all the same.
    expect(capture.scenarios?.find((r) => r.name === 'idempotency')?.created).toHaveLength(4);
  }, 90_000);

  test('a seller that caches a refusal: the corrected request is refused, fail with the refusal as related evidence', async () => {
    const { capture } = await captured(stdio({ faults: ['idempotency-error-cached'] }));
    const outcome = judgeAgent(capture, { agent: capture.agent }).find((o) => o.check === 'idempotency.error-not-cached')!;
    expect(outcome).toMatchObject({ status: 'fail', related: [capture.exchanges.findIndex((x) => x.scenario?.step === 'error-first')] });
    expect(payload(capture, 'error-retry')['adcp_error']).toMatchObject({ code: 'IDEMPOTENCY_CONFLICT' });
  }, 90_000);
});
