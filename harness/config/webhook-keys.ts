// The agent's webhook keys from its config (`webhookKeys`: a JWKS file path, or an inline JWKS): public
// keys only, each with a kid and an Ed25519 / P-256 key type — what the webhook profile allows (security.mdx).
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import type { AdcpJsonWebKey } from '@adcp/sdk/signing';

/** The keys and where they came from (`inline`, or the file's absolute path) for the reports. */
export interface WebhookKeys {
  keys: AdcpJsonWebKey[];
  source: string;
}

const PRIVATE_MEMBERS = ['d', 'p', 'q', 'dp', 'dq', 'qi', 'k'];

/** The JWKS, or why it is not one (a sentence fragment: "must …"). */
export function parseJwks(value: unknown): { keys: AdcpJsonWebKey[] } | { problem: string } {
  const keys = value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as { keys?: unknown }).keys : undefined;
  if (!Array.isArray(keys) || keys.length === 0) return { problem: 'must be a JWKS: an object with a non-empty "keys" array' };
  const kids = new Set<string>();
  for (const [i, key] of keys.entries()) {
    if (key === null || typeof key !== 'object' || Array.isArray(key)) return { problem: `keys[${i}] must be a JWK object` };
    const k = key as Record<string, unknown>;
    if (typeof k['kid'] !== 'string' || k['kid'] === '') return { problem: `keys[${i}] must have a "kid"` };
    if (k['kty'] !== 'OKP' && k['kty'] !== 'EC') return { problem: `keys[${i}] must be an Ed25519 (kty OKP) or P-256 (kty EC) key` };
    const secret = PRIVATE_MEMBERS.find((m) => m in k);
    if (secret) return { problem: `keys[${i}] holds private key material ("${secret}"): give the public key only` };
    if (kids.has(k['kid'])) return { problem: `keys[${i}] repeats the kid "${k['kid']}"` };
    kids.add(k['kid']);
  }
  return { keys: keys as AdcpJsonWebKey[] };
}

/**
 * `webhookKeys` as given — an inline JWKS, or the path of a JWKS file (relative to `dir`), read now — or
 * why it is none (a sentence fragment naming the file). The config and the `--webhook-keys` flag share it.
 */
export function loadWebhookKeys(value: unknown, dir: string): WebhookKeys | { problem: string } {
  let doc: unknown = value;
  let source = 'inline';
  if (typeof value === 'string') {
    source = resolve(dir, value);
    try {
      // A JWKS is a few hundred bytes: read synchronously, once, at load.
      doc = JSON.parse(readFileSync(source, 'utf8'));
    } catch (err) {
      const why = err instanceof SyntaxError ? 'not JSON' : ((err as NodeJS.ErrnoException).code ?? 'unreadable');
      return { problem: `cannot read the JWKS file '${value}' (${why}, resolved to ${source})` };
    }
  }
  const parsed = parseJwks(doc);
  if ('problem' in parsed) return { problem: `${source === 'inline' ? '' : `the JWKS in '${String(value)}' `}${parsed.problem}` };
  return { keys: parsed.keys, source };
}
