// The reference seller behind servers/flow-proxy.mjs, one misbehaviour per run, captured as a sandbox
// agent and judged: shared by the state-flow and test-controller batteries.
import { fileURLToPath } from 'node:url';
import { captureAgent } from '../../harness/capture/capture-agent.ts';
import { judgeAgent } from '../../harness/checks/engine.ts';
import type { Outcome } from '../../harness/checks/check.ts';
import { createSchemaService, sdkSchemaSource } from '../../harness/schemas/index.ts';
import type { AgentCapture } from '../../harness/record/exchange.ts';
import { stdioSellerCommand, type SellerOptions } from '../../sellers/launch.ts';
import { stdioAgent } from '../connect/agents.ts';

const PROXY = fileURLToPath(new URL('./servers/flow-proxy.mjs', import.meta.url));
const timeouts = { connectMs: 20_000, callMs: 2_000, agentMs: 90_000 };
const source = sdkSchemaSource();

export async function runBehindFlowProxy(
  name: string,
  behaviour: string,
  seller: SellerOptions = {},
): Promise<{ capture: AgentCapture; outcomes: Outcome[] }> {
  const { command, args } = stdioSellerCommand(seller);
  const capture = await captureAgent(
    stdioAgent(name, { command: process.execPath, args: [PROXY, behaviour, command, ...args], sandbox: true, timeouts }),
    { adcpReleases: await source.versions() },
  );
  const schemas = await createSchemaService(capture, source);
  return { capture, outcomes: judgeAgent(capture, { schemas, agent: capture.agent }) };
}
