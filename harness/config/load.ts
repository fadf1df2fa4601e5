// loadConfig: read a JSON or YAML config, expand ${VAR}, validate against the shipped JSON Schema,
// resolve {fromFile} values and relative paths, merge defaults, and collect every secret (resolveAgent,
// the one place: header / env values, {fromFile} contents, URL credentials and every `${VAR}` value).
import { readFile } from 'node:fs/promises';
import { dirname, extname, isAbsolute, resolve } from 'node:path';
import { ConfigError, pointerOf } from './errors.ts';
import { expandEnv, type Substitution } from './expand.ts';
import type { AgentConfig, Config, Probe, Timeouts } from './types.ts';
import { validateConfig } from './validate.ts';
import { DEFAULT_MAX_BYTES, DEFAULT_TIMEOUTS } from './defaults.ts';
import { loadWebhookKeys, type WebhookKeys } from './webhook-keys.ts';

export { DEFAULT_MAX_BYTES, DEFAULT_TIMEOUTS } from './defaults.ts';

type SecretValue = string | { fromFile: string };

interface RawSettings {
  timeouts?: { connect?: number; call?: number; agent?: number; task?: number };
  protocolVersion?: string;
  adcpVersion?: string;
  production?: boolean;
  sandbox?: boolean;
  /** An AdCP account reference (the schema's accountRef); the agent's own wins whole, never merged with the defaults'. */
  account?: Record<string, unknown>;
  /** A JWKS file path (relative to the config) or an inline JWKS; the agent's own wins whole. */
  webhookKeys?: string | Record<string, unknown>;
  probes?: Probe[];
  maxBytes?: number;
  metaIdTools?: Record<string, boolean>;
  expect?: Record<string, string>;
}

interface RawAgent extends RawSettings {
  name: string;
  transport: 'http' | 'stdio';
  url?: string;
  headers?: Record<string, SecretValue>;
  credentialHeaders?: string[];
  command?: string;
  args?: string[];
  env?: Record<string, SecretValue>;
  cwd?: string;
}

interface RawConfig {
  defaults?: RawSettings;
  agents: RawAgent[];
}

export async function loadConfig(file: string, env: NodeJS.ProcessEnv = process.env): Promise<Config> {
  const path = resolve(file);
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (err) {
    throw new ConfigError(file, '', `cannot read the config file (${(err as NodeJS.ErrnoException).code ?? String(err)})`);
  }
  const parsed = await parseText(text, file);
  const { value, substitutions } = expandEnv(parsed, env, file);
  validateConfig(value, file);
  const raw = value as RawConfig;
  const dir = dirname(path);

  const seen = new Map<string, number>();
  const agents: AgentConfig[] = [];
  for (const [i, a] of raw.agents.entries()) {
    const first = seen.get(a.name);
    if (first !== undefined)
      throw new ConfigError(
        file,
        pointerOf('agents', i, 'name'),
        `duplicate agent name '${a.name}' (already used by /agents/${first}/name)`,
      );
    seen.set(a.name, i);
    agents.push(await resolveAgent(a, i, raw.defaults ?? {}, dir, file, substitutions));
  }
  return { file: path, agents };
}

async function parseText(text: string, file: string): Promise<unknown> {
  const ext = extname(file).toLowerCase();
  if (ext === '.json') {
    try {
      return JSON.parse(text);
    } catch (err) {
      throw new ConfigError(file, '', `invalid JSON: ${(err as Error).message}`);
    }
  }
  // YAML (a superset of JSON) for .yaml, .yml and anything else; the parser loads only for them.
  const { parseDocument } = await import('yaml');
  const doc = parseDocument(text, { prettyErrors: true, uniqueKeys: true });
  const problem = doc.errors[0];
  if (problem) {
    const pos = problem.linePos?.[0];
    const where = pos ? ` at line ${pos.line}, column ${pos.col}` : '';
    const what = problem.message.split('\n')[0]!.replace(/ at line \d+, column \d+:?$/, '');
    throw new ConfigError(file, '', `invalid YAML${where}: ${what}`);
  }
  return doc.toJS({ maxAliasCount: 100 });
}

async function resolveAgent(
  a: RawAgent,
  index: number,
  defaults: RawSettings,
  dir: string,
  file: string,
  substitutions: readonly Substitution[],
): Promise<AgentConfig> {
  const at = (...keys: Array<string | number>) => pointerOf('agents', index, ...keys);
  // Every value spliced in from the environment for this agent — its own settings or the defaults it
  // inherits; url, headers, command, args, env, cwd, probe arguments alike — is a secret, whatever it is.
  const own = `${at()}/`;
  const secrets: string[] = substitutions
    .filter((s) => s.pointer.startsWith(own) || s.pointer.startsWith('/defaults/'))
    .map((s) => s.value);
  const timeouts: Timeouts = {
    connectMs: a.timeouts?.connect ?? defaults.timeouts?.connect ?? DEFAULT_TIMEOUTS.connectMs,
    callMs: a.timeouts?.call ?? defaults.timeouts?.call ?? DEFAULT_TIMEOUTS.callMs,
    agentMs: a.timeouts?.agent ?? defaults.timeouts?.agent ?? DEFAULT_TIMEOUTS.agentMs,
    ...optional('taskMs', a.timeouts?.task ?? defaults.timeouts?.task),
  };
  const base = {
    name: a.name,
    timeouts,
    production: a.production ?? defaults.production ?? false,
    sandbox: a.sandbox ?? defaults.sandbox ?? false,
    maxBytes: a.maxBytes ?? defaults.maxBytes ?? DEFAULT_MAX_BYTES,
    ...optional('protocolVersion', a.protocolVersion ?? defaults.protocolVersion),
    ...optional('adcpVersion', a.adcpVersion ?? defaults.adcpVersion),
    ...optional('account', a.account ?? defaults.account),
    ...optional('webhookKeys', webhookKeysOf(a, defaults, dir, file, at)),
    ...optional(
      'probes',
      (a.probes ?? defaults.probes)?.map((p) => ({ tool: p.tool, arguments: p.arguments, intent: p.intent ?? 'valid' })),
    ),
    ...optional('metaIdTools', mergeMaps(defaults.metaIdTools, a.metaIdTools)),
    ...optional('expect', mergeMaps(defaults.expect, a.expect)),
    ...optional('expectPointers', expectPointers(defaults.expect, a.expect, at)),
  };

  if (a.transport === 'http') {
    const headers: Record<string, string> = {};
    for (const [name, v] of Object.entries(a.headers ?? {})) {
      const value = await secretValue(v, dir, file, at('headers', name));
      headers[name] = value;
      secrets.push(value, ...credentialParts(value));
    }
    // The schema's pattern lets through URLs WHATWG rejects (a port past 65535, a bad IPv6 host …).
    // Not echoed: the URL may carry a key.
    let url: URL;
    try {
      url = new URL(a.url!);
    } catch {
      throw new ConfigError(file, at('url'), 'must be an http(s) URL (this one cannot be parsed: check the host and port)');
    }
    if (url.username) secrets.push(decodeURIComponent(url.username));
    if (url.password) secrets.push(decodeURIComponent(url.password));
    return {
      ...base,
      secrets: [...new Set(secrets)],
      transport: 'http',
      url: a.url!,
      headers,
      ...optional('credentialHeaders', credentialHeaderNames(a.credentialHeaders, headers, file, at)),
    };
  }

  const envOut: Record<string, string> = {};
  for (const [name, v] of Object.entries(a.env ?? {})) {
    const value = await secretValue(v, dir, file, at('env', name));
    envOut[name] = value;
    secrets.push(value);
  }
  const command = a.command!;
  return {
    ...base,
    secrets: [...new Set(secrets)],
    transport: 'stdio',
    // A command with a path ("./bin/seller") is relative to the config file; a bare name goes through PATH.
    command: command.includes('/') && !isAbsolute(command) ? resolve(dir, command) : command,
    // Args that are explicitly relative paths (./x, ../x) resolve against the config file's directory.
    args: (a.args ?? []).map((arg) => (arg.startsWith('./') || arg.startsWith('../') ? resolve(dir, arg) : arg)),
    env: envOut,
    // The process runs in the config file's directory unless told otherwise, so "seller.js" works.
    cwd: a.cwd === undefined ? dir : resolve(dir, a.cwd),
  };
}

/** The agent's `webhookKeys` (its own, else the defaults'): an inline JWKS, or a JWKS file read now. */
function webhookKeysOf(
  a: RawAgent,
  defaults: RawSettings,
  dir: string,
  file: string,
  at: (...keys: Array<string | number>) => string,
): WebhookKeys | undefined {
  const value = a.webhookKeys ?? defaults.webhookKeys;
  if (value === undefined) return undefined;
  const loaded = loadWebhookKeys(value, dir);
  if ('problem' in loaded)
    throw new ConfigError(file, a.webhookKeys !== undefined ? at('webhookKeys') : pointerOf('defaults', 'webhookKeys'), loaded.problem);
  return loaded;
}

async function secretValue(v: SecretValue, dir: string, file: string, pointer: string): Promise<string> {
  if (typeof v === 'string') return v;
  const target = resolve(dir, v.fromFile);
  try {
    return (await readFile(target, 'utf8')).trim();
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code ?? 'unreadable';
    throw new ConfigError(file, `${pointer}/fromFile`, `cannot read file '${v.fromFile}' (${code}, resolved to ${target})`);
  }
}

/**
 * The configured `credentialHeaders`, each spelled as in `headers` (names match case-insensitively); a
 * name that is not one of the agent's headers is a config error. Absent: undefined (the default applies:
 * harness/capture/unauthenticated.ts credentialHeaders).
 */
function credentialHeaderNames(
  names: string[] | undefined,
  headers: Record<string, string>,
  file: string,
  at: (...keys: Array<string | number>) => string,
): string[] | undefined {
  if (names === undefined) return undefined;
  const byLower = new Map(Object.keys(headers).map((h) => [h.toLowerCase(), h]));
  return names.map((name, i) => {
    const header = byLower.get(name.toLowerCase());
    if (header === undefined) {
      const known = [...byLower.values()];
      throw new ConfigError(
        file,
        at('credentialHeaders', i),
        `must name one of this agent's headers (${known.length ? `its headers: ${known.join(', ')}` : 'it has none'})`,
      );
    }
    return header;
  });
}

/** "Bearer abc" → ["abc"]: a seller may echo the token without its scheme. */
function credentialParts(value: string): string[] {
  const m = /^\s*[A-Za-z][A-Za-z0-9_-]*\s+(\S.*)$/.exec(value);
  return m?.[1] ? [m[1].trim()] : [];
}

/** Each merged `expect` key → where it is written: the agent's own entry wins over the defaults' one. */
function expectPointers(
  defaults: Record<string, string> | undefined,
  own: Record<string, string> | undefined,
  at: (...keys: Array<string | number>) => string,
): Record<string, string> | undefined {
  if (!defaults && !own) return undefined;
  const pointers: Record<string, string> = {};
  for (const key of Object.keys(defaults ?? {})) pointers[key] = pointerOf('defaults', 'expect', key);
  for (const key of Object.keys(own ?? {})) pointers[key] = at('expect', key);
  return pointers;
}

function mergeMaps<T>(defaults: Record<string, T> | undefined, own: Record<string, T> | undefined): Record<string, T> | undefined {
  if (!defaults && !own) return undefined;
  return { ...defaults, ...own };
}

function optional<K extends string, V>(key: K, value: V | undefined): { [P in K]?: V } {
  return (value === undefined ? {} : { [key]: value }) as { [P in K]?: V };
}
