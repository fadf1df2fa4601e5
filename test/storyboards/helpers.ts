// Shared by the storyboard tests: agent configs for the reference seller (stdio, HTTP with a bearer
// token), and one call that opens the forwarding session, stands up the proxy and runs a selection.
import type { AgentConfig, HttpAgentConfig, StdioAgentConfig } from '../../harness/config/types.ts';
import { capabilitiesPayload, runStoryboards, type RunStoryboardsOptions, type StoryboardRun } from '../../harness/storyboards/run.ts';
import { openForwardingSession, type ForwardingSession } from '../../harness/storyboards/forward-session.ts';
import { startStoryboardProxy, type ProxiedCall, type StoryboardProxy } from '../../harness/storyboards/proxy.ts';
import { stdioSellerCommand, type SellerOptions } from '../../sellers/launch.ts';

export const TOKEN = 'sb-token-4f1c9a2e7d';

const base = {
  timeouts: { connectMs: 15_000, callMs: 10_000, agentMs: 300_000 },
  production: false,
  sandbox: true,
  maxBytes: 1_114_112,
  secrets: [] as string[],
};

export function stdioReference(opts: SellerOptions = {}, over: Partial<StdioAgentConfig> = {}): StdioAgentConfig {
  return { ...base, name: 'reference-stdio', transport: 'stdio', ...stdioSellerCommand(opts), env: {}, ...over };
}

export function httpAgent(url: string, over: Partial<HttpAgentConfig> = {}): HttpAgentConfig {
  return { ...base, name: 'reference-http', transport: 'http', url, headers: {}, ...over };
}

/** An HTTP agent configured with our bearer token (the seller started with `token: TOKEN`). */
export const withToken = (url: string, over: Partial<HttpAgentConfig> = {}): HttpAgentConfig =>
  httpAgent(url, { headers: { Authorization: `Bearer ${TOKEN}` }, secrets: [TOKEN, `Bearer ${TOKEN}`], ...over });

export interface Ran {
  run: StoryboardRun;
  proxy: StoryboardProxy;
  session: ForwardingSession;
  /** Every proxied call, in order (onCall). */
  seen: ProxiedCall[];
  capabilities: unknown;
}

/** Open the agent, stand up its proxy, run `selection`, close everything. */
export async function runAgainst(
  agent: AgentConfig,
  selection: RunStoryboardsOptions['selection'],
  extra: Partial<RunStoryboardsOptions> & { callTimeoutMs?: number } = {},
): Promise<Ran> {
  const session = await openForwardingSession(agent);
  const seen: ProxiedCall[] = [];
  let proxy: StoryboardProxy | undefined;
  try {
    const caps = await session.forward({
      method: 'tools/call',
      params: { name: 'get_adcp_capabilities', arguments: {} },
      auth: { kind: 'configured' },
      signal: new AbortController().signal,
      timeoutMs: agent.timeouts.callMs,
    });
    const capabilities = caps.kind === 'answer' ? capabilitiesPayload(caps.message['result']) : undefined;
    proxy = await startStoryboardProxy({
      agent: agent.name,
      handshake: session.handshake,
      tools: session.tools,
      forward: session.forward,
      onCall: (c) => seen.push(c),
      callTimeoutMs: extra.callTimeoutMs ?? agent.timeouts.callMs + 2000,
      maxResponseBytes: agent.maxBytes + 1024,
    });
    const run = await runStoryboards({
      selection,
      proxy,
      transport: agent.transport,
      capabilities,
      credentials: agent.transport === 'http' && Object.keys(agent.headers).length > 0,
      ...extra,
    });
    return { run, proxy, session, seen, capabilities };
  } finally {
    await proxy?.close();
    await session.close();
  }
}

/** `storyboard.<id> › <tool>`: how the tests name one outcome. */
export const key = (o: { check: string; tool: string }): string => `${o.check} › ${o.tool}`;
