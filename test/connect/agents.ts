// Agent configs for the live connect tests: fixture sellers under test/fixtures/servers.
import { fileURLToPath } from 'node:url';
import type { AgentConfig, HttpAgentConfig, Probe, StdioAgentConfig } from '../../harness/config/types.ts';

export const SERVERS = fileURLToPath(new URL('../fixtures/servers/', import.meta.url));
export const TOKEN = 'tok_9f8e7d6c5b4a_SECRET';

const base = {
  timeouts: { connectMs: 10_000, callMs: 1_500, agentMs: 50_000 },
  production: false,
  sandbox: false,
  maxBytes: 1_114_112,
  secrets: [] as string[],
};

export const probes = (...tools: string[]): Probe[] => tools.map((tool) => ({ tool, arguments: {} }));

export function stdioAgent(script: string, over: Partial<StdioAgentConfig> = {}): StdioAgentConfig {
  return { ...base, name: `stdio-${script}`, transport: 'stdio', command: process.execPath, args: [SERVERS + script], env: {}, ...over };
}

export function httpAgent(url: string, over: Partial<HttpAgentConfig> = {}): HttpAgentConfig {
  return {
    ...base,
    name: 'http-agent',
    transport: 'http',
    url,
    headers: { Authorization: `Bearer ${TOKEN}` },
    secrets: [`Bearer ${TOKEN}`, TOKEN],
    ...over,
  };
}

export const byTool = <T extends { tool: string }>(exchanges: readonly T[], tool: string): T[] => exchanges.filter((x) => x.tool === tool);
/** The probes' calls, without the business-rule scenario steps that follow them (harness/capture/scenarios.ts). */
export const probeCalls = <T extends { scenario?: unknown }>(exchanges: readonly T[]): T[] =>
  exchanges.filter((x) => x.scenario === undefined);
export type { AgentConfig };
