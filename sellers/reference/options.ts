// Command line of the reference seller:
//   node sellers/reference-seller.js --transport stdio|http [--port N] [--response-mode json|sse]
//     [--output-shape root|legacy] [--fault NAME]… [--no-sandbox] [--exit-on-stdin-end] [--token TOKEN]
//     [--require-account ACCOUNT_ID] [--brand-json-url URL] [--test-controller]
//   node sellers/reference-seller.js --print-webhook-jwks   (the public JWKS of its webhook signatures)
import { parseArgs } from 'node:util';
import type { Fault } from '../faults/_fault.ts';
import { faultModuleFiles, loadFaults } from '../faults/_load.ts';
import type { OutputShape } from './output-schemas.ts';

export interface SellerConfig {
  transport: 'stdio' | 'http';
  /** HTTP port on 127.0.0.1; 0 = ephemeral. */
  port: number;
  responseMode: 'json' | 'sse';
  outputShape: OutputShape;
  /** The faults the seller runs with (`--fault NAME`, each once, in command-line order). */
  faults: readonly Fault[];
  /**
   * Sandbox seller (default): lists create_media_buy / sync_creatives and declares a sandbox account.
   * The harness runs mutating probes only on agents its config marks sandbox; `--no-sandbox` gives a
   * read-only seller.
   */
  sandbox: boolean;
  /**
   * `--test-controller`: list `comply_test_controller` (test-controller.ts), on a sandbox seller only — a
   * production deployment MUST NOT expose it, so with `--no-sandbox` the flag changes nothing.
   */
  testController?: boolean;
  /** HTTP: exit when stdin ends (launch.ts gives the child a pipe, so it dies with its parent). */
  exitOnStdinEnd: boolean;
  /** HTTP: every request must carry `Authorization: Bearer <token>` (401 with WWW-Authenticate otherwise). */
  token?: string;
  /**
   * The one account this seller serves (`--require-account ID`): a call whose task takes an `account` must
   * name `{account_id: ID}`, else it is refused (ACCOUNT_REQUIRED / ACCOUNT_NOT_FOUND: account.ts).
   */
  requireAccount?: string;
  /**
   * `--brand-json-url URL`: get_adcp_capabilities names it as `identity.brand_json_url`, where a verifier
   * discovers this seller's webhook-signing keys (brand.json agents[] → jwks_uri). The seller serves no
   * brand.json itself: the operator (or a test) hosts it.
   */
  brandJsonUrl?: string;
}

export class UsageError extends Error {}

/** The seller's faults for its start-up log line. */
export const faultNames = (config: SellerConfig): string => config.faults.map((f) => f.name).join(', ') || 'none';

/** The usage text (a function: the fault list is read when asked, not at every seller start). */
export const sellerUsage = (): string =>
  [
    'usage: reference-seller --transport stdio|http [--port N] [--response-mode json|sse]',
    '                        [--output-shape root|legacy] [--fault NAME]... [--no-sandbox] [--exit-on-stdin-end]',
    '                        [--token TOKEN]   (HTTP: require Authorization: Bearer TOKEN)',
    '                        [--require-account ACCOUNT_ID]   (refuse calls that do not name {account_id: ACCOUNT_ID})',
    '                        [--brand-json-url URL]   (capabilities name it as identity.brand_json_url: where its keys are published)',
    '                        [--test-controller]   (sandbox: list comply_test_controller, to force the async arm of create_media_buy)',
    '       reference-seller --print-webhook-jwks   (print the public JWKS its webhooks are signed with, for webhookKeys)',
    `faults: ${faultModuleFiles()
      .map((f) => f.name)
      .join(', ')}`,
  ].join('\n');

function oneOf<T extends string>(flag: string, value: string | undefined, allowed: readonly T[], fallback: T): T {
  if (value === undefined) return fallback;
  if ((allowed as readonly string[]).includes(value)) return value as T;
  throw new UsageError(`--${flag} must be one of ${allowed.join(', ')} (got '${value}')`);
}

/** Parses the command line and loads the faults it names (only those: start-up time matters). */
export async function parseSellerArgs(argv: string[]): Promise<SellerConfig> {
  let parsed;
  try {
    parsed = parseArgs({
      args: argv,
      options: {
        transport: { type: 'string' },
        port: { type: 'string' },
        'response-mode': { type: 'string' },
        'output-shape': { type: 'string' },
        fault: { type: 'string', multiple: true },
        sandbox: { type: 'boolean' },
        'no-sandbox': { type: 'boolean' },
        'exit-on-stdin-end': { type: 'boolean' },
        token: { type: 'string' },
        'require-account': { type: 'string' },
        'brand-json-url': { type: 'string' },
        'test-controller': { type: 'boolean' },
      },
      strict: true,
      allowPositionals: false,
    });
  } catch (err) {
    throw new UsageError(err instanceof Error ? err.message : String(err));
  }
  const v = parsed.values;
  const transport = oneOf('transport', v.transport, ['stdio', 'http'] as const, 'stdio');
  const port = v.port === undefined ? 0 : Number(v.port);
  if (!Number.isInteger(port) || port < 0 || port > 65_535) throw new UsageError(`--port must be 0–65535 (got '${v.port}')`);
  const names = [...new Set(v.fault ?? [])];
  const known = new Set(faultModuleFiles().map((f) => f.name));
  for (const name of names) if (!known.has(name)) throw new UsageError(`unknown fault '${name}'`);
  const faults = await loadFaults(undefined, undefined, names);
  const token = v.token;
  if (token !== undefined && transport !== 'http') throw new UsageError('--token applies to --transport http only');
  if (token !== undefined && !/^[A-Za-z0-9._~+/=-]{8,512}$/.test(token))
    throw new UsageError('--token must be 8–512 characters of A-Z a-z 0-9 . _ ~ + / = -');
  const requireAccount = v['require-account'];
  if (requireAccount !== undefined && !/^[A-Za-z0-9_.:-]{1,128}$/.test(requireAccount))
    throw new UsageError('--require-account must be 1–128 characters of A-Z a-z 0-9 _ . : -');
  const brandJsonUrl = v['brand-json-url'];
  if (brandJsonUrl !== undefined && !isHttpUrl(brandJsonUrl))
    throw new UsageError(`--brand-json-url must be an http(s) URL (got '${brandJsonUrl}')`);
  let outputShape = oneOf('output-shape', v['output-shape'], ['root', 'legacy'] as const, 'root');
  for (const fault of faults) {
    if (fault.transports && !fault.transports.includes(transport)) {
      throw new UsageError(`fault '${fault.name}' applies to ${fault.transports.join('/')} only`);
    }
    outputShape = fault.behaviour.outputShape ?? outputShape;
  }
  return {
    transport,
    port,
    responseMode: oneOf('response-mode', v['response-mode'], ['json', 'sse'] as const, 'json'),
    outputShape,
    faults,
    sandbox: v['no-sandbox'] !== true,
    testController: v['test-controller'] === true,
    exitOnStdinEnd: v['exit-on-stdin-end'] === true,
    ...(token !== undefined ? { token } : {}),
    ...(requireAccount !== undefined ? { requireAccount } : {}),
    ...(brandJsonUrl !== undefined ? { brandJsonUrl } : {}),
  };
}

/** http too, not only https: the harness's own tests host brand.json on loopback (AdCP's schema says https). */
function isHttpUrl(value: string): boolean {
  try {
    const u = new URL(value);
    return (u.protocol === 'https:' || u.protocol === 'http:') && value.length <= 2048;
  } catch {
    return false;
  }
}
