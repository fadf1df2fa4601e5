// The streamable-HTTP side of a session (connect/session.ts): the SDK's transport over our capped undici
// fetch, telling the CallTracker which JSON-RPC id each outgoing request got. Its own module, imported
// only when an HTTP agent is connected, so stdio-only runs never load undici or the HTTP transport.
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { TransportSendOptions } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import type { HttpObservation } from '../record/exchange.ts';
import type { HttpAgentConfig } from '../config/types.ts';
import type { CallTracker } from './call-tracker.ts';
import { createCappedFetch } from './http-fetch.ts';
import type { OpenedTransport } from './opened-transport.ts';

export const MAX_HTTP_OBSERVATIONS = 500;

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

export function openHttpTransport(agent: HttpAgentConfig, tracker: CallTracker): OpenedTransport {
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
