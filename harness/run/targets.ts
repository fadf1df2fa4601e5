// The agents a run probes when there is no --config: the embedded reference seller, over stdio and
// over streamable HTTP on loopback. Both are sandbox agents (it is our own test seller). The HTTP one
// requires a bearer token made for this run, as a production seller would, so the rules about
// unauthenticated calls (auth.unauthenticated, the security storyboard) apply to it too.
import { randomBytes } from 'node:crypto';
import { DEFAULT_MAX_BYTES, DEFAULT_TIMEOUTS } from '../config/index.ts';
import type { AgentConfig } from '../config/types.ts';
import { startHttpSeller, stdioSellerCommand } from '../../sellers/launch.ts';
import { webhookJwks } from '../../sellers/reference/webhooks.ts';

export const EMBEDDED_NAMES = ['reference-stdio', 'reference-http'] as const;

export interface EmbeddedAgents {
  agents: AgentConfig[];
  /** Stops the HTTP seller (if it was started). Safe to call twice. */
  close(): Promise<void>;
}

/** Starts only what `wanted` needs: no HTTP seller when only `reference-stdio` was asked for. */
export async function startEmbeddedAgents(wanted: (name: string) => boolean): Promise<EmbeddedAgents> {
  const agents: AgentConfig[] = [];
  const base = {
    timeouts: DEFAULT_TIMEOUTS,
    production: false,
    sandbox: true,
    // The seller's public webhook keys, as a seller's config names them: its deliveries are verified.
    webhookKeys: { ...webhookJwks(), source: 'the embedded reference seller' },
    maxBytes: DEFAULT_MAX_BYTES,
    secrets: [],
  };
  if (wanted('reference-stdio')) {
    const { command, args } = stdioSellerCommand();
    agents.push({ ...base, name: 'reference-stdio', transport: 'stdio', command, args, env: {} });
  }
  let http: { url: string; close(): Promise<void> } | undefined;
  if (wanted('reference-http')) {
    const token = randomBytes(18).toString('base64url');
    const started = await startHttpSeller({ token });
    http = started;
    const authorization = `Bearer ${token}`;
    agents.push({
      ...base,
      name: 'reference-http',
      transport: 'http',
      url: started.url,
      headers: { Authorization: authorization },
      credentialHeaders: ['Authorization'],
      secrets: [token, authorization],
    });
  }
  return {
    agents,
    close: async () => {
      const h = http;
      http = undefined;
      await h?.close();
    },
  };
}
