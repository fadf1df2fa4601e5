// A forwarder for the storyboard proxy over the harness's own connect layer: one MCP session with the
// agent (our stdio transport or capped HTTP fetch, the CallTracker reading every raw answer), kept open
// for the whole storyboard run, and a raw `request(method, params)` on it with the agent's call timeout
// and byte cap. For an HTTP agent, a request carrying other credentials than the configured ones (a
// storyboard's unauthenticated or invalid-key probe) goes through a fresh session of its own with
// those credentials: initialize first (unlike the runner's own probe), and a 401/403 on either call is
// what the proxy relays.
import type { HttpObservation, TransportFailure } from '../record/exchange.ts';
import type { AgentConfig, HttpAgentConfig } from '../config/types.ts';
import { CallTracker } from '../connect/call-tracker.ts';
import { classify, failure } from '../connect/failure.ts';
import { openTransport, PermissiveResult, PinnedClient, type Session } from '../connect/session.ts';
import { isObject, own } from '../json.ts';
import type { ForwardAnswer, ForwardRequest, ProxyAuth } from './proxy.ts';
import { credentialHeaders } from '../capture/unauthenticated.ts';

/** How long, after a stdio call settles, stderr the server wrote for it may still be arriving. */
const STDERR_SETTLE_MS = 20;
const TOOL_PAGES = 50;

export interface ForwardingSession {
  /** The agent's initialize answer (for the proxy's own initialize). */
  handshake: { protocolVersion: string; capabilities?: unknown; serverInfo?: unknown };
  /** tools/list, all pages joined (raw). */
  tools: unknown[];
  forward(request: ForwardRequest): Promise<ForwardAnswer>;
  close(): Promise<void>;
}

/** Thrown when the agent cannot be reached at all (initialize failed): there is nothing to forward to. */
export class AgentUnreachable extends Error {
  constructor(
    readonly failure: TransportFailure,
    /** The HTTP response that refused initialize (status, WWW-Authenticate), when there was one. */
    readonly http?: HttpObservation,
  ) {
    super(failure.message);
    this.name = 'AgentUnreachable';
  }
}

/** One connected session: client + transport + tracker, and the initialize answer. */
interface Connected {
  session: Session;
  tracker: CallTracker;
  initialize: Record<string, unknown>;
}

async function connect(agent: AgentConfig): Promise<Connected> {
  const tracker = new CallTracker(agent.secrets);
  const client = new PinnedClient(agent.protocolVersion);
  client.onerror = () => {};
  const session: Session = { ...(await openTransport(agent, tracker)), client };
  const call = tracker.begin('initialize');
  const timer = setTimeout(
    () => tracker.fail(failure('timeout', `initialize: no answer within ${agent.timeouts.connectMs} ms`, []), call),
    agent.timeouts.connectMs,
  );
  try {
    await client.connect(session.transport, { signal: call.controller.signal, timeout: agent.timeouts.connectMs + 5000 });
  } catch (err) {
    const why = call.failure ?? classify(err, agent.secrets, 'connect');
    await session.close();
    throw new AgentUnreachable(why, call.http);
  } finally {
    clearTimeout(timer);
    tracker.end(call);
  }
  const raw = own(call.raw?.message, 'result');
  return { session, tracker, initialize: isObject(raw) ? raw : {} };
}

/** One raw request on a connected session: the answer as parsed off the wire, or why there is none. */
async function request(
  c: Connected,
  agent: AgentConfig,
  method: string,
  params: Record<string, unknown> | undefined,
  signal: AbortSignal,
  timeoutMs: number,
): Promise<ForwardAnswer> {
  const { tracker, session } = c;
  const name = own(params, 'name');
  const call = tracker.begin(method, method === 'tools/call' && typeof name === 'string' ? `tools/call ${name.slice(0, 128)}` : method);
  const stderrOf = session.stdio?.stderrWindow();
  const onAbort = () =>
    tracker.fail(
      failure('timeout', `${method}: ${String(signal.reason instanceof Error ? signal.reason.message : 'cancelled')}`, []),
      call,
    );
  signal.addEventListener('abort', onAbort, { once: true });
  const budget = Math.min(timeoutMs, agent.timeouts.callMs);
  const timer = setTimeout(() => tracker.fail(failure('timeout', `${method}: no answer within ${budget} ms`, []), call), budget);
  let error: unknown;
  try {
    await session.client.request({ method, params } as Parameters<PinnedClient['request']>[0], PermissiveResult, {
      signal: call.controller.signal,
      timeout: budget + 5000, // backstop; our timer fires first
    });
  } catch (err) {
    error = err;
  } finally {
    clearTimeout(timer);
    signal.removeEventListener('abort', onAbort);
    tracker.end(call);
  }
  if (stderrOf) await new Promise((r) => setTimeout(r, STDERR_SETTLE_MS));
  const stderrDuring = stderrOf?.();
  const extra = { ...(call.http ? { http: call.http } : {}), ...(stderrDuring !== undefined ? { stderrDuring } : {}) };
  const raw = call.raw;
  if (raw) return { kind: 'answer', message: raw.message, ...(raw.bytes !== undefined ? { bytes: raw.bytes } : {}), ...extra };
  return { kind: 'failure', failure: call.failure ?? classify(error ?? new Error(`${method}: no answer`), agent.secrets), ...extra };
}

/** The agent's config with other credentials: none at all, or the runner's own `Authorization` value. */
function withAuth(agent: HttpAgentConfig, auth: Exclude<ProxyAuth, { kind: 'configured' }>): HttpAgentConfig {
  const drop = new Set(credentialHeaders(agent).map((h) => h.toLowerCase()));
  const headers = Object.fromEntries(Object.entries(agent.headers).filter(([name]) => !drop.has(name.toLowerCase())));
  if (auth.kind === 'override') headers['authorization'] = auth.authorization;
  return { ...agent, headers };
}

/** An HTTP 4xx/5xx on initialize of a one-shot session, as the failure the proxy relays (status + WWW-Authenticate). */
function relayable(err: AgentUnreachable): ForwardAnswer {
  return { kind: 'failure', failure: err.failure, ...(err.http ? { http: err.http } : {}) };
}

/** Open the forwarding session (initialize + tools/list). Throws AgentUnreachable when initialize fails. */
export async function openForwardingSession(agent: AgentConfig): Promise<ForwardingSession> {
  const main = await connect(agent);
  const tools: unknown[] = [];
  let cursor: string | undefined;
  for (let page = 0; page < TOOL_PAGES; page++) {
    const listed = await request(
      main,
      agent,
      'tools/list',
      cursor === undefined ? {} : { cursor },
      new AbortController().signal,
      agent.timeouts.connectMs,
    );
    if (listed.kind !== 'answer') break;
    const list = own(own(listed.message, 'result'), 'tools');
    if (Array.isArray(list)) tools.push(...list);
    const next = own(own(listed.message, 'result'), 'nextCursor');
    if (typeof next !== 'string' || next === '') break;
    cursor = next;
  }
  const protocolVersion = own(main.initialize, 'protocolVersion');
  // One call at a time on the main session (the tracker follows one pending call).
  let chain: Promise<unknown> = Promise.resolve();
  const serial = <T>(work: () => Promise<T>): Promise<T> => {
    const next = chain.then(work, work);
    chain = next.catch(() => undefined);
    return next;
  };

  return {
    handshake: {
      protocolVersion: typeof protocolVersion === 'string' ? protocolVersion : '',
      capabilities: own(main.initialize, 'capabilities'),
      serverInfo: own(main.initialize, 'serverInfo'),
    },
    tools,
    forward: async ({ method, params, auth, signal, timeoutMs }) => {
      if (auth.kind === 'configured' || agent.transport === 'stdio') {
        return serial(() => request(main, agent, method, params, signal, timeoutMs));
      }
      // Other credentials: a one-shot session that carries exactly them.
      let once: Connected;
      try {
        once = await connect(withAuth(agent, auth));
      } catch (err) {
        if (err instanceof AgentUnreachable) return relayable(err);
        return { kind: 'failure', failure: classify(err, agent.secrets) };
      }
      try {
        return await request(once, agent, method, params, signal, timeoutMs);
      } finally {
        await once.session.close();
      }
    },
    close: () => main.session.close(),
  };
}
