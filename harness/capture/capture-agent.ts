// One agent, start to finish: connect, initialize (pinned revision), tools/list (all pages, raw), every
// probe as a raw tools/call, close. Never throws and never runs past `timeouts.agentMs`: whatever goes
// wrong becomes a TransportFailure in the capture.
import { createHash } from 'node:crypto';
import type { AgentConfig, Probe } from '../config/types.ts';
import { CallTracker, type PendingCall } from '../connect/call-tracker.ts';
import { classify, failure } from '../connect/failure.ts';
import { openTransport, PermissiveResult, PinnedClient, type Session } from '../connect/session.ts';
import type { HarnessStdioTransport } from '../connect/stdio-transport.ts';
import type { AgentCapture, Exchange, ExchangeOutcome, ExchangeScenario, ScenarioRecord, TransportFailure } from '../record/exchange.ts';
import { holdAsText, noteAnswerText, noteToolPages, releaseHeldAnswers, type ToolPage } from '../record/answer-text.ts';
import { answerDigest } from '../extract/answer-facts.ts';
import { collectGarbage } from '../gc.ts';
import { advertisedOf } from '../record/advertised.ts';
import { correlationId, defaultProbes, withAccount, withContext } from './probes.ts';
import { runScenarios } from './scenarios.ts';
import { AUTH_SCENARIOS, unauthenticatedScenario } from './unauthenticated.ts';
import { redactDeep, usableSecrets } from '../config/redact.ts';
import { agentFacts } from './agent-facts.ts';
import { own } from '../json.ts';
import { stderrGist } from './down-reason.ts';
import { extractSuccess } from '../extract/success.ts';
import { chooseAdcpPin, type AdcpPin } from '../schemas/version.ts';
import { AgentReceiver, unbound, type WebhookOptions } from '../webhooks/agent-receiver.ts';
import { verifyCapturedWebhooks } from '../webhooks/verify.ts';
import { sellerNow, sellerTimeout, type SellerTimer } from '../connect/seller-clock.ts';

export interface CaptureOptions {
  signal?: AbortSignal;
  onProgress?: (e: { agent: string; step: string }) => void;
  /** Run the business-rule scenarios after the probes (default true; the unauthenticated session runs none). */
  scenarios?: boolean;
  /** `--verbose`: every JSON-RPC message of the session (see CallTracker.onWire). */
  onWire?: CallTracker['onWire'];
  /**
   * The probes to make, chosen from the listed tools, when the config names none (default: defaultProbes).
   * `listed` is false when tools/list failed (`tools` is then empty, not the agent's tools).
   */
  probes?: (tools: ReadonlyArray<{ name: string }>, listed: boolean) => Probe[];
  /**
   * The AdCP handshake (default true): `get_adcp_capabilities` is called first whenever the agent lists it,
   * whatever the probes are, unless they already start with it — its answer decides the AdCP release
   * pinned on every later call and is what the capabilities versions check judges. False only for sessions that
   * repeat given calls exactly (the unauthenticated scenarios).
   */
  handshake?: boolean;
  /**
   * Full versions of the AdCP schema trees the harness has (`['3.1.19', '3.0.26', …]`, the schema source's
   * `versions()`): the pin is the newest release of the seller's `supported_versions` among them. Absent:
   * only the config's `adcpVersion` pins.
   */
  adcpReleases?: readonly string[];
  /**
   * Told while a request waits on the agent: first after firstWaitingMs (5 s), then every WAITING_EVERY_MS
   * until it settles or its budget runs out (a person watching knows what is slow, in a bounded number of lines).
   */
  onWaiting?: (e: WaitingNotice) => void;
  /**
   * The webhook receiver of a sandbox agent (harness/webhooks): its options, or false for none (sessions that
   * repeat given calls). Default: a receiver of its own on loopback.
   */
  webhooks?: WebhookOptions | false;
}

/** A request still waiting on its agent. `call` is `initialize`, `tools/list` or `tools/call NAME` (NAME is the seller's). */
export interface WaitingNotice {
  agent: string;
  call: string;
  waitedMs: number;
  budgetMs: number;
  /** The request settled (answered, failed or timed out) after at least one notice: a live line may go. */
  settled?: true;
}

export const WAITING_FIRST_MS = 5_000;
export const WAITING_EVERY_MS = 10_000;

/**
 * When the first waiting notice of a request with this budget is due: WAITING_FIRST_MS, or for a budget no
 * longer than that (`--timeout 4`) half of it in whole seconds, at least 1 s, so a short timeout still says
 * what it waits on before it fires. A budget of 1 s or less gets none (the timeout comes first).
 */
export function firstWaitingMs(budgetMs: number): number {
  return budgetMs > WAITING_FIRST_MS ? WAITING_FIRST_MS : Math.max(1000, Math.floor(budgetMs / 2000) * 1000);
}

/** tools/list pages followed; a seller still sending a nextCursor past it is flagged (endless pagination). */
export const MAX_TOOL_PAGES = 50;
export const MAX_TOOLS = 2000;
/** How long, after a stdio call settles, stderr the server wrote for it may still be arriving on its pipe. */
export const STDERR_SETTLE_MS = 20;
/**
 * How long a stdio server that failed initialize gets to exit, so its exit code and last words are known. Only
 * a server whose pipe already broke waits, and it is exiting: on a loaded machine its exit event can take
 * longer than half a second to reach us (a hostile-battery run saw EPIPE reported without the exit).
 */
const START_EXIT_WAIT_MS = 2_000;
/** Lines of a start-up failure's stderr quoted in the initialize failure message when none names an error. */
const STDERR_QUOTE_LINES = 3;

/** The discovery task: always sent unpinned (its answer tells which releases the seller serves). */
const CAPABILITIES = 'get_adcp_capabilities';
const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, Math.max(0, ms)).unref());
const exitWords = (exit: { code: number | null; signal: string | null }): string =>
  exit.signal ? `signal ${exit.signal}` : `code ${exit.code}`;
const shortName = (v: unknown): string => {
  const text = typeof v === 'string' ? v : String(v);
  return JSON.stringify(text.length > 60 ? `${text.slice(0, 60)}…` : text);
};

export async function captureAgent(agent: AgentConfig, opts: CaptureOptions = {}): Promise<AgentCapture> {
  const run = new AgentRun(agent, opts);
  try {
    return await run.capture();
  } catch (err) {
    // Last line of defence: a bug here must still yield a capture, not a crash of the whole run.
    await run.closeWebhooks().catch(() => undefined);
    return run.snapshot(classify(err, agent.secrets));
  }
}

export { agentFacts } from './agent-facts.ts';

class AgentRun {
  private readonly tracker: CallTracker;
  private readonly secrets: readonly string[];
  private readonly state: AgentCapture;
  private session?: Session;
  private stopped?: TransportFailure;
  private deadline = 0;
  private negotiated?: string;
  private tools: unknown[] = [];
  /** The AdCP release pinned on calls after get_adcp_capabilities (decided at the first such call). */
  private pin?: AdcpPin;
  /** The webhook receiver (sandbox agents): every push-taking call names it. */
  private webhooks?: AgentReceiver;

  constructor(
    private readonly agent: AgentConfig,
    private readonly opts: CaptureOptions,
  ) {
    this.secrets = agent.secrets;
    this.tracker = new CallTracker(agent.secrets);
    if (opts.onWire) this.tracker.onWire = opts.onWire;
    this.state = {
      agent: agentFacts(agent),
      initialize: { ok: false, failure: failure('connect', 'not attempted', []) },
      exchanges: [],
    };
  }

  private progress(step: string): void {
    try {
      this.opts.onProgress?.({ agent: this.agent.name, step });
    } catch {
      /* a listener's bug is not the agent's failure */
    }
  }

  async capture(): Promise<AgentCapture> {
    const { agentMs } = this.agent.timeouts;
    const closeReserve = Math.min(2500, Math.floor(agentMs / 4));
    const runBudget = agentMs - closeReserve;
    // Deadlines are on the seller's clock: a stall of the harness's own event loop does not use them up.
    const start = sellerNow();
    this.deadline = start + runBudget;

    let watchdog: SellerTimer | undefined;
    let onAbort: (() => void) | undefined;
    const signal = this.opts.signal;
    const cut = new Promise<TransportFailure>((resolve) => {
      watchdog = sellerTimeout(runBudget, () =>
        resolve(failure('timeout', `agent timeout: the agent did not finish within ${agentMs} ms`, [])),
      );
      if (signal?.aborted) resolve(failure('timeout', 'the run was cancelled before this agent started', []));
      onAbort = () => resolve(failure('timeout', 'the run was cancelled', []));
      signal?.addEventListener('abort', onAbort, { once: true });
    });
    const work = this.execute().catch((err: unknown) => {
      this.state.aborted ??= classify(err, this.secrets);
    });
    const outcome = await Promise.race([work.then(() => undefined), cut]);
    watchdog?.cancel();
    if (onAbort) signal?.removeEventListener('abort', onAbort);
    if (outcome) {
      this.stopped = outcome;
      this.state.aborted ??= outcome;
      for (const call of this.tracker.pending()) this.tracker.fail(outcome, call);
      await Promise.race([work, sleep(Math.min(250, closeReserve / 2))]); // let the in-flight call record itself
    }
    this.progress('close');
    // Whatever is left of agentMs (the wait for the in-flight call above came out of the reserve).
    await Promise.race([this.session?.close(), sleep(start + agentMs - sellerNow())]);
    await this.closeWebhooks();
    const capture = this.snapshot();
    // The held answers' parsed copies are garbage now: collected once, before the judge worker parses its own.
    if (releaseHeldAnswers()) collectGarbage();
    return capture;
  }

  /**
   * Stop the webhook receiver and keep what it saw (capture.webhooks), each delivery's signature verified
   * now, live (the signature's time window is judged against the clock it arrived by; checks are synchronous).
   */
  async closeWebhooks(): Promise<void> {
    if (!this.webhooks) return;
    this.state.webhooks = await this.webhooks.close();
    // Keys the seller publishes are found from its URL (its brand.json `agents[]` entry is byte-equal to it).
    await verifyCapturedWebhooks(this.state, this.agent.transport === 'http' ? { agentUrl: this.agent.url } : {});
  }

  /** The capture as it stands: a copy (later mutation cannot leak in), secrets redacted. */
  snapshot(aborted?: TransportFailure): AgentCapture {
    const s = this.state;
    const stdio = this.session?.stdio;
    const http = this.session?.http;
    const out: AgentCapture = {
      agent: s.agent,
      initialize: s.initialize,
      ...(s.toolsList ? { toolsList: s.toolsList } : {}),
      ...(stdio
        ? {
            stdio: {
              spawned: stdio.spawned,
              stdoutJunk: [...stdio.stdoutJunk],
              stderrTail: stdio.stderr,
              ...(stdio.exit ? { exit: { ...stdio.exit } } : {}),
              ...(stdio.killedBecause !== undefined ? { killedBecause: stdio.killedBecause } : {}),
            },
          }
        : {}),
      ...(http ? { http: this.httpFacts(http) } : {}),
      exchanges: [...s.exchanges],
      protocolViolations: this.tracker.violations.map((v) => ({ ...v })),
      ...(this.tracker.violationsOmitted > 0 ? { protocolViolationsOmitted: this.tracker.violationsOmitted } : {}),
      ...(s.aborted || aborted ? { aborted: (s.aborted ?? aborted)! } : {}),
      ...(s.scenarios ? { scenarios: s.scenarios.map((r) => ({ ...r })) } : {}),
      ...(this.pin ? { adcpPin: { release: this.pin.release ?? null, reason: this.pin.reason } } : {}),
      ...(s.webhooks ? { webhooks: s.webhooks } : {}),
    };
    return usableSecrets(this.secrets).length ? (redactDeep(out, this.secrets) as AgentCapture) : out;
  }

  private httpFacts(http: NonNullable<Session['http']>): NonNullable<AgentCapture['http']> {
    const observations = http.observations.map((o) => ({ ...o }));
    const assigned = observations.find((o) => o.method === 'initialize' && o.sessionId !== undefined)?.sessionId;
    return { observations, ...(assigned !== undefined ? { sessionId: assigned } : {}) };
  }

  private remaining(): number {
    return this.deadline - sellerNow();
  }

  private async execute(): Promise<void> {
    if (!(await this.initialize())) return;
    try {
      this.webhooks = await AgentReceiver.open(this.agent, this.opts.webhooks);
    } catch (err) {
      this.state.webhooks = unbound(err);
    }
    await this.listTools();
    const chosen =
      this.agent.probes ??
      this.opts.probes?.(this.namedTools(), this.state.toolsList?.ok === true) ??
      defaultProbes(this.namedTools(), this.agent);
    const handshake = this.needsHandshake(chosen);
    const probes: Probe[] = handshake ? [{ tool: CAPABILITIES, arguments: {}, intent: 'valid' }, ...chosen] : chosen;
    for (const [index, probe] of probes.entries()) {
      if (this.blocked(`${probes.length - index} probe(s) not run`)) break;
      this.progress(`call ${probe.tool}`);
      const x = await this.callTool(probe, index);
      this.state.exchanges.push(handshake && index === 0 ? { ...x, handshake: true } : x);
    }
    if (this.opts.scenarios !== false) await this.scenarios();
    if (!this.stopped) await this.webhooks?.settle(this.state.exchanges, this.remaining());
  }

  /** Whether the AdCP handshake goes before these probes: the agent lists it and they do not start with it. */
  private needsHandshake(probes: readonly Probe[]): boolean {
    if (this.opts.handshake === false || !this.namedTools().some((t) => t.name === CAPABILITIES)) return false;
    const first = probes[0];
    return !(first && first.tool === CAPABILITIES && first.intent !== 'invalid');
  }

  /**
   * Whether no further call can be made: the run stopped, the stdio server is gone, or the agent's time is
   * up (the last two are recorded as the session's abort, saying what was not run).
   */
  private blocked(notRun: string): boolean {
    if (this.stopped) return true;
    const stdio = this.session?.stdio;
    if (stdio?.exit || stdio?.killedBecause) {
      const why =
        stdio.killedBecause !== undefined
          ? `the harness killed the server: ${stdio.killedBecause}`
          : `the server process exited (${exitWords(stdio.exit!)})`;
      this.state.aborted ??= failure('closed', `${why}; ${notRun}`, this.secrets);
      return true;
    }
    if (this.remaining() <= 0) {
      this.state.aborted ??= failure('timeout', `agent timeout: ${notRun}`, this.secrets);
      return true;
    }
    return false;
  }

  /** The business-rule scenarios (scenarios.ts), then the call without credentials; each leaves a record. */
  private async scenarios(): Promise<void> {
    const records: ScenarioRecord[] = [];
    this.state.scenarios = records;
    const listed = new Set(this.namedTools().map((t) => t.name));
    const host = {
      agent: this.agent,
      listed,
      exchanges: () => this.state.exchanges,
      call: async (
        tool: string,
        args: Record<string, unknown>,
        scenario: ExchangeScenario,
        opts?: { context?: false },
      ): Promise<Exchange | undefined> => {
        if (this.blocked(`scenario ${scenario.name} step ${scenario.step} not run`)) return undefined;
        this.progress(`${scenario.name}: call ${tool} (${scenario.step})`);
        const x = {
          ...(await this.callTool({ tool, arguments: args, intent: 'valid' }, this.state.exchanges.length, opts?.context === false)),
          scenario: { ...scenario },
        };
        this.state.exchanges.push(x);
        return x;
      },
      together: async (calls: ReadonlyArray<{ tool: string; args: Record<string, unknown>; scenario: ExchangeScenario }>) => {
        const first = calls[0]?.scenario;
        if (!first || this.blocked(`scenario ${first.name} steps ${calls.map((c) => c.scenario.step).join(', ')} not run`))
          return calls.map(() => undefined);
        this.progress(`${first.name}: ${calls.length} calls at once (${calls.map((c) => c.tool).join(', ')})`);
        const base = this.state.exchanges.length;
        // Every request is on the wire before any answer is awaited (callTool sends synchronously up to its
        // first await); the record keeps the order given, whatever order the answers came in.
        const made = await Promise.all(calls.map((c, i) => this.callTool({ tool: c.tool, arguments: c.args, intent: 'valid' }, base + i)));
        const out = made.map((x, i) => ({ ...x, scenario: { ...calls[i]!.scenario } }));
        this.state.exchanges.push(...out);
        return out;
      },
    };
    const ended = (): boolean => this.stopped !== undefined || this.state.aborted !== undefined;
    await runScenarios(host, ended, (r) => records.push(r));
    if (ended()) {
      for (const name of AUTH_SCENARIOS) records.push({ name, status: 'untested', reason: 'the session ended before this scenario ran' });
      return;
    }
    const sub = (bare: AgentConfig) =>
      captureAgent(bare, {
        scenarios: false,
        webhooks: false, // their calls repeat ours, push_notification_config included: our receiver hears them
        handshake: false, // these sessions repeat exactly the calls given (their first exchange is the call judged)
        ...(this.opts.signal ? { signal: this.opts.signal } : {}),
        ...(this.opts.onWaiting ? { onWaiting: this.opts.onWaiting } : {}),
        onProgress: (e) => this.progress(`unauthenticated: ${e.step}`),
      });
    const auth = await unauthenticatedScenario(this.agent, this.state.exchanges, sub, this.remaining(), () =>
      this.progress('unauthenticated: a session without the real credentials'),
    );
    this.state.exchanges.push(...auth.exchanges);
    records.push(...auth.records);
  }

  /** Spawn/connect + initialize, retried once (HTTP) on a connection error. */
  private async initialize(): Promise<boolean> {
    const connectDeadline = sellerNow() + this.agent.timeouts.connectMs;
    for (let attempt = 1; ; attempt++) {
      this.progress(attempt === 1 ? 'connect' : 'connect (retry)');
      const client = new PinnedClient(this.agent.protocolVersion);
      this.tracker.newSession();
      const session: Session = { ...(await openTransport(this.agent, this.tracker)), client };
      this.session = session;
      client.onerror = () => {}; // every failure that matters is recorded per call
      const budget = Math.min(connectDeadline - sellerNow(), this.remaining());
      const call = this.tracker.begin('initialize');
      const timer = sellerTimeout(Math.max(0, budget), () => {
        const within = `within ${this.agent.timeouts.connectMs} ms`;
        if (!call.raw) return this.tracker.fail(failure('timeout', `initialize: no answer ${within}`, []), call);
        // Answered, but connect() still waits on the notifications/initialized POST: cut that too.
        call.failure ??= failure('timeout', `initialize answered, but the notifications/initialized POST got no answer ${within}`, []);
        call.wire.abort(new Error(call.failure.message));
      });
      const t0 = performance.now();
      const stopWaiting = this.waiting('initialize', budget);
      let error: unknown;
      let ok = false;
      try {
        await client.connect(session.transport, { signal: call.controller.signal, timeout: Math.max(1, budget) + 5000 });
        ok = true;
      } catch (err) {
        error = err;
      } finally {
        timer.cancel();
        stopWaiting();
        this.tracker.end(call);
      }
      const durationMs = Math.round(performance.now() - t0);
      if (ok) {
        const raw = own(call.raw?.message, 'result');
        const protocolVersion = own(raw, 'protocolVersion') ?? client.getServerVersion()?.version;
        this.negotiated = typeof protocolVersion === 'string' ? protocolVersion : undefined;
        this.state.initialize = {
          ok: true,
          protocolVersion: raw !== undefined ? own(raw, 'protocolVersion') : protocolVersion,
          serverInfo: raw !== undefined ? own(raw, 'serverInfo') : client.getServerVersion(),
          ...(own(raw, 'capabilities') !== undefined ? { capabilities: own(raw, 'capabilities') } : {}),
          durationMs,
        };
        return true;
      }
      let why = call.failure ?? classify(error, this.secrets, 'connect');
      if (session.stdio) why = await this.stdioStartFailure(session.stdio, why);
      const retry =
        attempt === 1 &&
        this.agent.transport === 'http' &&
        (why.kind === 'connect' || why.kind === 'network' || why.kind === 'closed') &&
        connectDeadline - sellerNow() > 500 &&
        !this.stopped;
      await session.close();
      if (!retry) {
        this.state.initialize = { ok: false, failure: why };
        return false;
      }
      await sleep(200);
    }
  }

  /**
   * A stdio server that failed initialize: wait briefly for it to exit, then say how it ended and quote
   * its stderr (already redacted) — a seller dying with `FATAL: … is not set` shows that line.
   */
  private async stdioStartFailure(stdio: HarnessStdioTransport, why: TransportFailure): Promise<TransportFailure> {
    if (!stdio.spawned) return why; // the spawn error already says what is wrong with the command
    if (!stdio.exit && why.kind !== 'timeout') await stdio.waitExit(Math.min(START_EXIT_WAIT_MS, Math.max(0, this.remaining())));
    // The exit and the closing of the stderr pipe are separate events: let the last bytes land.
    if (stdio.exit) await sleep(STDERR_SETTLE_MS);
    // A crash's own `Error: …` line, not the head of its stack (only the source line that threw).
    const said = stderrGist(stdio.stderr, STDERR_QUOTE_LINES);
    // An I/O failure (EPIPE, closed …) was the exit seen from our side: say it as the exit. A protocol or
    // timeout failure says more than the exit that may have followed it, and is kept.
    const exit = stdio.exit;
    const died = exit !== undefined && (why.kind === 'closed' || why.kind === 'network' || why.kind === 'connect');
    const base = died ? `the server process exited (${exitWords(exit)}) before answering initialize` : why.message;
    const { kind: _kind, message: _message, ...extra } = why;
    return failure(died ? 'closed' : why.kind, said ? `${base}; stderr: ${said}` : base, this.secrets, extra);
  }

  /** tools/list, following nextCursor (bounded), keeping the raw tool objects. */
  private async listTools(): Promise<void> {
    this.progress('tools/list');
    const connectBudget = this.agent.timeouts.connectMs;
    // Cursors seen, by digest (a seller's cursor can be megabytes long).
    const seen = new Set<string>();
    let cursor: string | undefined;
    let pages = 0;
    const tools: unknown[] = [];
    /** Each page's result and how many of its tools were kept (the judge's handover rebuilds the list from them). */
    const kept: ToolPage[] = [];
    while (!this.stopped) {
      const params = cursor === undefined ? {} : { cursor };
      let page = await this.request('tools/list', params, Math.min(connectBudget, this.remaining()));
      if (
        page.kind === 'transport-error' &&
        this.agent.transport === 'http' &&
        ['network', 'closed', 'connect'].includes(page.failure.kind)
      ) {
        page = await this.request('tools/list', params, Math.min(connectBudget, this.remaining())); // idempotent: once more
      }
      pages++;
      if (page.kind === 'transport-error') {
        this.state.toolsList = { ok: false, failure: page.failure };
        return;
      }
      if (page.kind === 'jsonrpc-error') {
        const message = own(page.error, 'message');
        this.state.toolsList = {
          ok: false,
          failure: failure(
            'protocol',
            `tools/list answered with a JSON-RPC error: ${own(page.error, 'code')} ${typeof message === 'string' ? message : ''}`,
            this.secrets,
          ),
        };
        return;
      }
      const list = own(page.result, 'tools');
      if (!Array.isArray(list)) {
        this.state.toolsList = { ok: false, failure: failure('protocol', 'tools/list result has no `tools` array', this.secrets) };
        return;
      }
      const before = tools.length;
      for (const t of list) if (tools.length < MAX_TOOLS) tools.push(t);
      kept.push({ result: page.result, count: tools.length - before });
      const next = own(page.result, 'nextCursor');
      if (typeof next !== 'string' || next === '') break;
      const digest = createHash('sha256').update(next).digest('hex');
      if (seen.has(digest)) {
        const what = `tools/list page ${pages} repeated the nextCursor ${shortName(next)} of an earlier page (a loop)`;
        this.tracker.violation('endless-pagination', `${what}; stopped there`, 'tools/list');
        break;
      }
      if (pages >= MAX_TOOL_PAGES) {
        this.tracker.violation(
          'endless-pagination',
          `tools/list still gave a nextCursor after ${MAX_TOOL_PAGES} pages; stopped there`,
          'tools/list',
        );
        break;
      }
      seen.add(digest);
      cursor = next;
    }
    this.flagDuplicateNames(tools);
    noteToolPages(tools, kept);
    this.tools = tools;
    this.state.toolsList = { ok: true, tools, pages };
  }

  /** Two tools with one name: a client calling it cannot know which one answers. */
  private flagDuplicateNames(tools: readonly unknown[]): void {
    const count = new Map<string, number>();
    for (const t of tools) {
      const name = own(t, 'name');
      if (typeof name === 'string') count.set(name, (count.get(name) ?? 0) + 1);
    }
    for (const [name, n] of count) {
      if (n > 1) this.tracker.violation('duplicate-tool-name', `tools/list names ${n} tools ${shortName(name)}`, 'tools/list');
    }
  }

  private namedTools(): Array<{ name: string }> {
    return this.tools.flatMap((t) => {
      const name = own(t, 'name');
      return typeof name === 'string' ? [{ name }] : [];
    });
  }

  private advertised(tool: string): Exchange['advertised'] {
    const t = this.tools.find((x) => own(x, 'name') === tool);
    return t === undefined ? undefined : advertisedOf(t);
  }

  /** Tell onWaiting about a request still unanswered, on the WAITING_* schedule, within its budget; returns the stop. */
  private waiting(label: string, budgetMs: number): () => void {
    const notify = this.opts.onWaiting;
    if (!notify) return () => {};
    const t0 = performance.now();
    let timer: NodeJS.Timeout | undefined;
    let told = false;
    const tell = (settled: boolean, dueMs = 0): void => {
      try {
        // A timer may fire a fraction of a millisecond before its mark by performance.now(): never under it.
        const waitedMs = Math.max(dueMs, Math.round(performance.now() - t0));
        const e = { agent: this.agent.name, call: label, waitedMs, budgetMs: Math.round(budgetMs) };
        notify(settled ? { ...e, settled: true } : e);
      } catch {
        /* a listener's bug is not the agent's failure */
      }
    };
    const at = (dueMs: number): void => {
      if (dueMs >= budgetMs) return; // the timeout itself says the rest
      timer = setTimeout(
        () => {
          told = true;
          tell(false, dueMs);
          at(dueMs + WAITING_EVERY_MS);
        },
        Math.max(0, t0 + dueMs - performance.now()),
      );
      timer.unref();
    };
    at(firstWaitingMs(budgetMs));
    return () => {
      clearTimeout(timer);
      if (told) tell(true);
    };
  }

  /** One JSON-RPC request with its own timeout and abort signal; the outcome is read from the raw wire message. */
  private async request(
    method: 'tools/list' | 'tools/call',
    params: Record<string, unknown>,
    budgetMs: number,
  ): Promise<ExchangeOutcome & { call: PendingCall }> {
    const client = this.session?.client;
    const name = own(params, 'name');
    const call = this.tracker.begin(
      method,
      method === 'tools/call' && typeof name === 'string' ? `tools/call ${name.slice(0, 128)}` : method,
    );
    if (!client || budgetMs <= 0) {
      this.tracker.end(call);
      return { kind: 'transport-error', failure: failure('timeout', `agent timeout before ${method}`, []), call };
    }
    // A wait the agent's own deadline cut short is the agent timeout (its watchdog fires a moment later).
    const why =
      budgetMs >= this.remaining() - 1
        ? `agent timeout: the agent did not finish within ${this.agent.timeouts.agentMs} ms (${method} had no answer yet)`
        : `${method}: no answer within ${Math.round(budgetMs)} ms`;
    const timer = sellerTimeout(budgetMs, () => this.tracker.fail(failure('timeout', why, []), call));
    const stopWaiting = this.waiting(call.label, budgetMs);
    let value: unknown;
    let error: unknown;
    let settled = false;
    try {
      value = await client.request({ method, params } as Parameters<PinnedClient['request']>[0], PermissiveResult, {
        signal: call.controller.signal,
        timeout: budgetMs + 5000, // backstop; our own timer fires first
      });
      settled = true;
    } catch (err) {
      error = err;
    } finally {
      timer.cancel();
      stopWaiting();
      this.tracker.end(call);
    }
    const raw = call.raw?.message;
    if (raw) {
      const member = Object.hasOwn(raw, 'error') ? 'error' : 'result';
      const value = raw[member];
      // The judge is handed this text rather than the value serialized again (record/answer-text.ts).
      if (call.raw?.text !== undefined) noteAnswerText(value, call.raw.text, member);
      return member === 'error' ? { kind: 'jsonrpc-error', error: value, call } : { kind: 'result', result: value, call };
    }
    if (call.failure) return { kind: 'transport-error', failure: call.failure, call };
    if (!settled) return { kind: 'transport-error', failure: classify(error, this.secrets), call };
    return { kind: 'result', result: value, call };
  }

  /**
   * The pin, decided once, from the last get_adcp_capabilities answer so far (versioning.mdx, "Bidirectional
   * negotiation"): see chooseAdcpPin.
   */
  private adcpPin(): AdcpPin {
    if (this.pin) return this.pin;
    const caps = [...this.state.exchanges].reverse().find((x) => x.tool === CAPABILITIES && x.outcome.kind === 'result');
    const payload = caps?.outcome.kind === 'result' ? extractSuccess(caps.outcome.result) : undefined;
    this.pin = chooseAdcpPin(payload ?? undefined, this.opts.adcpReleases ?? [], this.agent.adcpVersion);
    return this.pin;
  }

  /** Arguments with the pin added, unless they set `adcp_version` or `adcp_major_version` themselves. */
  private pinned(tool: string, args: Record<string, unknown>): Record<string, unknown> {
    if (tool === CAPABILITIES || Object.hasOwn(args, 'adcp_version') || Object.hasOwn(args, 'adcp_major_version')) return args;
    const pin = this.adcpPin();
    if (pin.release === undefined || pin.major === undefined) return args;
    return { ...args, adcp_version: pin.release, adcp_major_version: pin.major };
  }

  /** `withoutContext`: sent as given, without the `context` object every other call carries (a scenario's own choice). */
  private async callTool(probe: Probe, index: number, withoutContext = false): Promise<Exchange> {
    const sent = this.pinned(
      probe.tool,
      withAccount(
        probe.tool,
        withoutContext ? { ...probe.arguments } : withContext(probe.arguments, correlationId(this.agent.name, index)),
        this.agent,
      ),
    );
    const args = this.webhooks ? this.webhooks.push.withPushConfig(probe.tool, sent, index) : sent;
    const request = { name: probe.tool, arguments: args };
    const startedAt = new Date().toISOString();
    const stdio = this.session?.stdio;
    const stderrOf = stdio?.stderrWindow();
    const t0 = performance.now();
    const { call, ...answer } = await this.request('tools/call', { ...request }, Math.min(this.agent.timeouts.callMs, this.remaining()));
    // A large answer is held as its text from here on, not as the value parsed (record/answer-text.ts).
    const outcome = holdAsText(answer as ExchangeOutcome, answerDigest);
    const durationMs = Math.round(performance.now() - t0);
    // stderr and stdout are separate pipes: what the server logged just before answering may land after the answer.
    if (stderrOf) await sleep(STDERR_SETTLE_MS);
    const stderrDuring = stderrOf?.();
    const advertised = this.advertised(probe.tool);
    return {
      agent: this.agent.name,
      tool: probe.tool,
      intent: probe.intent ?? 'valid',
      request,
      outcome,
      ...(this.negotiated !== undefined ? { protocolVersion: this.negotiated } : {}),
      ...(advertised !== undefined ? { advertised } : {}),
      ...(call.http ? { http: call.http } : {}),
      ...(call.raw?.bytes !== undefined ? { bytes: call.raw.bytes } : {}),
      startedAt,
      durationMs,
      ...(stderrDuring !== undefined ? { stderrDuring } : {}),
    };
  }
}
