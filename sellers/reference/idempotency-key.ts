// The idempotency_key a mutating request must carry, checked before the request reaches the cache
// (https://adcontextprotocol.org/docs/building/by-layer/L1/security, Idempotency rule 1): missing or
// malformed → INVALID_REQUEST, never a cache lookup. The format is the request schemas' (3.0 and 3.1):
// 16–255 characters of A–Z a–z 0–9 _ . : -
import { AdcpFailure } from './adcp-error.ts';
import type { JsonObject } from './json.ts';

export const IDEMPOTENCY_KEY_FORMAT = /^[A-Za-z0-9_.:-]{16,255}$/;

/** Throws INVALID_REQUEST unless `args.idempotency_key` is present and well-formed. The key is never echoed: it is a secret. */
export function checkIdempotencyKey(args: JsonObject): void {
  const key = args['idempotency_key'];
  if (key === undefined) {
    throw new AdcpFailure({
      code: 'INVALID_REQUEST',
      message: 'idempotency_key is required on every mutating request',
      recovery: 'correctable',
      field: 'idempotency_key',
      suggestion: 'Send a fresh UUID v4 as idempotency_key, and the same one again when retrying this request.',
    });
  }
  if (typeof key !== 'string' || !IDEMPOTENCY_KEY_FORMAT.test(key)) {
    throw new AdcpFailure({
      code: 'INVALID_REQUEST',
      message: 'idempotency_key must be 16 to 255 characters of A-Z, a-z, 0-9, _ . : or -',
      recovery: 'correctable',
      field: 'idempotency_key',
      suggestion: 'Use a UUID v4 as idempotency_key.',
    });
  }
}
