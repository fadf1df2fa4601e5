// An agent given on the command line instead of a config file, for the local dev loop:
//   --url URL [--header 'Name: value']…     a streamable-HTTP agent
//   --stdio 'COMMAND ARGS…'                 a stdio agent, spawned in the current directory (or --cwd DIR)
// with `--sandbox` to allow the mutating probes, `--account` for the AdCP account its calls name,
// `--webhook-keys` for the keys its webhooks are verified with, `--timeout` / `--connect-timeout` / `--agent-timeout` for its
// limits and `--env KEY=VALUE` for a stdio agent's environment. The current directory is the user's
// (invocation-dir.ts: bin/adcp-conformance.js has changed into it). Header values, URL credentials and every
// `--env` value are secrets, as `${VAR}` and `env` values of a config are: redacted from every output. `run` and `probe` share these options
// (parsed in dev-options.ts; turned into an agent here, once the command line is known to be usable).
import { statSync } from 'node:fs';
import { basename, isAbsolute, resolve } from 'node:path';
import { DEFAULT_MAX_BYTES, DEFAULT_TIMEOUTS } from '../../config/defaults.ts';
import type { AgentConfig, Timeouts } from '../../config/types.ts';
import type { AdhocValues } from './dev-options.ts';
import { ConfigError } from '../../config/errors.ts';
import { validateSetting } from '../../config/validate.ts';
import { loadWebhookKeys, type WebhookKeys } from '../../config/webhook-keys.ts';
import { UsageError } from '../usage-error.ts';

/** The agent the ad-hoc options describe, or undefined when there is none. Throws UsageError. */
export function adhocAgent(values: AdhocValues, cwd: string = process.cwd(), env: NodeJS.ProcessEnv = process.env): AgentConfig {
  if (values.url !== undefined && values.stdio !== undefined)
    throw new UsageError('--url and --stdio cannot be used together: one agent at a time');
  const base = {
    timeouts: adhocTimeouts(values.timeouts),
    production: false,
    sandbox: values.sandbox === true,
    maxBytes: DEFAULT_MAX_BYTES,
    ...(values.account !== undefined ? { account: accountOf(values.account) } : {}),
    ...(values.webhookKeys !== undefined ? { webhookKeys: webhookKeysOf(values.webhookKeys, values.sandbox === true, cwd) } : {}),
  };
  if (values.stdio !== undefined) {
    if (values.header?.length) throw new UsageError('--header goes with --url, not --stdio');
    const childEnv = envEntries(values.env ?? [], env);
    const words = splitCommandLine(values.stdio);
    const [command, ...args] = words;
    if (command === undefined) throw new UsageError('--stdio: expected a command line, got nothing');
    const dir = values.cwd === undefined ? cwd : agentDirectory(values.cwd, cwd);
    return {
      ...base,
      name: stdioName(command, args),
      transport: 'stdio',
      // "./seller" is relative to the agent's working directory, as `cd DIR && ./seller` would run it; a
      // bare name goes through PATH.
      command: command.includes('/') && !isAbsolute(command) ? resolve(dir, command) : command,
      args,
      env: childEnv,
      cwd: dir,
      // Every --env value is a secret, as a config's env values are (usableSecrets skips the very short).
      secrets: [...new Set(Object.values(childEnv))],
    };
  }
  if (values.env?.length) throw new UsageError('--env goes with --stdio: an HTTP agent runs in its own environment');
  if (values.cwd !== undefined) throw new UsageError('--cwd goes with --stdio: an HTTP agent runs in its own directory');
  let url: URL;
  try {
    url = new URL(values.url!);
  } catch {
    throw new UsageError('--url: not a URL (expected http://host:port/path)');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    throw new UsageError(`--url: expected an http(s) URL, got a ${url.protocol} one`);
  const secrets: string[] = [];
  if (url.username) secrets.push(decodeURIComponent(url.username));
  if (url.password) secrets.push(decodeURIComponent(url.password));
  const headers: Record<string, string> = {};
  for (const line of values.header ?? []) {
    const colon = line.indexOf(':');
    const name = colon > 0 ? line.slice(0, colon).trim() : '';
    // A header name is an HTTP token; never echo the value (it is a secret).
    if (!/^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/.test(name))
      throw new UsageError(`--header: expected 'Name: value' (name '${name.slice(0, 40)}' is not a header name)`);
    const value = line.slice(colon + 1).trim();
    headers[name] = value;
    secrets.push(value, ...credentialParts(value));
  }
  return {
    ...base,
    name: url.host,
    transport: 'http',
    url: url.href,
    headers,
    secrets: [...new Set(secrets)],
  };
}

/** `--account acc_123` → {account_id: "acc_123"}; `--account '{…}'` → that reference. Checked as a config's `account` is. */
function accountOf(given: string): Record<string, unknown> {
  let value: unknown = { account_id: given };
  if (given.trimStart().startsWith('{')) {
    try {
      value = JSON.parse(given);
    } catch {
      throw new UsageError('--account: not JSON (give an account_id, or a reference such as \'{"account_id":"acc_123"}\')');
    }
  }
  try {
    validateSetting('accountRef', value, '--account');
  } catch (err) {
    if (err instanceof ConfigError) throw new UsageError(`--account: ${err.pointer ? `${err.pointer}: ` : ''}${err.expected}`);
    throw err;
  }
  return value as Record<string, unknown>;
}

/** `--webhook-keys FILE` (relative to the user's directory) or `--webhook-keys '{"keys":[…]}'`; only a sandbox agent asks for webhooks. */
function webhookKeysOf(given: string, sandbox: boolean, cwd: string): WebhookKeys {
  if (!sandbox) throw new UsageError("--webhook-keys goes with --sandbox: only a sandbox agent's calls ask for webhooks");
  let value: unknown = given;
  if (given.trimStart().startsWith('{')) {
    try {
      value = JSON.parse(given);
    } catch {
      throw new UsageError('--webhook-keys: not JSON (give a JWKS file, or the JWKS itself as {"keys": […]})');
    }
  }
  const loaded = loadWebhookKeys(value, cwd);
  if ('problem' in loaded) throw new UsageError(`--webhook-keys: ${loaded.problem}`);
  return loaded;
}

/** `--cwd DIR` against the user's directory; a UsageError unless it is a directory (told now, not at spawn). */
function agentDirectory(given: string, base: string): string {
  const dir = resolve(base, given);
  let isDir = false;
  try {
    isDir = statSync(dir).isDirectory();
  } catch {
    // missing or unreadable: the same answer
  }
  if (!isDir) throw new UsageError(`--cwd ${given}: no such directory (${dir})`);
  return dir;
}

/**
 * The agent's limits: the defaults, with what the flags set. When the session limit is not given, it is at
 * least long enough for the connect and one whole call (a `--timeout 300` is not cut at 180 s).
 */
export function adhocTimeouts(given: AdhocValues['timeouts']): Timeouts {
  const t = { ...DEFAULT_TIMEOUTS, ...given };
  if (given?.agentMs === undefined) t.agentMs = Math.max(t.agentMs, t.connectMs + t.callMs + AGENT_SLACK_MS);
  return t;
}

/** Room in a derived session limit past connect + one call, for tools/list and closing. */
const AGENT_SLACK_MS = 10_000;

/**
 * `--env` entries → the child's variables: `KEY=VALUE`, or `KEY` alone for this process's own value of
 * KEY (passed on only when asked by name; nothing else of our environment is). Throws UsageError.
 */
export function envEntries(entries: readonly string[], from: NodeJS.ProcessEnv): Record<string, string> {
  const out: Record<string, string> = {};
  for (const entry of entries) {
    const eq = entry.indexOf('=');
    const key = eq < 0 ? entry : entry.slice(0, eq);
    // The key only: the value is a secret and is never echoed.
    if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(key))
      throw new UsageError(`--env: expected KEY=VALUE with KEY a variable name (letters, digits, _), got '${key.slice(0, 40)}'`);
    if (eq >= 0) out[key] = entry.slice(eq + 1);
    else {
      const value = from[key];
      if (value === undefined) throw new UsageError(`--env ${key}: ${key} is not set here (give it as ${key}=VALUE)`);
      out[key] = value;
    }
  }
  return out;
}

/**
 * `node ./seller.js --port 1` → `node seller.js`: a readable name that carries no argument values (only a
 * first argument that is a file path: a value could be a token).
 */
function stdioName(command: string, args: readonly string[]): string {
  const first = args[0];
  const script = first !== undefined && !first.startsWith('-') && /[./\\]/.test(first) ? basename(first) : undefined;
  return [basename(command), ...(script === undefined ? [] : [script])].join(' ');
}

/** "Bearer abc" → ["abc"]: a seller may echo the token without its scheme. */
function credentialParts(value: string): string[] {
  const m = /^\s*[A-Za-z][A-Za-z0-9_-]*\s+(\S.*)$/.exec(value);
  return m?.[1] ? [m[1].trim()] : [];
}

/**
 * A command line split into words as a POSIX shell would quote it: 'single' (literal), "double" (\" \\
 * \$ \` escaped), backslash outside quotes; no expansion of any kind. Throws UsageError on an open quote.
 */
export function splitCommandLine(text: string): string[] {
  const words: string[] = [];
  let word = '';
  let inWord = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (c === "'") {
      const end = text.indexOf("'", i + 1);
      if (end < 0) throw new UsageError("--stdio: unterminated ' quote");
      word += text.slice(i + 1, end);
      inWord = true;
      i = end;
    } else if (c === '"') {
      let j = i + 1;
      for (; j < text.length && text[j] !== '"'; j++) {
        if (text[j] === '\\' && j + 1 < text.length && '"\\$`'.includes(text[j + 1]!)) j++;
        word += text[j];
      }
      if (j >= text.length) throw new UsageError('--stdio: unterminated " quote');
      inWord = true;
      i = j;
    } else if (c === '\\' && i + 1 < text.length) {
      word += text[++i];
      inWord = true;
    } else if (/\s/.test(c)) {
      if (inWord) words.push(word);
      word = '';
      inWord = false;
    } else {
      word += c;
      inWord = true;
    }
  }
  if (inWord) words.push(word);
  return words;
}
