// `adcp-conformance probe TOOL` end to end: the CLI as a child process against the embedded reference
// seller over stdio (--stdio) and loopback HTTP (--url), a faulty seller, and the usage errors.
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { catalog } from '../../harness/checks/catalog.ts';
import { startHttpSeller, SELLER_ENTRY } from '../../sellers/launch.ts';
import { runCli, tempDirs } from '../run/cli.helpers.ts';

const tmp = tempDirs();
const stdioSeller = (...extra: string[]) =>
  [process.execPath, SELLER_ENTRY, '--transport', 'stdio', ...extra].map((w) => `'${w}'`).join(' ');
const exchangeChecks = catalog.filter((c) => c.scope === 'exchange').map((c) => c.id);

/** The `checks` block of a probe's output: check id → status. */
function verdicts(stdout: string): Map<string, string> {
  const out = new Map<string, string>();
  for (const m of stdout.matchAll(/^ {2}[✓✗!?–] (\S+)\s+(pass|fail|warn|untested|not-applicable)\b/gm)) out.set(m[1]!, m[2]!);
  return out;
}

describe('probe over stdio (--stdio)', () => {
  test('one call shown whole: request, raw answer, extracted payload, every check on it; exit 0', async () => {
    const r = await runCli(['probe', 'get_products', '--stdio', stdioSeller()]);
    expect(r.code, r.stdout + r.stderr).toBe(0);
    expect(r.stdout).toMatch(
      /^probe get_products → node reference-seller\.js \(stdio, MCP \d{4}-\d{2}-\d{2}, adcp-conformance reference seller/m,
    );
    expect(r.stdout).toMatch(/^request {2}tools\/call get_products\n {2}\{\n {4}"buying_mode": "brief",/m);
    expect(r.stdout).toMatch(/^answer {2}a JSON-RPC result · \d+ bytes · \d+ ms/m);
    expect(r.stdout).toMatch(/^payload {2}from structuredContent \(\/structuredContent\)\n {2}\{\n {4}"status": "completed",/m);
    // Every exchange check of the catalog has a verdict on the call, none failing.
    const shown = verdicts(r.stdout);
    expect([...shown.keys()].sort()).toEqual([...exchangeChecks].sort());
    expect([...shown.values()].filter((s) => s === 'fail' || s === 'warn')).toEqual([]);
    expect(shown.get('schema.adcp-response')).toBe('pass');
    expect(r.stdout).toMatch(/✓ conformant to AdCP \S+ per adcp-conformance \S+ \(this call\) · exit 0/);
  });

  test('--invalid: the error path is judged (error.validation applies and passes on the reference seller)', async () => {
    const r = await runCli(['probe', 'get_products', '--invalid', '--stdio', stdioSeller()]);
    expect(r.code, r.stdout + r.stderr).toBe(0);
    expect(r.stdout).toContain('tools/call get_products (the invalid-input probe)');
    expect(r.stdout).toMatch(/"buying_mode": 42/);
    expect(r.stdout).toMatch(/^payload {2}an AdCP error \(from structuredContent/m);
    expect(verdicts(r.stdout).get('error.validation')).toBe('pass');
  });

  test('a failing check shows its finding and fix hint, and exits 1', async () => {
    const r = await runCli(['probe', 'get_products', '--stdio', stdioSeller('--fault', 'context-not-echoed')]);
    expect(r.code, r.stdout + r.stderr).toBe(1);
    expect(verdicts(r.stdout).get('envelope.context-echo')).toBe('fail');
    const block = r.stdout.slice(r.stdout.indexOf('✗ envelope.context-echo'));
    expect(block).toMatch(/^ {6}at \/result\/structuredContent\/context: expected the sent context/m);
    const fix = catalog.find((c) => c.id === 'envelope.context-echo')!.fix;
    expect(block).toContain(`fix: ${fix}`);
    expect(r.stdout).toMatch(/✗ nonconformant .* \(this call\) · exit 1/);
  });

  // A valid request answered with an error ran no success rule: never "✓ conformant" (exit 3, incomplete:
  // MUST rules applied and stayed untested — docs/run.md "Exit codes"; not 1, the seller may refuse rightly).
  test('a valid request answered with an error: "success rules not exercised", incomplete, exit 3', async () => {
    const r = await runCli(['probe', 'get_products', '--args', '{"buying_mode":42}', '--stdio', stdioSeller()]);
    expect(r.code, r.stdout + r.stderr).toBe(3);
    expect(r.stdout).toMatch(/^payload {2}an AdCP error \(from structuredContent/m);
    expect(r.stdout).toMatch(
      /^\? success rules not exercised: the request was sent as a valid one and the seller answered with an error \(VALIDATION_ERROR: Invalid request: .*\), so no success rule of get_products ran\.$/m,
    );
    expect(r.stdout).toContain('judge the error path with --invalid');
    const shown = verdicts(r.stdout);
    for (const id of ['schema.adcp-response', 'envelope.structured-content', 'envelope.extractable'])
      expect(shown.get(id), id).toBe('untested');
    // The error-path rules that did run are still judged (and pass on the reference seller).
    expect(shown.get('error.adcp-error')).toBe('pass');
    expect(r.stdout).not.toMatch(/✓ conformant/);
    expect(r.stdout).toMatch(/⚠ incomplete: .*: success rules not exercised \(this call\) · exit 3/);
  });

  test('--invalid answered with an error is the error path, not a refusal of a valid request', async () => {
    const r = await runCli(['probe', 'get_products', '--invalid', '--stdio', stdioSeller()]);
    expect(r.code, r.stdout + r.stderr).toBe(0);
    expect(r.stdout).not.toContain('success rules not exercised');
  });

  test('a tool the agent does not list is a usage error (exit 2) with a did-you-mean, and is not called', async () => {
    const r = await runCli(['probe', 'get_prodcts', '--stdio', stdioSeller(), '--verbose']);
    expect(r.code, r.stdout + r.stderr).toBe(2);
    expect(r.stderr).toContain("adcp-conformance probe: the agent lists no tool 'get_prodcts' (did you mean 'get_products'?)");
    expect(r.stderr).toMatch(/^ {2}the agent lists \d+ tool\(s\): 'get_adcp_capabilities', 'get_products', /m);
    expect(r.stdout).not.toMatch(/nonconformant|conformant/);
    expect(r.stderr).not.toMatch(/"name":"get_prodcts"/); // --verbose shows the wire: no tools/call of it
    const far = await runCli(['probe', 'launch_rocket', '--stdio', stdioSeller()]);
    expect(far.code, far.stdout + far.stderr).toBe(2);
    expect(far.stderr).toMatch(/the agent lists no tool 'launch_rocket'\n/);
  });

  test('--args @FILE sends exactly those arguments (plus the harness context)', async () => {
    const dir = await tmp('probe-args');
    const file = join(dir, 'args.json');
    await writeFile(file, JSON.stringify({ buying_mode: 'wholesale' }));
    const r = await runCli(['probe', 'get_products', '--args', `@${file}`, '--stdio', stdioSeller()]);
    expect(r.code, r.stdout + r.stderr).toBe(0);
    expect(r.stdout).toMatch(/^request {2}tools\/call get_products\n {2}\{\n {4}"buying_mode": "wholesale",\n {4}"context": \{/m);
    expect(r.stdout).not.toContain('"brief"');
  });
});

describe('probe over HTTP (--url, --header, --verbose)', () => {
  let seller: { url: string; close(): Promise<void> };
  beforeAll(async () => {
    seller = await startHttpSeller();
  }, 60_000);
  afterAll(async () => {
    await seller?.close();
  });

  test('header values are secrets: redacted in the output and on the wire; --verbose prints the JSON-RPC exchange', async () => {
    const secret = 'probe-secret-7f3a9c';
    // The request carries the same text (in `brief`): every occurrence of a header value is redacted.
    const args = JSON.stringify({ buying_mode: 'brief', brief: `sports ${secret}` });
    const r = await runCli(['probe', 'get_products', '--url', seller.url, '--header', `X-Api-Key: ${secret}`, '--args', args, '--verbose']);
    expect(r.code, r.stdout + r.stderr).toBe(0);
    expect(r.stdout + r.stderr).not.toContain(secret);
    expect(r.stdout).toContain('"brief": "sports [REDACTED]"');
    const host = new URL(seller.url).host;
    expect(r.stdout).toContain(`probe get_products → ${host} (http, MCP`);
    // The wire: our requests (→) and the seller's answers (←), one line each, in order.
    const wire = r.stderr.split('\n').filter((l) => l.startsWith(`[${host}] `));
    expect(wire[0]).toMatch(/^\[[^\]]+\] → \{"method":"initialize",/);
    expect(wire[1]).toMatch(/^\[[^\]]+\] ← \{.*"protocolVersion"/);
    expect(wire.some((l) => /→ \{"method":"tools\/call","params":\{"name":"get_products",.*\[REDACTED\]/.test(l))).toBe(true);
    // The answer's text mirror comes first: `products` may only show there, JSON-escaped, before the cut.
    expect(wire.some((l) => /← \{.*\\?"products\\?":\[/.test(l))).toBe(true);
    expect(wire.every((l) => l.length < 2200)).toBe(true);
  });

  test('an unreachable URL exits 3 with the failing handshake', async () => {
    const r = await runCli(['probe', 'get_products', '--url', 'http://127.0.0.1:9/mcp']);
    expect(r.code, r.stdout + r.stderr).toBe(3);
    expect(r.stdout).toMatch(/unreachable: /);
    expect(verdicts(r.stdout).get('transport.initialize')).toBe('fail');
  });

  // probe starts a stdio seller before its own modules load (connect/stdio-spawn.ts): one that is gone
  // long before the session begins is still reported by its exit code and stderr, as one that dies later.
  test('a stdio seller that dies at once: its exit code and stderr, exit 3', async () => {
    const r = await runCli([
      'probe',
      'get_products',
      '--stdio',
      `'${process.execPath}' -e 'console.error("FATAL: no DB_URL"); process.exit(7)'`,
    ]);
    expect(r.code, r.stdout + r.stderr).toBe(3);
    expect(r.stdout).toContain('unreachable: the server exited with code 7 before answering initialize: FATAL: no DB_URL');
    expect(r.stdout).toContain('fix: run the command yourself, from the same directory, and fix the error it prints');
    expect(verdicts(r.stdout).get('transport.initialize')).toBe('fail');
  });
});

describe('probe of a config agent, and usage errors (exit 2)', () => {
  test('--config FILE --agent NAME picks the agent; a config of several agents needs --agent', async () => {
    const dir = await tmp('probe-config');
    const config = join(dir, 'agents.json');
    const agent = (name: string) => ({ name, transport: 'stdio', command: process.execPath, args: [SELLER_ENTRY, '--transport', 'stdio'] });
    await writeFile(config, JSON.stringify({ agents: [agent('first'), agent('second')] }));
    const picked = await runCli(['probe', 'list_creative_formats', '--config', config, '--agent', 'second']);
    expect(picked.code, picked.stdout + picked.stderr).toBe(0);
    expect(picked.stdout).toMatch(/^probe list_creative_formats → second \(stdio/m);
    const ambiguous = await runCli(['probe', 'list_creative_formats', '--config', config]);
    expect(ambiguous.code).toBe(2);
    expect(ambiguous.stderr).toMatch(/the config has 2 agents: name one with --agent/);
  });

  test.each([
    [['probe'], /which tool\?/],
    [['probe', 'a', 'b', '--stdio', 'x'], /one tool at a time/],
    [['probe', 'get_products', '--url', 'http://127.0.0.1:1/mcp', '--stdio', 'x'], /--url and --stdio cannot be used together/],
    [['probe', 'get_products', '--stdio', 'x', '--args', '{not json'], /--args: not JSON/],
    [['probe', 'get_products', '--stdio', 'x', '--args', '[1]'], /--args: the arguments must be a JSON object/],
    [
      ['probe', 'get_products', '--stdio', 'x', '--args', '@/nonexistent/args.json'],
      /--args @\/nonexistent\/args\.json: cannot read the file \(ENOENT\)/,
    ],
    [['probe', 'get_products', '--stdio', "'unterminated"], /--stdio: unterminated ' quote/],
    [['probe', 'get_products', '--url', 'ftp://x/mcp'], /--url: expected an http\(s\) URL/],
    [['probe', 'get_products', '--url', 'http://127.0.0.1:1/mcp', '--header', 'no colon here'], /--header: expected 'Name: value'/],
    [['probe', 'get_products', '--header', 'A: b'], /--header goes with --url/],
  ])('%j exits 2', async (args, message) => {
    const r = await runCli(args);
    expect(r.code, r.stdout + r.stderr).toBe(2);
    expect(r.stderr).toMatch(message);
    // One line and where the help is, not the whole help.
    expect(r.stderr.trimEnd().split('\n')).toHaveLength(2);
    expect(r.stderr).toMatch(/\nsee 'adcp-conformance probe --help'\n$/);
  });
});
