// `run --storyboards SELECTION`: the official AdCP storyboards for one agent, through the harness's own
// loopback proxy and a forwarding session of its own (our byte cap and timeouts, no retries of a hung
// call). Returns the storyboard outcomes (advisory) and the storyboard calls the catalog judges like
// probes: only those made with the agent's configured credentials — the security storyboard's calls
// without or with bad credentials are meant to be refused, and are the storyboard's to grade.
import type { Exchange } from '../record/exchange.ts';
import type { AgentConfig } from '../config/types.ts';
import { AgentUnreachable, openForwardingSession } from '../storyboards/forward-session.ts';
import { startStoryboardProxy, type StoryboardProxy } from '../storyboards/proxy.ts';
import { capabilitiesPayload, runStoryboards, type Selection, type StoryboardOutcome } from '../storyboards/run.ts';
import type { Outcome } from '../checks/check.ts';

export interface AgentStoryboards {
  outcomes: StoryboardOutcome[];
  /** Storyboard calls to judge with the whole catalog, labelled with the storyboard step that made them. */
  exchanges: Exchange[];
  corpusVersion: string | null;
  /** Why the storyboards could not run at all (the agent unreachable, a harness error), or null. */
  failed: string | null;
}

/** The `--storyboards` value: `universal`, `all`, a bundle id such as `media-buy`, or a list of ids. */
export function parseSelection(value: string): Selection {
  const names = value
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  if (names.length === 1 && (names[0] === 'universal' || names[0] === 'all')) return names[0];
  return names;
}

export async function runAgentStoryboards(agent: AgentConfig, selection: Selection, signal: AbortSignal): Promise<AgentStoryboards> {
  let proxy: StoryboardProxy | undefined;
  let session: Awaited<ReturnType<typeof openForwardingSession>> | undefined;
  try {
    session = await openForwardingSession(agent);
    const caps = await session.forward({
      method: 'tools/call',
      params: { name: 'get_adcp_capabilities', arguments: {} },
      auth: { kind: 'configured' },
      signal,
      timeoutMs: agent.timeouts.callMs,
    });
    const capabilities = caps.kind === 'answer' ? capabilitiesPayload(caps.message['result']) : undefined;
    proxy = await startStoryboardProxy({
      agent: agent.name,
      handshake: session.handshake,
      tools: session.tools,
      forward: session.forward,
      callTimeoutMs: agent.timeouts.callMs,
      maxResponseBytes: agent.maxBytes,
    });
    const run = await runStoryboards({
      selection,
      proxy,
      transport: agent.transport,
      capabilities,
      credentials: agent.transport === 'http' && Object.keys(agent.headers).length > 0,
      sandbox: agent.sandbox,
      signal,
    });
    const exchanges: Exchange[] = [];
    for (const { storyboard, step, negativePath, call } of run.calls) {
      if (!call.exchange || call.auth !== 'configured') continue;
      exchanges.push({
        ...call.exchange,
        intent: negativePath === 'schema_invalid' ? 'invalid' : 'valid',
        via: `storyboard ${storyboard ?? '?'}${step ? `/${step}` : ''}`,
      });
    }
    return { outcomes: run.outcomes, exchanges, corpusVersion: run.corpusVersion, failed: null };
  } catch (err) {
    const why =
      err instanceof AgentUnreachable
        ? `the agent could not be reached for the storyboards: ${err.message}`
        : `the storyboards could not run: ${err instanceof Error ? err.message : String(err)}`;
    return { outcomes: [], exchanges: [], corpusVersion: null, failed: why };
  } finally {
    await proxy?.close().catch(() => {});
    await session?.close().catch(() => {});
  }
}

/** Storyboard outcomes as report outcomes: the same fields, marked advisory unless --strict-storyboards. */
export function storyboardReportOutcomes(run: AgentStoryboards, strict: boolean): Outcome[] {
  const advisory = strict ? {} : { advisory: true };
  if (run.failed) {
    return [
      {
        check: 'storyboard.run',
        tool: 'storyboards',
        status: 'untested',
        severity: 'MUST',
        message: run.failed,
        spec: 'AdCP compliance storyboards',
        specUrl: 'https://adcontextprotocol.org/compliance/',
        ...advisory,
      },
    ];
  }
  return run.outcomes.map((o) => {
    const { storyboard: _s, corpusVersion: _c, calls: _k, knownDefect, versionMismatch, evidence: _e, durationMs: _d, ...outcome } = o;
    const notes = [
      knownDefect ? `known runner defect ${knownDefect}` : '',
      versionMismatch ? `version mismatch: ${versionMismatch}` : '',
    ].filter(Boolean);
    const message =
      notes.length && !outcome.message.includes(notes[0]!)
        ? `${outcome.message}${outcome.message ? ' ' : ''}(${notes.join('; ')})`
        : outcome.message;
    return { ...outcome, message, ...advisory };
  });
}
