// `adcp-conformance probe TOOL`: one call to one tool of one agent, shown whole — the request, the
// seller's raw answer (pretty, bounded, redacted, every unsafe character escaped), the AdCP payload a
// client extracts from it, and every check's verdict on that call with its fix hint. The dev loop's
// smallest step: no config needed (--url / --stdio), `--watch` re-probes on change, `--verbose` shows
// the wire. Exit codes as `run`: 0 conformant · 1 a failure · 2 usage or config error · 3 incomplete.
import { readFile } from 'node:fs/promises';
import { userCacheDir } from '../cache-dir.ts';
import type { AgentConfig, Probe } from '../config/types.ts';
import {
  ADHOC_USAGE,
  adhocAgent,
  DEV_OPTIONS,
  devOptionsOf,
  loadProbeOnce,
  loadWatch,
  normalizeWatchArg,
  WATCH_USAGE,
} from '../run/dev/index.ts';
import { parseCommandArgs, UsageError } from '../run/usage-error.ts';
import { runCommand } from './command.ts';

export const PROBE_USAGE = `usage: adcp-conformance probe TOOL [--args JSON|@FILE] [agent] [options]

Calls one tool once and shows the request, the seller's raw answer, the AdCP payload a client extracts
from it, and every check's verdict on that call with how to fix a failure. get_adcp_capabilities is
asked first when the agent lists it (it tells the AdCP version the call is judged at); only the probed
call is shown and judged.

agent (one of):
  --config FILE --agent NAME   an agent of a config file (--agent may be left out when it has one agent)
${ADHOC_USAGE}
  (none)                       the embedded reference seller over stdio (--agent reference-http: over HTTP)

options:
  --args JSON|@FILE      the tool's arguments, a JSON object (default: the harness's own valid probe for the
                         AdCP tasks it knows, {} otherwise); @FILE reads them from a file
  --invalid              the call is the deliberately invalid probe (error-path checks apply); without
                         --args, get_products gets the harness's invalid arguments
  --strict               SHOULD failures (warnings) fail too
  --schemas DIR|URL      AdCP JSON schemas to validate against (default: those inside @adcp/sdk)
${WATCH_USAGE}
  -h, --help             this text

exit codes: 0 conformant · 1 a conformance failure · 2 usage or config error · 3 incomplete`;

interface ProbeOptions {
  tool: string;
  args?: Record<string, unknown>;
  invalid: boolean;
  config?: string;
  agentName?: string;
  adhoc?: AgentConfig;
  strict: boolean;
  schemas?: string;
  watch?: string;
  verbose: boolean;
}

export function main(argv: string[]): Promise<number> {
  return runCommand({ name: 'probe', usage: PROBE_USAGE, parse: parseProbeArgs, run: probeCommand }, argv);
}

async function parseProbeArgs(argv: string[]): Promise<ProbeOptions | 'help'> {
  let parsed;
  try {
    parsed = parseCommandArgs({
      args: normalizeWatchArg(argv),
      strict: true,
      allowPositionals: true,
      options: {
        args: { type: 'string' },
        invalid: { type: 'boolean' },
        config: { type: 'string' },
        agent: { type: 'string' },
        ...DEV_OPTIONS,
        strict: { type: 'boolean' },
        schemas: { type: 'string' },
        help: { type: 'boolean', short: 'h' },
      },
    });
  } catch (err) {
    // parseCommandArgs words its own errors (one line, with a did-you-mean).
    throw err instanceof UsageError ? err : new UsageError(err instanceof Error ? err.message : String(err));
  }
  const { values, positionals } = parsed;
  if (values.help) return 'help';
  if (positionals.length !== 1)
    throw new UsageError(
      positionals.length ? `one tool at a time (got ${positionals.length}: ${positionals.join(' ')})` : 'which tool? (probe TOOL)',
    );
  const tool = positionals[0]!;
  const dev = devOptionsOf(values);
  const adhoc = dev.adhoc ? adhocAgent(dev.adhoc) : undefined;
  if (adhoc && (values.config !== undefined || values.agent !== undefined))
    throw new UsageError('--url / --stdio name the agent: no --config or --agent with them');
  if (values.config === undefined && values.agent !== undefined && !['reference-stdio', 'reference-http'].includes(values.agent)) {
    throw new UsageError(`--agent ${values.agent}: without --config the agents are reference-stdio and reference-http`);
  }
  const opts: ProbeOptions = { tool, invalid: values.invalid === true, strict: values.strict === true, verbose: dev.verbose === true };
  if (values.args !== undefined) opts.args = await probeArguments(values.args);
  if (values.config !== undefined) opts.config = values.config;
  if (values.agent !== undefined) opts.agentName = values.agent;
  if (adhoc) opts.adhoc = adhoc;
  if (values.schemas !== undefined) opts.schemas = values.schemas;
  if (dev.watch !== undefined) opts.watch = dev.watch;
  return opts;
}

/** `--args`: inline JSON, or `@FILE`; a JSON object either way. */
async function probeArguments(text: string): Promise<Record<string, unknown>> {
  let source = text;
  let where = '--args';
  if (text.startsWith('@')) {
    where = `--args ${text}`;
    try {
      source = await readFile(text.slice(1), 'utf8');
    } catch (err) {
      throw new UsageError(`${where}: cannot read the file (${(err as NodeJS.ErrnoException).code ?? String(err)})`);
    }
  }
  let value: unknown;
  try {
    value = JSON.parse(source);
  } catch (err) {
    throw new UsageError(`${where}: not JSON (${err instanceof Error ? err.message : String(err)})`);
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value))
    throw new UsageError(`${where}: the arguments must be a JSON object`);
  return value as Record<string, unknown>;
}

/** The agent to probe and how to stop it (the embedded HTTP seller is ours to start and stop). */
async function resolveAgent(opts: ProbeOptions): Promise<{ agent: AgentConfig; close(): Promise<void> }> {
  if (opts.adhoc) return { agent: opts.adhoc, close: async () => {} };
  if (opts.config !== undefined) {
    const { loadConfig } = await import('../config/index.ts');
    const { agents } = await loadConfig(opts.config);
    const names = agents.map((a) => a.name);
    const agent =
      opts.agentName === undefined ? (agents.length === 1 ? agents[0] : undefined) : agents.find((a) => a.name === opts.agentName);
    if (!agent) {
      const which =
        opts.agentName === undefined
          ? `the config has ${agents.length} agents: name one with --agent`
          : `no agent named '${opts.agentName}'`;
      throw new UsageError(`${which} (agents: ${names.join(', ')})`);
    }
    return { agent, close: async () => {} };
  }
  const { startEmbeddedAgents } = await import('../run/targets.ts');
  const name = opts.agentName ?? 'reference-stdio';
  const embedded = await startEmbeddedAgents((n) => n === name);
  return { agent: embedded.agents[0]!, close: embedded.close };
}

async function probeCommand(opts: ProbeOptions, signal: AbortSignal): Promise<number> {
  const { agent, close } = await resolveAgent(opts);
  // A stdio seller starts now, before our own modules load: its start-up overlaps ours (stdio-spawn.ts).
  if (agent.transport === 'stdio') (await import('../connect/stdio-spawn.ts')).spawnEarly(agent);
  const { parseSchemasOption } = await import('../schemas/source.ts');
  let schemaSource;
  try {
    schemaSource = parseSchemasOption(opts.schemas, userCacheDir('schemas'));
  } catch (err) {
    const message = err instanceof Error ? err.message : String(err);
    throw new UsageError(message.startsWith('--schemas') ? message : `--schemas: ${message}`);
  }
  // The judge worker warms up first, so it loads while the capture's own modules load (warm-schemas.ts).
  const { warmJudge } = await import('../run/judge/index.ts');
  const warm = () => warmJudge(schemaSource, agent, ['get_adcp_capabilities', opts.tool], signal);
  let warming: Promise<void> | undefined = warm();
  const { probeOnce } = await loadProbeOnce();
  const probe: Probe = { tool: opts.tool, arguments: opts.args ?? {}, intent: opts.invalid ? 'invalid' : 'valid' };
  const run = {
    agent,
    probe,
    defaultArgs: opts.args === undefined,
    strict: opts.strict,
    schemaSource,
    verbose: opts.verbose,
    signal,
    // Each probe takes a warmed-up judge worker: this first one, then one warmed again (a warm worker
    // stays in the sandbox's pool between --watch runs, so warming again costs little).
    warming: () => (warming ??= warm()).finally(() => (warming = undefined)),
  };
  try {
    if (opts.watch === undefined) {
      const shown = await probeOnce(run);
      // A tool the agent does not list: a usage error, told on stderr (exit 2).
      if (shown.usage !== undefined) process.stderr.write(shown.usage);
      else process.stdout.write(shown.text);
      return shown.code;
    }
    const { watchLoop, watchSetup } = await loadWatch();
    return await watchLoop({
      setup: watchSetup(opts.watch, [agent], []),
      signal,
      say: (line) => process.stdout.write(`${line}\n`),
      run: async () => {
        const shown = await probeOnce(run);
        process.stdout.write(shown.text);
        return shown.snapshot;
      },
    });
  } finally {
    await close();
  }
}
