// A transport opened to an agent, before the MCP client is attached: what the stdio and HTTP openers
// return. Its own module so session.ts and http-session.ts need not import each other.
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { HttpObservation } from '../record/exchange.ts';
import type { HarnessStdioTransport } from './stdio-transport.ts';

export interface OpenedTransport {
  transport: Transport;
  stdio?: HarnessStdioTransport;
  http?: { observations: HttpObservation[]; sessionId(): string | undefined };
  /** Close the session and release every resource (process reaped, sockets destroyed). Never throws. */
  close(): Promise<void>;
}
