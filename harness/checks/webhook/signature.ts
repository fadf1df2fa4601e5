// webhook.signature — the harness registers push_notification_config without `authentication`, so every
// delivery must be signed under the RFC 9421 webhook profile and verify with the seller's key
// (security.mdx, "Webhook callbacks": 9421 signing is baseline-required; tag adcp/webhook-signing/v1,
// @method @target-uri @authority content-type content-digest covered). Verified after the run with the
// agent's configured `webhookKeys`, else the keys the seller publishes (brand.json → jwks_uri:
// harness/webhooks/key-discovery.ts); no key → untested with why discovery found none, never a pass.
import { isObject, own } from '../../json.ts';
import type { AgentCapture, WebhookCapture } from '../../record/exchange.ts';
import { defineCheck, failAcross, notApplicable, pass, untested, type AgentVerdict } from '../check.ts';
import { deliveryAt, receiverOrVerdicts } from './_webhooks.ts';

export const NO_KEYS =
  "no key to verify the seller's webhook signatures with: set `webhookKeys` in the agent's config (its public JWKS, a file or inline), or publish them via identity.brand_json_url";

export default defineCheck({
  id: 'webhook.signature',
  scope: 'agent',
  severity: 'MUST',
  live: false,
  requires: 'sandbox',
  title:
    "every delivery to a `push_notification_config` without `authentication` is signed and verifies under the RFC 9421 webhook profile (`tag` = `adcp/webhook-signing/v1`, `content-digest` matches the body) with the seller's key",
  spec: {
    label: 'AdCP · Security › Webhook callbacks (RFC 9421 webhook profile, verifier checklist for webhooks)',
    url: 'https://adcontextprotocol.org/docs/building/by-layer/L1/security#webhook-callbacks',
  },
  fix: 'sign every webhook with RFC 9421 (Signature-Input sig1 covering "@method" "@target-uri" "@authority" "content-type" "content-digest", tag="adcp/webhook-signing/v1", base64url Content-Digest of the exact body bytes) with the key your JWKS publishes',
  judge(a: AgentCapture): AgentVerdict[] {
    const found = receiverOrVerdicts(a, 'webhook deliveries');
    if ('verdicts' in found) return found.verdicts;
    const deliveries = found.webhooks.deliveries.map((d, index) => ({ d, index })).filter(({ d }) => d.call !== undefined);
    if (deliveries.length === 0)
      return [{ subject: 'webhook deliveries', verdict: notApplicable('no delivery arrived at a push_notification_config URL') }];
    const keys = keySource(a, found.webhooks);
    if ('problem' in keys) return [{ subject: 'webhook deliveries', verdict: untested(keys.problem) }];
    return deliveries.map(({ d, index }) => {
      const subject = `delivery ${index} (call ${d.call})`;
      const v = d.verification;
      if (!v)
        return { subject, verdict: untested('the delivery was not verified (a recording made before verification, or keys added later)') };
      if (v.ok) return { subject, verdict: pass() };
      return {
        subject,
        verdict: failAcross(
          deliveryAt(index, '/headers'),
          `a signature that verifies under the RFC 9421 webhook profile with a key of ${keys.source}`,
          `${v.code}${v.step !== undefined ? ` (checklist step ${v.step})` : ''}: ${v.message}`,
          [d.call!],
        ),
      };
    });
  },
});

/** Where the keys came from, in words: the configured JWKS (inline or its file), else the discovered one. */
function keySource(a: AgentCapture, webhooks: WebhookCapture): { source: string } | { problem: string } {
  const configured = a.agent.webhookKeys;
  if (configured) return { source: configured.source === 'inline' ? 'the configured JWKS' : configured.source };
  // Read defensively: a replayed capture is seller-influenced JSON.
  const recorded: unknown = webhooks.keys;
  const source = own(recorded, 'source');
  if (isObject(recorded) && typeof source === 'string') return { source: `the seller's published JWKS, ${source}` };
  const problem = own(recorded, 'problem');
  return { problem: typeof problem === 'string' ? `${NO_KEYS}; key discovery: ${problem}` : NO_KEYS };
}
