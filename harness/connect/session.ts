// One MCP session with one agent: the official SDK `Client` over our stdio transport or the SDK's
// streamable-HTTP transport (with our capped fetch), both reporting every outgoing request and raw
// incoming message to the CallTracker.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { RequestOptions } from '@modelcontextprotocol/sdk/shared/protocol.js';
import type { Transport, TransportSendOptions } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { AnySchema, SchemaOutput } from '@modelcontextprotocol/sdk/server/zod-compat.js';
import type { JSONRPCMessage, Request } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import type { HttpObservation } from '../capture/exchange.ts';
import type { AgentConfig } from '../config/types.ts';
import type { CallTracker } from './call-tracker.ts';
import { createCappedFetch } from './http-fetch.ts';
import { HarnessStdioTransport, MAX_PENDING_STDIN_BYTES } from './stdio-transport.ts';

export const CLIENT_INFO = { name: 'adcp-conformance', version: '0.1.0' } as const;
export const MAX_HTTP_OBSERVATIONS = 500;

/**
 * The result schema for every call whose answer we record: accepts any JSON value and returns it
 * untouched (no stripping of unknown keys, no coercion of `isError: "true"`).
 */
export const PermissiveResult = z.unknown();

/** A Client whose `initialize` asks for the configured protocol revision instead of the SDK's latest. */
export class PinnedClient extends Client {
  constructor(private readonly pin: string | undefined) {
    super(CLIENT_INFO, { capabilities: {} });
  }

  override request<T extends AnySchema>(request: Request, resultSchema: T, options?: RequestOptions): Promise<SchemaOutput<T>> {
    if (this.pin && request.method === 'initialize') {
      request = { ...request, params: { ...request.params, protocolVersion: this.pin } };
    }
    return super.request(request as Parameters<Client['request']>[0], resultSchema, options);
  }
}

/** The SDK's HTTP transport, telling the tracker which JSON-RPC id each outgoing request got. */
class TrackedHttpTransport extends StreamableHTTPClientTransport {
  constructor(
    url: URL,
    opts: ConstructorParameters<typeof StreamableHTTPClientTransport>[1],
    private readonly tracker: CallTracker,
  ) {
    super(url, opts);
  }

  override send(message: JSONRPCMessage | JSONRPCMessage[], options?: TransportSendOptions): Promise<void> {
    this.tracker.noteOutgoing(message);
    return super.send(message as JSONRPCMessage, options);
  }
}

export interface Session {
  client: PinnedClient;
  transport: Transport;
  stdio?: HarnessStdioTransport;
  http?: { observations: HttpObservation[]; sessionId(): string | undefined };
  /** Close the session and release every resource (process reaped, sockets destroyed). Never throws. */
  close(): Promise<void>;
}

export function openTransport(agent: AgentConfig, tracker: CallTracker): Omit<Session, 'client'> {
  if (agent.transport === 'stdio') {
    const stdio = new HarnessStdioTransport({
      command: agent.command,
      args: agent.args,
      env: agent.env,
      ...(agent.cwd !== undefined ? { cwd: agent.cwd } : {}),
      maxBytes: agent.maxBytes,
      secrets: agent.secrets,
      onRaw: (value, bytes, text) => tracker.admit(value, bytes, text),
      onInvalidUtf8: () => tracker.invalidUtf8('a stdout line'),
      onExit: (exit) => {
        const call = tracker.current;
        if (call) {
          const how = exit.signal ? `signal ${exit.signal}` : `code ${exit.code}`;
          tracker.fail({ kind: 'closed', message: `the server process exited (${how}) before answering ${call.method}` }, call);
        }
      },
      onStdinStalled: (pending) => {
        const call = tracker.current;
        const what = call ? `${call.method} failed: ` : '';
        const why = `the seller stopped reading its stdin (${pending} bytes of our messages pending, limit ${MAX_PENDING_STDIN_BYTES})`;
        tracker.fail({ kind: 'closed', message: `${what}${why}; its process group was killed` });
      },
      onOversize: (seen) => {
        const call = tracker.current;
        if (call) {
          tracker.fail({
            kind: 'oversize',
            message: `answer passed the ${agent.maxBytes}-byte cap (${seen} bytes read); the line was cut and the call aborted`,
            bytesSeen: seen,
          });
        }
      },
    });
    const send = stdio.send.bind(stdio);
    stdio.send = (message) => {
      tracker.noteOutgoing(message);
      return send(message);
    };
    return { transport: stdio, stdio, close: () => stdio.close().catch(() => {}) };
  }

  const observations: HttpObservation[] = [];
  const capped = createCappedFetch({
    maxBytes: agent.maxBytes,
    connectMs: agent.timeouts.connectMs,
    callMs: agent.timeouts.callMs,
    tracker,
    secrets: agent.secrets,
    observe: (o) => {
      if (observations.length < MAX_HTTP_OBSERVATIONS) observations.push(o);
    },
  });
  const transport = new TrackedHttpTransport(
    new URL(agent.url),
    {
      fetch: capped.fetch,
      requestInit: { headers: { ...agent.headers } },
      // Our fetch never lets undici follow a redirect; a 3xx answer to a call is recorded as an
      // http-status failure, so credentials never travel to another origin.
      reconnectionOptions: { maxRetries: 0, initialReconnectionDelay: 1000, maxReconnectionDelay: 1000, reconnectionDelayGrowFactor: 1 },
    },
    tracker,
  );
  const close = async (): Promise<void> => {
    // Best effort DELETE of the session, bounded; then drop every socket.
    await Promise.race([transport.terminateSession().catch(() => {}), new Promise((r) => setTimeout(r, 1000).unref())]);
    await transport.close().catch(() => {});
    await capped.close();
  };
  return { transport, http: { observations, sessionId: () => transport.sessionId }, close };
}
