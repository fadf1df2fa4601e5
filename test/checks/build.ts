// Hand-built Exchanges and captures for unit tests of the (pure) check functions.
import type { AgentCapture, Exchange, ExchangeOutcome } from '../../harness/record/exchange.ts';

export function exchange(outcome: ExchangeOutcome, over: Partial<Exchange> = {}): Exchange {
  const tool = over.tool ?? 'get_products';
  return {
    agent: 'unit',
    tool,
    intent: 'valid',
    request: { name: tool, arguments: {} },
    outcome,
    protocolVersion: '2025-11-25',
    startedAt: '1970-01-01T00:00:00.000Z',
    durationMs: 0,
    ...over,
  };
}

export const result = (r: unknown, over: Partial<Exchange> = {}): Exchange => exchange({ kind: 'result', result: r }, over);
export const rpcError = (e: unknown, over: Partial<Exchange> = {}): Exchange => exchange({ kind: 'jsonrpc-error', error: e }, over);
export const noAnswer = (kind: 'timeout' | 'oversize' | 'closed' = 'timeout'): Exchange =>
  exchange({ kind: 'transport-error', failure: { kind, message: `${kind} happened` } });

export const payload = (extra: Record<string, unknown> = {}): Record<string, unknown> => ({
  status: 'completed',
  products: [{ product_id: 'p1' }],
  ...extra,
});

/** A success result: structuredContent plus its JSON mirror as text. */
export function success(sc: unknown = payload(), extra: Record<string, unknown> = {}): Record<string, unknown> {
  return { content: [{ type: 'text', text: JSON.stringify(sc) }], structuredContent: sc, ...extra };
}

/** An error result as the AdCP transport-errors page shows it. */
export function errorResult(err: unknown, extraSc: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    isError: true,
    structuredContent: { adcp_error: err, ...extraSc },
    content: [{ type: 'text', text: JSON.stringify({ adcp_error: err }) }],
  };
}

export const goodError = { code: 'INVALID_REQUEST', message: 'budget.total must be positive', recovery: 'correctable' };

export function capture(over: Partial<AgentCapture> = {}): AgentCapture {
  return {
    agent: { name: 'unit', transport: 'stdio', production: false, sandbox: true, ...(over.agent ?? {}) },
    initialize: { ok: true, protocolVersion: '2025-11-25', serverInfo: { name: 'seller', version: '1.0.0' }, durationMs: 1 },
    toolsList: {
      ok: true,
      pages: 1,
      tools: [
        { name: 'get_adcp_capabilities', inputSchema: { type: 'object' } },
        { name: 'get_products', inputSchema: { type: 'object' } },
      ],
    },
    stdio: { stdoutJunk: [], stderrTail: '' },
    exchanges: [],
    ...over,
  };
}
