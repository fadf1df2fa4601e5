// One MCP session with one agent: the official SDK `Client` over our stdio transport or the SDK's
// streamable-HTTP transport (with our capped fetch), both reporting every outgoing request and raw
// incoming message to the CallTracker.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { RequestOptions } from '@modelcontextprotocol/sdk/shared/protocol.js';
import type { AnySchema, SchemaOutput } from '@modelcontextprotocol/sdk/server/zod-compat.js';
import type { Request } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import type { AgentConfig } from '../config/types.ts';
import type { CallTracker } from './call-tracker.ts';
import type { OpenedTransport } from './opened-transport.ts';
import { HarnessStdioTransport, MAX_PENDING_STDIN_BYTES } from './stdio-transport.ts';

export const CLIENT_INFO = { name: 'adcp-conformance', version: '0.1.0' } as const;

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

export interface Session extends OpenedTransport {
  client: PinnedClient;
}

export async function openTransport(agent: AgentConfig, tracker: CallTracker): Promise<OpenedTransport> {
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
        // Every call still waiting (a scenario may send a few at once) has lost its server.
        for (const call of tracker.pending()) {
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

  // The HTTP pieces (the SDK's streamable-HTTP transport, undici) load only when an HTTP agent is
  // connected: a stdio-only run (a `probe --stdio` in the dev loop) never pays their start-up.
  const { openHttpTransport } = await import('./http-session.ts');
  return openHttpTransport(agent, tracker);
}
