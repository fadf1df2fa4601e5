// Where a seller without configured `webhookKeys` publishes the keys its webhooks verify with (AdCP 3.1
// security, "Discovering an agent's signing keys via brand_json_url"): the agent's get_adcp_capabilities
// names `identity.brand_json_url`; that brand.json's `agents[]` entry for the agent's URL names its
// `jwks_uri` (default /.well-known/jwks.json at the agent's origin). Fetched with the spec's budgets, no
// redirects, bodies read through a byte cap.
//
// Left out on purpose — the harness judges a seller's signatures against the keys that seller itself
// publishes; it makes no trust decision about the seller:
//   step 3, eTLD+1 origin binding (it needs a pinned Public Suffix List), and `authorized_operators[]`;
//   step 6, a publisher's `adagents.json` `signing_keys` pin for sell-side webhooks;
//   step 7, the `identity.key_origins` consistency check;
//   strict parsing of brand.json (duplicate keys): JSON.parse keeps the last.
import type { AdcpJsonWebKey } from '@adcp/sdk/signing';
import { parseJwks } from '../config/webhook-keys.ts';
import { sellerTimeout } from '../connect/seller-clock.ts';
import { extractSuccess } from '../extract/success.ts';
import { isObject, own } from '../json.ts';
import type { AgentCapture, Exchange } from '../record/exchange.ts';

/** The spec's budgets (security.mdx, the pseudocode's MAX_BRAND_JSON_BYTES / MAX_JWKS_BYTES). */
export const MAX_BRAND_JSON_BYTES = 262_144;
export const MAX_JWKS_BYTES = 65_536;
const TOTAL_MS = 10_000;
/** Characters of one seller-supplied string (a URL, a status text) in a problem. */
const SHOWN = 160;
/** agents[] URLs listed when none matches (the usual cause is a trailing slash or the scheme). */
const URLS_LISTED = 2;

export const STDIO_PROBLEM = 'a stdio agent has no URL to discover keys from: set webhookKeys';
export const ORIGIN_BINDING_NOTE = 'origin binding (eTLD+1) not checked';

export interface DiscoveryOptions {
  /** The agent's configured URL (A): brand.json's agents[] entry must byte-equal it. */
  agentUrl?: string;
  /** Per fetch, connecting included, on the seller's clock (default 10 s). */
  totalMs?: number;
}

export type KeyDiscovery = { keys: AdcpJsonWebKey[]; source: string } | { problem: string };

/** The seller's published webhook-signing keys, or why there are none. Never throws. */
export async function discoverWebhookKeys(capture: AgentCapture, options: DiscoveryOptions = {}): Promise<KeyDiscovery> {
  try {
    return await discover(capture, options);
  } catch (err) {
    return { problem: `key discovery failed: ${shown(err instanceof Error ? err.message : String(err))}` };
  }
}

async function discover(capture: AgentCapture, options: DiscoveryOptions): Promise<KeyDiscovery> {
  if (capture.agent.transport !== 'http') return { problem: STDIO_PROBLEM };
  const agentUrl = options.agentUrl;
  let agent: URL;
  try {
    agent = new URL(agentUrl ?? '');
  } catch {
    return { problem: "the agent's URL was not available to key discovery" };
  }
  const caps = capabilitiesPayload(capture.exchanges);
  if (!caps) return { problem: 'no successful get_adcp_capabilities answer to read identity.brand_json_url from' };
  const brandJsonUrl = own(own(caps, 'identity'), 'brand_json_url');
  if (typeof brandJsonUrl !== 'string') return { problem: 'the capabilities carry no identity.brand_json_url' };
  const brandUrl = allowedUrl(brandJsonUrl, agent, 'identity.brand_json_url');
  if ('problem' in brandUrl) return brandUrl;

  const brandDoc = await getJson(brandUrl.url, MAX_BRAND_JSON_BYTES, `brand.json ${shown(brandUrl.url.href)}`, options);
  if ('problem' in brandDoc) return brandDoc;
  const entry = agentEntry(brandDoc.value, agentUrl!, brandUrl.url.href);
  if ('problem' in entry) return entry;

  const declared = own(entry.entry, 'jwks_uri');
  if (declared !== undefined && typeof declared !== 'string')
    return { problem: `the agents[] entry of brand.json ${shown(brandUrl.url.href)} has a jwks_uri that is not a string` };
  const jwksUri = allowedUrl(declared ?? new URL('/.well-known/jwks.json', agent.origin).href, agent, 'jwks_uri');
  if ('problem' in jwksUri) return jwksUri;
  const jwksDoc = await getJson(jwksUri.url, MAX_JWKS_BYTES, `the JWKS at ${shown(jwksUri.url.href)}`, options);
  if ('problem' in jwksDoc) return jwksDoc;
  const parsed = parseJwks(jwksDoc.value);
  if ('problem' in parsed) return { problem: `the JWKS at ${shown(jwksUri.url.href)} ${shown(parsed.problem)}` };
  const how = declared === undefined ? "the default at the agent's origin, " : '';
  return {
    keys: parsed.keys,
    source: `jwks_uri ${shown(jwksUri.url.href)} (${how}from brand.json ${shown(brandUrl.url.href)}; ${ORIGIN_BINDING_NOTE})`,
  };
}

/** The first successful plain get_adcp_capabilities answer's payload (a scenario's variation may differ). */
function capabilitiesPayload(exchanges: readonly Exchange[]): Record<string, unknown> | null {
  const calls = exchanges.filter((x) => x.tool === 'get_adcp_capabilities' && x.outcome.kind === 'result');
  const ordered = [...calls.filter((x) => x.scenario === undefined), ...calls.filter((x) => x.scenario !== undefined)];
  for (const x of ordered) {
    const payload = x.outcome.kind === 'result' ? extractSuccess(x.outcome.result) : null;
    if (payload) return payload;
  }
  return null;
}

const LOOPBACK_HOSTS = new Set(['127.0.0.1', '[::1]', 'localhost']);
const isLoopbackHttp = (u: URL): boolean => u.protocol === 'http:' && LOOPBACK_HOSTS.has(u.hostname);

/**
 * HTTPS only (the spec restates it for verifiers); plain http only for a dev seller on loopback, whose
 * own URL is loopback http, fetching from loopback — nothing leaves the machine.
 */
function allowedUrl(value: string, agent: URL, what: string): { url: URL } | { problem: string } {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return { problem: `${what} ${JSON.stringify(shown(value))} is not a URL` };
  }
  if (url.protocol === 'https:' || (isLoopbackHttp(url) && isLoopbackHttp(agent))) return { url };
  return { problem: `${what} ${shown(url.href)} is not https (AdCP requires HTTPS for key discovery): not fetched` };
}

/** The one agents[] entry whose url byte-equals the agent's URL (no canonicalization, per the spec). */
function agentEntry(doc: unknown, agentUrl: string, brandUrl: string): { entry: Record<string, unknown> } | { problem: string } {
  const agents = own(doc, 'agents');
  if (!Array.isArray(agents)) return { problem: `brand.json ${shown(brandUrl)} has no agents[] array` };
  const matches = agents.filter((e): e is Record<string, unknown> => isObject(e) && own(e, 'url') === agentUrl);
  if (matches.length === 1) return { entry: matches[0]! };
  if (matches.length > 1)
    return { problem: `brand.json ${shown(brandUrl)} lists the agent's URL in ${matches.length} agents[] entries (ambiguous)` };
  const urls = agents
    .map((e) => own(e, 'url'))
    .filter((u): u is string => typeof u === 'string')
    .slice(0, URLS_LISTED)
    .map((u) => JSON.stringify(shown(u, 80)));
  return {
    problem: `no agents[] entry of brand.json ${shown(brandUrl)} has a url byte-equal to the agent's configured URL${urls.length ? ` (listed: ${urls.join(', ')}${agents.length > URLS_LISTED ? ', …' : ''})` : ''}`,
  };
}

/** GET `url` as JSON: no redirects, the total budget (on the seller's clock), at most `cap` bytes read. */
async function getJson(url: URL, cap: number, what: string, options: DiscoveryOptions): Promise<{ value: unknown } | { problem: string }> {
  // undici loads on the first discovery, not with every run (~0.12 CPU-s), and before the seller's clock starts.
  const { Agent, errors, request } = await import('undici');
  const totalMs = options.totalMs ?? TOTAL_MS;
  // The total deadline runs on the seller's clock (a stall of the harness does not use it up); undici's own
  // wall-clock timers are a backstop behind it.
  const backstop = 3 * totalMs;
  const dispatcher = new Agent({ connect: { timeout: backstop }, headersTimeout: backstop, bodyTimeout: backstop });
  const deadline = new AbortController();
  const timer = sellerTimeout(totalMs, () => deadline.abort(new Error(`no complete answer within ${totalMs} ms`)));
  const signal = deadline.signal;
  try {
    // undici's request never follows a redirect (no redirect interceptor is composed in).
    const res = await request(url, { method: 'GET', dispatcher, signal, headers: { accept: 'application/json' } });
    if (res.statusCode >= 300 && res.statusCode < 400) {
      const location = res.headers['location'];
      return {
        problem: `${what} answered ${res.statusCode}${typeof location === 'string' ? ` (to ${shown(location)})` : ''}: redirects are not followed for key discovery`,
      };
    }
    if (res.statusCode < 200 || res.statusCode >= 300) return { problem: `${what} answered HTTP ${res.statusCode}` };
    const declared = Number(res.headers['content-length']);
    if (Number.isFinite(declared) && declared > cap) return { problem: `${what} is larger than ${cap} bytes (content-length ${declared})` };
    const chunks: Buffer[] = [];
    let bytes = 0;
    for await (const chunk of res.body as AsyncIterable<Buffer>) {
      bytes += chunk.length;
      if (bytes > cap) return { problem: `${what} is larger than ${cap} bytes` };
      chunks.push(chunk);
    }
    try {
      return { value: JSON.parse(Buffer.concat(chunks).toString('utf8')) };
    } catch {
      return { problem: `${what} is not JSON` };
    }
  } catch (err) {
    return { problem: `${what} could not be fetched: ${fetchFailure(err, signal, totalMs, errors)}` };
  } finally {
    timer.cancel();
    // Drops the socket, and with it a body still arriving past the cap or the deadline.
    await dispatcher.destroy().catch(() => undefined);
  }
}

function fetchFailure(err: unknown, signal: AbortSignal, totalMs: number, errors: typeof import('undici').errors): string {
  if (signal.aborted) return `no complete answer within ${totalMs} ms`;
  if (err instanceof errors.ConnectTimeoutError || err instanceof errors.HeadersTimeoutError || err instanceof errors.BodyTimeoutError)
    return `no complete answer within ${totalMs} ms`;
  const code = own(err, 'code') ?? own(own(err, 'cause'), 'code');
  if (typeof code === 'string') return shown(code, 40);
  return shown(err instanceof Error ? err.message : String(err));
}

/** A seller-supplied string, bounded (the reports sanitize it later). */
function shown(s: string, max = SHOWN): string {
  return s.length > max ? `${s.slice(0, max - 1)}…` : s;
}
