// Test helper: an MCP client session against a real reference-seller process (stdio or HTTP), calling
// tools with a permissive result schema so the raw envelope is seen exactly as sent.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { z } from 'zod';
import { startHttpSeller, stdioSellerCommand, type SellerOptions } from '../../sellers/launch.ts';

export type Mode = 'stdio' | 'json' | 'sse';

const anyResult = z.any();

export interface SellerSession {
  client: Client;
  mode: Mode;
  /** HTTP only. */
  url?: string;
  /** stdio only: everything the seller wrote on stderr so far. */
  stderr(): string;
  listTools(): Promise<Array<Record<string, unknown>>>;
  /** The raw tools/call result (any JSON), or throws the JSON-RPC / transport error. */
  call(name: string, args: Record<string, unknown>, timeoutMs?: number): Promise<Record<string, unknown>>;
  close(): Promise<void>;
}

export async function openSession(mode: Mode, opts: SellerOptions = {}): Promise<SellerSession> {
  const client = new Client({ name: 'reference-seller-tests', version: '0.0.0' });
  let stderr = '';
  let stopSeller = async (): Promise<void> => {};
  let url: string | undefined;
  if (mode === 'stdio') {
    const { command, args } = stdioSellerCommand(opts);
    const transport = new StdioClientTransport({ command, args, stderr: 'pipe' });
    transport.stderr?.on('data', (chunk: Buffer) => {
      stderr = (stderr + chunk.toString('utf8')).slice(-16_384);
    });
    await client.connect(transport);
  } else {
    const seller = await startHttpSeller({ ...opts, responseMode: mode });
    stopSeller = seller.close;
    url = seller.url;
    try {
      await client.connect(new StreamableHTTPClientTransport(new URL(seller.url)));
    } catch (err) {
      await seller.close();
      throw err;
    }
  }
  return {
    client,
    mode,
    ...(url ? { url } : {}),
    stderr: () => stderr,
    listTools: async () => ((await client.request({ method: 'tools/list' }, anyResult)) as { tools: Array<Record<string, unknown>> }).tools,
    call: async (name, args, timeoutMs = 20_000) =>
      (await client.request({ method: 'tools/call', params: { name, arguments: args } }, anyResult, { timeout: timeoutMs })) as Record<
        string,
        unknown
      >,
    close: async () => {
      await client.close().catch(() => {});
      await stopSeller();
    },
  };
}

/** The arguments the harness's default probes send (a valid call per read tool, and the sandbox ones). */
export function probeArguments(tool: string, correlationId: string): Record<string, unknown> {
  const context = { correlation_id: correlationId, nested: { trace: [1, 'two', { three: true }] } };
  const account = { brand: { domain: 'buyer.example' }, operator: 'buyer.example', sandbox: true };
  const day = 24 * 3600 * 1000;
  switch (tool) {
    case 'get_products':
      return { buying_mode: 'brief', brief: 'Video and display for a running-shoe launch', context };
    case 'get_signals':
      return { signal_spec: 'Adults interested in outdoor sports', context };
    case 'create_media_buy':
      return {
        idempotency_key: `test-${correlationId}-0123456789`,
        account,
        brand: { domain: 'buyer.example' },
        start_time: new Date(Date.now() + 7 * day).toISOString(),
        end_time: new Date(Date.now() + 37 * day).toISOString(),
        packages: [{ product_id: 'sports_display_ros', pricing_option_id: 'ros_cpm_auction', budget: 5000 }],
        context,
      };
    case 'sync_creatives':
      return {
        idempotency_key: `sync-${correlationId}-0123456789`,
        account,
        creatives: [
          {
            creative_id: `cr_${correlationId}`,
            name: 'Banner',
            format_id: { agent_url: 'https://creative.adcontextprotocol.org', id: 'display_static' },
            assets: { image: { asset_type: 'image', url: 'https://buyer.example/banner.png', width: 300, height: 250 } },
          },
        ],
        context,
      };
    // The two below name a booked buy: callers set media_buy_id to one create_media_buy returned.
    case 'update_media_buy':
      return { idempotency_key: `upd-${correlationId}-0123456789`, account, media_buy_id: '', paused: true, context };
    case 'provide_performance_feedback':
      return {
        idempotency_key: `fb-${correlationId}-0123456789`,
        media_buy_id: '',
        measurement_period: { start: new Date(Date.now() - day).toISOString(), end: new Date().toISOString() },
        performance_index: 1.2,
        context,
      };
    case 'activate_signal':
      return {
        idempotency_key: `act-${correlationId}-0123456789`,
        signal_agent_segment_id: 'rs_outdoor_enthusiasts',
        destinations: [{ type: 'platform', platform: 'the-trade-desk' }],
        context,
      };
    default:
      return { context };
  }
}

/** Every task of the reference seller, mutating calls first, so the reads after them report a booked buy and a synced creative. */
export const CALL_ORDER = [
  'get_adcp_capabilities',
  'get_products',
  'list_creative_formats',
  'get_signals',
  'create_media_buy',
  'sync_creatives',
  'update_media_buy',
  'provide_performance_feedback',
  'activate_signal',
  'list_creatives',
  'get_media_buys',
  'get_media_buy_delivery',
];
