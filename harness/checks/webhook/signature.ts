// webhook.signature — the harness registers push_notification_config without `authentication`, so every
// delivery must be signed under the RFC 9421 webhook profile and verify with the seller's key
// (security.mdx, "Webhook callbacks": 9421 signing is baseline-required; tag adcp/webhook-signing/v1,
// @method @target-uri @authority content-type content-digest covered). Verified after the run with the
// agent's configured `webhookKeys` (harness/webhooks/verify.ts); no key → untested, never a pass.
import type { AgentCapture } from '../../record/exchange.ts';
import { defineCheck, failAcross, notApplicable, pass, untested, type AgentVerdict } from '../check.ts';
import { deliveryAt, receiverOrVerdicts } from './_webhooks.ts';

export const NO_KEYS =
  "no key to verify the seller's webhook signatures with: set `webhookKeys` in the agent's config (the seller's public JWKS, as a file path or inline)";

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
    if (!a.agent.webhookKeys) return [{ subject: 'webhook deliveries', verdict: untested(NO_KEYS) }];
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
          `a signature that verifies under the RFC 9421 webhook profile with a key of ${a.agent.webhookKeys!.source === 'inline' ? 'the configured JWKS' : a.agent.webhookKeys!.source}`,
          `${v.code}${v.step !== undefined ? ` (checklist step ${v.step})` : ''}: ${v.message}`,
          [d.call!],
        ),
      };
    });
  },
});
