// What a capture records of the agent it probed. Its own module: the judge warm-up names the agent
// without loading the capture machinery (MCP SDK, zod).
import type { AgentConfig } from '../config/types.ts';
import type { AgentCapture } from '../record/exchange.ts';

/** The facts of an agent's config that checks and reports read (no secrets, no transport details). */
export function agentFacts(agent: AgentConfig): AgentCapture['agent'] {
  return {
    name: agent.name,
    transport: agent.transport,
    production: agent.production,
    sandbox: agent.sandbox,
    ...(agent.adcpVersion !== undefined ? { adcpVersion: agent.adcpVersion } : {}),
    ...(agent.metaIdTools !== undefined ? { metaIdTools: { ...agent.metaIdTools } } : {}),
    ...(agent.account !== undefined ? { account: structuredClone(agent.account) } : {}),
    ...(agent.webhookKeys !== undefined ? { webhookKeys: structuredClone(agent.webhookKeys) } : {}),
  };
}
