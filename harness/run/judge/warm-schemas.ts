// Judging runs in a worker thread (judge-sandbox.ts) that takes time to start (loading the catalog, Ajv,
// the AdCP schema tree) and then compiles the AdCP response schema of each tool that was called (a few
// hundred milliseconds for get_products). None of that needs the seller's answer. Started while the
// seller is still starting up or answering, it runs on the other core: a warm-up job — a made-up capture
// that calls the given tools and runs no check — leaves a started worker with those schemas compiled in
// the sandbox's idle pool, and the real judging takes it. Its result is thrown away; it never judges a
// seller. A wrong guess of the AdCP version (the config's, else the source's default) costs CPU that was
// idle anyway, never a verdict. Never throws.
import type { AgentCapture, Exchange } from '../../record/exchange.ts';
import { agentFacts } from '../../capture/agent-facts.ts';
import { defaultProbes } from '../../capture/probes.ts';
import { ADCP_TASKS } from '../../adcp-tasks.ts';
import { CAPABILITIES_TOOL as CAPABILITIES } from '../../checks/capabilities/_tools.ts';
import type { AgentConfig } from '../../config/types.ts';
import type { SchemaSource } from '../../schemas/source.ts';
import { judgeInSandbox } from './judge-sandbox.ts';

/** A capture that called `tools` and got no answer: enough for the worker to prepare their schemas. */
function warmUpCapture(agent: AgentConfig, tools: readonly string[]): AgentCapture {
  const exchanges: Exchange[] = tools.map((tool) => ({
    agent: agent.name,
    tool,
    intent: 'valid',
    request: { name: tool, arguments: {} },
    outcome: { kind: 'transport-error', failure: { kind: 'timeout', message: 'warm-up: not a call' } },
    startedAt: new Date(0).toISOString(),
    durationMs: 0,
  }));
  return {
    agent: agentFacts(agent),
    initialize: { ok: true, protocolVersion: '2025-11-25', serverInfo: {}, durationMs: 0 },
    toolsList: { ok: true, tools: tools.map((name) => ({ name, inputSchema: { type: 'object' } })), pages: 1 },
    exchanges,
  };
}

/** Start a judge worker and have it compile the response schemas of `tools`; resolves when it is idle again. */
export async function warmJudge(source: SchemaSource, agent: AgentConfig, tools: readonly string[], signal?: AbortSignal): Promise<void> {
  try {
    await judgeInSandbox(warmUpCapture(agent, tools), { schemaSource: source, select: [], ...(signal ? { signal } : {}) });
  } catch {
    // judging will meet the same problem and report it
  }
}

/**
 * The tools a run will most likely call: get_adcp_capabilities (the handshake every session opens with, when
 * the seller lists it), the probes its agents name, else the harness's default probes of a sandbox agent
 * that lists every AdCP task (the scenarios vary those same calls).
 */
export function likelyTools(agents: readonly AgentConfig[]): string[] {
  const tools = new Set<string>([CAPABILITIES]);
  const everyTask = [...ADCP_TASKS].map((name) => ({ name }));
  for (const a of agents) for (const p of a.probes ?? defaultProbes(everyTask, { ...a, sandbox: a.sandbox })) tools.add(p.tool);
  return [...tools];
}
