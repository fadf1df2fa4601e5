// Which agents a run covers, and where their sessions come from: a config file (probed live), the
// embedded reference seller (no --config), or a recording (--replay, no network).
import type { AgentCapture } from '../record/exchange.ts';
import { loadConfig } from '../config/index.ts';
import type { AgentConfig } from '../config/types.ts';
import { adhocAgent } from './dev/index.ts';
import { UsageError, type RunOptions } from './options.ts';

export interface Target {
  name: string;
  /** Position in the config or recording: report order. */
  index: number;
  /** Live agent to probe (absent under --replay). */
  config?: AgentConfig;
  /** The recorded session (only under --replay). */
  recorded?: AgentCapture;
  expect?: Readonly<Record<string, string>>;
  /** Where each `expect` entry is written in the config (for config errors). */
  expectPointers?: Readonly<Record<string, string>>;
  secrets: readonly string[];
}

export interface Targets {
  targets: Target[];
  close(): Promise<void>;
}

/** Throws UsageError / ConfigError (exit 2) before anything is probed. */
export async function resolveTargets(opts: RunOptions): Promise<Targets> {
  if (opts.adhoc) {
    // --url / --stdio: the one agent of the command line (dev-options.ts refused anything else naming agents).
    const agent = adhocAgent(opts.adhoc);
    return { targets: [{ name: agent.name, index: 0, config: agent, secrets: agent.secrets }], close: async () => {} };
  }
  const configured = opts.config !== undefined ? (await loadConfig(opts.config)).agents : undefined;
  if (opts.replay !== undefined) {
    let captures: AgentCapture[];
    try {
      const { readRecording } = await import('../capture/recording.ts');
      captures = await readRecording(opts.replay);
    } catch (err) {
      throw new UsageError(`--replay ${opts.replay}: ${err instanceof Error ? err.message : String(err)}`);
    }
    // A config next to --replay only lends its baselines and secrets, matched by agent name.
    const byName = new Map((configured ?? []).map((a) => [a.name, a]));
    const targets = captures.map((c, index): Target => {
      const cfg = byName.get(c.agent.name);
      return {
        name: c.agent.name,
        index,
        recorded: c,
        ...(cfg?.expect ? { expect: cfg.expect, ...expectPointersOf(cfg) } : {}),
        secrets: cfg?.secrets ?? [],
      };
    });
    unique(targets);
    return { targets: pick(targets, opts.agents), close: async () => {} };
  }
  if (configured) {
    const targets = configured.map((a, index): Target => ({
      name: a.name,
      index,
      config: a,
      ...(a.expect ? { expect: a.expect, ...expectPointersOf(a) } : {}),
      secrets: a.secrets,
    }));
    unique(targets);
    return { targets: pick(targets, opts.agents), close: async () => {} };
  }
  // Only a run without --config loads the embedded seller's launcher and its signing keys (the SDK's
  // signing modules: ~20 ms of a run's start).
  const { EMBEDDED_NAMES, startEmbeddedAgents } = await import('./targets.ts');
  // Validate names before starting anything.
  pick(
    EMBEDDED_NAMES.map((name, index): Target => ({ name, index, secrets: [] })),
    opts.agents,
  );
  const embedded = await startEmbeddedAgents((name) => !opts.agents.length || opts.agents.includes(name));
  const targets = embedded.agents.map((a): Target => ({
    name: a.name,
    index: EMBEDDED_NAMES.indexOf(a.name as (typeof EMBEDDED_NAMES)[number]),
    config: a,
    secrets: a.secrets,
  }));
  return { targets, close: embedded.close };
}

function expectPointersOf(a: AgentConfig): Pick<Target, 'expectPointers'> {
  return a.expectPointers ? { expectPointers: a.expectPointers } : {};
}

function pick(targets: Target[], names: readonly string[]): Target[] {
  if (!names.length) return targets;
  const known = new Set(targets.map((t) => t.name));
  const unknown = names.filter((n) => !known.has(n));
  if (unknown.length)
    throw new UsageError(`--agent: no agent named ${unknown.map((n) => `'${n}'`).join(', ')} (agents: ${[...known].join(', ')})`);
  return targets.filter((t) => names.includes(t.name));
}

function unique(targets: readonly Target[]): void {
  const seen = new Set<string>();
  for (const t of targets) {
    if (seen.has(t.name)) throw new UsageError(`two agents are named '${t.name}': agent names must be unique`);
    seen.add(t.name);
  }
}
