// Why a seller is down, from real failures: a closed loopback port, a name under `.invalid` (RFC 2606:
// never resolves), loopback HTTP servers answering initialize with 404 / 500 or speaking plain HTTP to an
// https URL or serving an untrusted certificate, and real child processes that cannot start, crash, exit
// or hang. Each gets its own cause, a one-line detail and a fix that fits it.
import { execFileSync } from 'node:child_process';
import { chmod, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { createServer as createHttpServer, type Server } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import { createServer as createNetServer, type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { captureAgent } from '../../harness/capture/capture-agent.ts';
import { downReason } from '../../harness/capture/down-reason.ts';
import type { AgentCapture } from '../../harness/record/exchange.ts';
import type { AgentConfig } from '../../harness/config/types.ts';
import type { DownReason } from '../../harness/report/model.ts';
import { httpAgent, stdioAgent } from './agents.ts';

const timeouts = { connectMs: 5_000, callMs: 2_000, agentMs: 20_000 };
let dir = '';

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'adcp-down-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

async function down(agent: AgentConfig): Promise<{ capture: AgentCapture; down: DownReason }> {
  const capture = await captureAgent(agent);
  expect(capture.initialize.ok).toBe(false);
  const reason = downReason(capture);
  expect(reason).toBeDefined();
  return { capture, down: reason! };
}

async function listen(server: Server): Promise<string> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `127.0.0.1:${(server.address() as AddressInfo).port}`;
}

async function close(server: Server): Promise<void> {
  server.closeAllConnections();
  await new Promise<void>((resolve) => server.close(() => resolve()));
}

/** A stdio "seller" written as a script in the scratch directory, run with this Node. */
async function script(name: string, source: string): Promise<AgentConfig> {
  const file = join(dir, name);
  await writeFile(file, source);
  return stdioAgent(name, { args: [file], timeouts });
}

describe('HTTP sellers that are down', () => {
  test('a closed port: connection refused at host:port, and the fix asks whether the server runs there', async () => {
    const probe = createNetServer();
    const address = await new Promise<string>((resolve) =>
      probe.listen(0, '127.0.0.1', () => resolve(`127.0.0.1:${(probe.address() as AddressInfo).port}`)),
    );
    await new Promise<void>((resolve) => probe.close(() => resolve()));
    const { down: d } = await down(httpAgent(`http://${address}/mcp`, { timeouts }));
    expect(d).toEqual({
      cause: 'connection-refused',
      detail: `connection refused at ${address}`,
      fix: expect.stringContaining(`is the server running and listening on ${address}?`),
    });
  });

  test('a host name that does not resolve: dns, naming the host', async () => {
    const { down: d } = await down(httpAgent('http://adcp-seller.example.invalid/mcp', { timeouts }));
    expect(d.cause).toBe('dns');
    expect(d.detail).toContain('adcp-seller.example.invalid');
    expect(d.fix).toContain('host name');
  });

  test.for([
    [404, 'Not Found', 'check the URL'],
    [500, 'Internal Server Error', 'check its logs'],
  ] as const)('initialize answered with HTTP %i: http-status with the status and its reason', async ([status, reason, fix]) => {
    const server = createHttpServer((_req, res) => res.writeHead(status, { 'content-type': 'text/plain' }).end('no MCP here'));
    const address = await listen(server);
    try {
      const { down: d } = await down(httpAgent(`http://${address}/mcp`, { timeouts }));
      expect(d.cause).toBe('http-status');
      expect(d.detail).toBe(`initialize got HTTP ${status} ${reason} (body: no MCP here)`);
      expect(d.fix).toContain(fix);
    } finally {
      await close(server);
    }
  });

  test('an https URL to a plain-HTTP server: a TLS failure whose fix says the port speaks plain HTTP', async () => {
    const server = createHttpServer((_req, res) => res.end('plain'));
    const address = await listen(server);
    try {
      const { down: d } = await down(httpAgent(`https://${address}/mcp`, { timeouts }));
      expect(d.cause).toBe('tls');
      expect(d.detail).toMatch(/^TLS handshake failed \(ERR_SSL_WRONG_VERSION_NUMBER\): wrong version number$/);
      expect(d.fix).toContain('use an http:// URL');
    } finally {
      await close(server);
    }
  });

  const openssl = (() => {
    try {
      execFileSync('openssl', ['version'], { stdio: 'ignore' });
      return true;
    } catch {
      return false;
    }
  })();
  test.skipIf(!openssl)('an https server with a self-signed certificate: a TLS failure about trust', async () => {
    const key = join(dir, 'key.pem');
    const cert = join(dir, 'cert.pem');
    execFileSync(
      'openssl',
      ['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-keyout', key, '-out', cert, '-days', '1', '-subj', '/CN=127.0.0.1'],
      {
        stdio: 'ignore',
      },
    );
    const server = createHttpsServer({ key: await readFile(key), cert: await readFile(cert) }, (_req, res) => res.end('{}'));
    const address = await listen(server as unknown as Server);
    try {
      const { down: d } = await down(httpAgent(`https://${address}/mcp`, { timeouts }));
      expect(d.cause).toBe('tls');
      expect(d.detail).toContain('DEPTH_ZERO_SELF_SIGNED_CERT');
      expect(d.fix).toContain('not trusted');
    } finally {
      await close(server as unknown as Server);
    }
  });

  test('a server that accepts and never answers: timeout, naming initialize and how long', async () => {
    const server = createHttpServer(() => {});
    const address = await listen(server);
    try {
      const { down: d } = await down(httpAgent(`http://${address}/mcp`, { timeouts: { ...timeouts, connectMs: 700 } }));
      expect(d).toMatchObject({ cause: 'timeout', detail: 'no answer to initialize within 700 ms' });
      expect(d.fix).toContain('timeouts.connect');
    } finally {
      await close(server);
    }
  });
});

describe('stdio sellers that are down', () => {
  test('a command that does not exist: command-not-found, and the fix names the command and --cwd', async () => {
    const { down: d } = await down(stdioAgent('x', { command: 'adcp-seller-that-is-not-installed', args: [], timeouts }));
    expect(d).toEqual({
      cause: 'command-not-found',
      detail: 'the command adcp-seller-that-is-not-installed was not found',
      fix: expect.stringContaining('--cwd'),
    });
  });

  test('a working directory that does not exist: said as such', async () => {
    const { down: d } = await down(stdioAgent('x', { command: 'node', args: [], cwd: join(dir, 'no-such-dir'), timeouts }));
    expect(d.cause).toBe('command-not-found');
    expect(d.detail).toBe(`the working directory ${join(dir, 'no-such-dir')} does not exist`);
  });

  test('a file without the execute bit: not-executable, fixed by chmod or an interpreter', async () => {
    const file = join(dir, 'server.sh');
    await writeFile(file, '#!/bin/sh\nexit 0\n');
    await chmod(file, 0o644);
    const { down: d } = await down(stdioAgent('x', { command: file, args: [], timeouts }));
    expect(d.cause).toBe('not-executable');
    expect(d.detail).toContain(file);
    expect(d.fix).toContain('chmod +x');
  });

  test('a script that throws at start: exited, quoting the Error: line of the stack, not its head; no initialize hint', async () => {
    const agent = await script(
      'throws.mjs',
      "console.error('seller v1 starting');\nconst boot = () => { throw new Error(\"Cannot find module 'x'\"); };\nboot();\n",
    );
    const { capture, down: d } = await down(agent);
    // The stack really is there, headed by the source line that threw.
    expect(capture.stdio?.stderrTail).toMatch(/throws\.mjs:2[\s\S]*Error: Cannot find module 'x'\n\s+at boot/);
    expect(d).toEqual({
      cause: 'exited',
      detail: "the server exited with code 1 before answering initialize: Error: Cannot find module 'x'",
      fix: 'run the command yourself, from the same directory, and fix the error it prints',
    });
    expect(d.fix).not.toContain('initialize');
    // The recorded initialize failure quotes the same line.
    expect(capture.initialize).toMatchObject({
      ok: false,
      failure: { message: expect.stringMatching(/stderr: Error: Cannot find module 'x'$/) },
    });
  });

  test('an exit code with a FATAL line: the code and the line', async () => {
    const agent = await script('exits.mjs', "console.error('FATAL: SELLER_TOKEN is not set');\nprocess.exit(3);\n");
    const { down: d } = await down(agent);
    expect(d.cause).toBe('exited');
    expect(d.detail).toBe('the server exited with code 3 before answering initialize: FATAL: SELLER_TOKEN is not set');
  });

  test('killed by a signal: the signal', async () => {
    const agent = await script('killed.mjs', "process.kill(process.pid, 'SIGKILL');\n");
    const { down: d } = await down(agent);
    expect(d).toMatchObject({ cause: 'exited', detail: 'the server was killed by signal SIGKILL before answering initialize' });
  });

  test('exit code 0 at once: the fix asks whether this command starts a server', async () => {
    const agent = await script('done.mjs', "console.log('usage: seller [serve]');\n");
    const { down: d } = await down(agent);
    expect(d.cause).toBe('exited');
    expect(d.detail).toMatch(/^the server exited with code 0 before answering initialize/);
    expect(d.fix).toContain('keep running');
  });

  test('a server that never answers: timeout after the connect timeout', async () => {
    const agent = await script('silent.mjs', 'setInterval(() => {}, 1000);\n');
    const { down: d } = await down({ ...agent, timeouts: { ...timeouts, connectMs: 600 } });
    expect(d).toMatchObject({ cause: 'timeout', detail: 'no answer to initialize within 600 ms' });
    expect(d.fix).toContain('stdin');
  });

  test('initialize answered with an unsupported revision: protocol, with the initialize fix', async () => {
    const agent = await script(
      'old-revision.mjs',
      `process.stdin.on('data', (d) => { const id = JSON.parse(String(d).split('\\n')[0]).id;
        process.stdout.write(JSON.stringify({ jsonrpc: '2.0', id, result: { protocolVersion: '1999-01-01', capabilities: {}, serverInfo: { name: 's', version: '1' } } }) + '\\n'); });\n`,
    );
    const { down: d } = await down(agent);
    expect(d.cause).toBe('protocol');
    expect(d.detail).toContain('1999-01-01');
    expect(d.fix).toContain('protocolVersion');
  });
});
