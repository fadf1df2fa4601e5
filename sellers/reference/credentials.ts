// Credentials in arguments (AdCP 3.1 authentication.mdx › Credential placement): a request whose payload
// carries a credential- or trust-material key (api_key, client_secret, bearer, authorization,
// <platform>_access_token, jwk, jwks, jwks_uri …) at any depth is rejected with CREDENTIAL_IN_ARGS
// (terminal), naming the path, never the value. `context` is the caller's opaque echo (never parsed), and
// push_notification_config.authentication (the seller's webhook credential) is an explicit carve-out.
import { AdcpFailure } from './adcp-error.ts';
import { isPlainObject, type JsonObject } from './json.ts';

const CREDENTIAL_KEY =
  /^(?:api[-_]?key|apikey|x[-_]api[-_]key|client[-_]?secret|bearer|authorization|access[-_]?token|[a-z0-9]+_access_token|refresh[-_]?token|id[-_]?token|password|jwk|jwks|jwks[-_]uri)$/i;
/** Bounds of the walk: arguments are small, a hostile one is not walked forever. */
const MAX_DEPTH = 24;
const MAX_NODES = 10_000;

const segment = (key: string, path: string): string => (path === '' ? key : `${path}.${key}`);

/** The path (JSONPath-lite, e.g. `ext.api_key`) of the first credential-shaped key in `args`, or null. */
export function credentialPath(args: JsonObject): string | null {
  let nodes = 0;
  const walk = (value: unknown, path: string, depth: number, parentKey: string): string | null => {
    if (++nodes > MAX_NODES || depth > MAX_DEPTH) return null;
    if (Array.isArray(value)) {
      for (let i = 0; i < value.length; i++) {
        const found = walk(value[i], `${path}[${i}]`, depth + 1, parentKey);
        if (found) return found;
      }
      return null;
    }
    if (!isPlainObject(value)) return null;
    for (const key of Object.keys(value)) {
      if (depth === 0 && key === 'context') continue;
      // The carve-out: the credential the seller uses to call the buyer's webhook back.
      if (key === 'authentication' && (parentKey === 'push_notification_config' || parentKey === 'notification_configs')) continue;
      const here = segment(key, path);
      if (CREDENTIAL_KEY.test(key)) return here;
      const found = walk(value[key], here, depth + 1, key);
      if (found) return found;
    }
    return null;
  };
  return walk(args, '', 0, '');
}

/** Throws CREDENTIAL_IN_ARGS when the arguments carry a credential-shaped key. */
export function rejectCredentialsInArgs(args: JsonObject): void {
  const path = credentialPath(args);
  if (path === null) return;
  throw new AdcpFailure({
    code: 'CREDENTIAL_IN_ARGS',
    message: 'Credentials are not accepted in request arguments: send them on the transport (Authorization header)',
    recovery: 'terminal',
    field: path,
    suggestion: 'Move the credential to the Authorization header, rotate it (it was sent in a payload), then resubmit without it.',
  });
}
