// Live stdio sessions against real child processes: the official-SDK seller and the hostile one.
import { tmpdir } from 'node:os';
import { describe, expect, test } from 'vitest';
import { captureAgent } from '../../harness/capture/capture-agent.ts';
import type { AgentCapture, Exchange } from '../../harness/record/exchange.ts';
import { byTool, probeCalls, probes, stdioAgent } from './agents.ts';

const alive = (pid: number): boolean => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};
const structured = (x: Exchange | undefined): Record<string, unknown> => {
  if (x?.outcome.kind !== 'result') throw new Error(`expected a result, got ${JSON.stringify(x?.outcome)}`);
  return (x.outcome.result as { structuredContent: Record<string, unknown> }).structuredContent;
};

describe('stdio: official SDK seller', () => {
  test('default probes are captured raw, with the pinned protocol revision', async () => {
    const capture = await captureAgent(stdioAgent('sdk-seller.mjs', { protocolVersion: '2025-06-18' }));
    expect(capture.initialize).toMatchObject({ ok: true, protocolVersion: '2025-06-18', serverInfo: { name: 'sdk-seller' } });
    expect(capture.toolsList).toMatchObject({ ok: true, pages: 1 });
    // Only tools the agent lists; get_adcp_capabilities first; one invalid call.
    expect(probeCalls(capture.exchanges).map((x) => `${x.tool}:${x.intent}`)).toEqual([
      'get_adcp_capabilities:valid',
      'get_products:valid',
      'get_products:invalid',
    ]);
    for (const x of capture.exchanges) {
      expect(x.protocolVersion).toBe('2025-06-18');
      expect(x.advertised?.inputSchema).toMatchObject({ type: 'object' });
      expect(x.bytes).toBeGreaterThan(0);
    }
    // Every call carries a context of its own, except the one sent without it on purpose (context-not-fabricated).
    const withContext = capture.exchanges.filter((x) => x.scenario?.name !== 'context-not-fabricated');
    expect(withContext.length).toBe(capture.exchanges.length - 1);
    const ids = withContext.map((x) => (x.request.arguments['context'] as { correlation_id: string }).correlation_id);
    expect(new Set(ids).size).toBe(ids.length);
    // The seller echoed our context: it is recorded as sent.
    expect(structured(capture.exchanges[0])['context']).toEqual(capture.exchanges[0]!.request.arguments['context']);
    const invalid = capture.exchanges[2]!;
    expect(invalid.outcome).toMatchObject({
      kind: 'result',
      result: { isError: true, structuredContent: { adcp_error: { code: 'VALIDATION_ERROR' } } },
    });
    expect(capture.stdio).toEqual({ spawned: true, stdoutJunk: [], stderrTail: '' });
    expect(capture.protocolViolations).toEqual([]);
    expect(capture.aborted).toBeUndefined();
  });
});

describe('stdio: hostile seller', () => {
  let capture: AgentCapture;
  const run = async () =>
    (capture ??= await captureAgent(
      stdioAgent('hostile-stdio.mjs', {
        args: [`${stdioAgent('hostile-stdio.mjs').args[0]}`, '--junk-at-start'],
        probes: probes(
          'env_probe',
          'odd_result',
          'my_tool',
          'hang',
          'junk',
          'huge',
          'bad_envelope',
          'get_adcp_capabilities',
          'crash',
          'odd_result',
        ),
      }),
    ));

  test('tools/list follows nextCursor and keeps raw tools, including an outputSchema $id Ajv rejects', async () => {
    const c = await run();
    expect(c.toolsList).toMatchObject({ ok: true, pages: 2 });
    const tools = c.toolsList?.ok ? c.toolsList.tools : [];
    expect(tools).toHaveLength(13);
    expect(byTool(c.exchanges, 'my_tool')[0]?.advertised?.outputSchema).toMatchObject({ $id: 'my_tool:output' });
    expect(byTool(c.exchanges, 'my_tool')[0]?.outcome.kind).toBe('result');
  });

  test('a result keeps unknown keys, odd types and __proto__ keys exactly as sent', async () => {
    const c = await run();
    const x = byTool(c.exchanges, 'odd_result')[0]!;
    expect(x.outcome.kind).toBe('result');
    const result = (x.outcome as { result: Record<string, unknown> }).result;
    expect(result['isError']).toBe('true');
    expect(result['x_unknown']).toEqual({ nested: [1, 'two', null] });
    expect((result['content'] as Array<Record<string, unknown>>)[0]!['x_block_extra']).toBe(7);
    const sc = result['structuredContent'] as Record<string, unknown>;
    expect(Object.keys(sc)).toEqual(['__proto__', 'constructor', 'a']);
    expect(Object.getPrototypeOf(sc)).toBe(Object.prototype);
    expect(({} as Record<string, unknown>)['polluted']).toBeUndefined();
  });

  test('a hung call ends at its call timeout and the next probe still runs', async () => {
    const c = await run();
    const hang = byTool(c.exchanges, 'hang')[0]!;
    expect(hang.outcome).toMatchObject({ kind: 'transport-error', failure: { kind: 'timeout' } });
    const after = c.exchanges[c.exchanges.indexOf(hang) + 1]!;
    expect(after.tool).toBe('junk');
    expect(after.outcome.kind).toBe('result');
  });

  test('non-JSON-RPC stdout lines are recorded as junk, and the call still answers', async () => {
    const c = await run();
    expect(c.stdio?.stdoutJunk).toEqual([
      'starting hostile seller v1 (this line is not JSON-RPC)',
      'DEBUG: handling junk call',
      '{"not":"json-rpc"}',
      '\u001b[31mcoloured log line\u001b[0m',
    ]);
    expect(byTool(c.exchanges, 'junk')[0]?.outcome.kind).toBe('result');
  });

  test('a 200 MB line is cut at the byte cap; the session goes on', async () => {
    const c = await run();
    const huge = byTool(c.exchanges, 'huge')[0]!;
    expect(huge.outcome).toMatchObject({ kind: 'transport-error', failure: { kind: 'oversize' } });
    const seen = (huge.outcome as { failure: { bytesSeen: number } }).failure.bytesSeen;
    expect(seen).toBeGreaterThan(1_114_112);
    expect(seen).toBeLessThan(1_114_112 + 1024 * 1024);
    expect(byTool(c.exchanges, 'get_adcp_capabilities')[0]?.outcome.kind).toBe('result');
  });

  test('a malformed JSON-RPC answer is a protocol failure, not a hang', async () => {
    const c = await run();
    expect(byTool(c.exchanges, 'bad_envelope')[0]?.outcome).toMatchObject({
      kind: 'transport-error',
      failure: { kind: 'protocol', message: expect.stringContaining('`result` is a string') },
    });
  });

  test('a crash mid-call: the call is closed, the exit is recorded, the rest is cut short, the process is gone', async () => {
    const c = await run();
    expect(byTool(c.exchanges, 'crash')[0]?.outcome).toMatchObject({
      kind: 'transport-error',
      failure: { kind: 'closed', message: expect.stringContaining('code 3') },
    });
    expect(c.stdio?.exit).toEqual({ code: 3, signal: null });
    expect(c.stdio?.stderrTail).toContain('crashing mid-call');
    expect(c.aborted).toMatchObject({ kind: 'closed' });
    expect(byTool(c.exchanges, 'odd_result')).toHaveLength(1); // the probe after the crash never ran
    const pid = structured(byTool(c.exchanges, 'env_probe')[0])['pid'] as number;
    expect(alive(pid)).toBe(false);
  });
});

describe('stdio: process environment and lifecycle', () => {
  test('only a minimal safe environment plus the configured env; cwd as configured; the process is reaped', async () => {
    process.env['ADCP_CONFORMANCE_PARENT_ONLY'] = 'must-not-leak';
    try {
      const secret = 'env-secret-value-123';
      const capture = await captureAgent(
        stdioAgent('hostile-stdio.mjs', { env: { FIXTURE_MARKER: secret }, secrets: [secret], cwd: tmpdir(), probes: probes('env_probe') }),
      );
      // The fixture lists get_adcp_capabilities: the AdCP handshake goes first (issue 18), so the probe is found by name.
      const payload = structured(byTool(capture.exchanges, 'env_probe')[0]);
      expect(payload['keys']).toContain('FIXTURE_MARKER');
      expect(payload['keys']).toContain('PATH');
      expect(payload['keys']).not.toContain('ADCP_CONFORMANCE_PARENT_ONLY');
      expect(payload['cwd']).toBe(tmpdir());
      // the configured env value is a secret: redacted from what the seller sent back
      expect(payload['marker']).toBe('[REDACTED]');
      expect(JSON.stringify(capture)).not.toContain(secret);
      expect(capture.stdio?.exit).toBeUndefined(); // closed by us, not a crash
      expect(alive(payload['pid'] as number)).toBe(false);
    } finally {
      delete process.env['ADCP_CONFORMANCE_PARENT_ONLY'];
    }
  });

  test('a command that cannot be spawned is a connect failure, not a throw', async () => {
    const capture = await captureAgent(stdioAgent('x', { command: '/nonexistent/adcp-seller', args: [] }));
    expect(capture.initialize).toMatchObject({ ok: false, failure: { kind: 'connect', message: expect.stringContaining('ENOENT') } });
    expect(capture.exchanges).toEqual([]);
  });

  test('the agent timeout bounds the whole run: probes left are not run, the capture says why', async () => {
    const capture = await captureAgent(
      stdioAgent('hostile-stdio.mjs', {
        timeouts: { connectMs: 10_000, callMs: 30_000, agentMs: 4_000 },
        probes: probes('hang', 'get_adcp_capabilities'),
      }),
    );
    expect(capture.aborted).toMatchObject({ kind: 'timeout', message: expect.stringContaining('agent timeout') });
    // The AdCP handshake (issue 18) went first and answered; then the hang used up the agent's time, and the
    // configured get_adcp_capabilities probe after it never ran.
    expect(capture.exchanges.map((x) => [x.tool, x.handshake === true])).toEqual([
      ['get_adcp_capabilities', true],
      ['hang', false],
    ]);
    expect(capture.exchanges[1]).toMatchObject({ tool: 'hang', outcome: { kind: 'transport-error', failure: { kind: 'timeout' } } });
    expect(byTool(capture.exchanges, 'get_adcp_capabilities').filter((x) => !x.handshake)).toHaveLength(0);
  });

  test('a protocol revision the SDK does not support fails initialize as a protocol failure', async () => {
    const agent = stdioAgent('hostile-stdio.mjs');
    const capture = await captureAgent({ ...agent, args: [...agent.args, '--protocol', '1999-01-01'] });
    expect(capture.initialize).toMatchObject({ ok: false, failure: { kind: 'protocol', message: expect.stringContaining('1999-01-01') } });
  });

  test('an aborted run signal cuts the agent short and still returns a capture', async () => {
    const controller = new AbortController();
    const pending = captureAgent(
      stdioAgent('hostile-stdio.mjs', {
        timeouts: { connectMs: 10_000, callMs: 30_000, agentMs: 50_000 },
        probes: probes('hang', 'odd_result'),
      }),
      {
        signal: controller.signal,
        onProgress: (e) => {
          if (e.step === 'call hang') setTimeout(() => controller.abort(), 100);
        },
      },
    );
    const capture = await pending;
    expect(capture.aborted).toMatchObject({ kind: 'timeout', message: 'the run was cancelled' });
    expect(byTool(capture.exchanges, 'odd_result')).toHaveLength(0);
  });
});

describe('stdio: single misbehaviours (mini-stdio.mjs)', () => {
  const mini = (flag: string, over: Parameters<typeof stdioAgent>[1] = {}) => {
    const agent = stdioAgent('mini-stdio.mjs', { probes: probes('get_adcp_capabilities'), ...over });
    return { ...agent, args: [...agent.args, flag] };
  };

  test('a secret cut by the junk-line or stderr-tail limits leaves no part of itself behind', async () => {
    const secret = 'sekrit-ABCDEFGHIJ-0123456789';
    const capture = await captureAgent(mini('--leak', { env: { SELLER_KEY: secret }, secrets: [secret] }));
    expect(capture.stdio?.stdoutJunk[0]).toBe(`${'x'.repeat(290)}[REDACTED]`);
    const text = JSON.stringify(capture);
    for (const part of ['sekrit-ABC', 'ABCDEFGHIJ', '0123456789']) expect(text).not.toContain(part);
    expect(capture.stdio?.stderrTail).toMatch(/^y+$/);
  });

  test('an answer with our id but `jsonrpc` other than "2.0" is a protocol failure at once, not a timeout', async () => {
    const capture = await captureAgent(mini('--bad-jsonrpc', { timeouts: { connectMs: 10_000, callMs: 5_000, agentMs: 50_000 } }));
    const x = capture.exchanges[0]!;
    expect(x.outcome).toMatchObject({
      kind: 'transport-error',
      failure: { kind: 'protocol', message: expect.stringContaining('`jsonrpc` is not "2.0"') },
    });
    expect(x.durationMs).toBeLessThan(5_000); // before the call timeout
    expect(capture.stdio?.stdoutJunk).toHaveLength(1); // still recorded as a non-JSON-RPC line
  });

  test('a server that dies while a child it forked holds stdout open: the call is closed, not timed out, and the child is reaped', async () => {
    const capture = await captureAgent(mini('--fork-crash', { timeouts: { connectMs: 10_000, callMs: 30_000, agentMs: 60_000 } }));
    const x = capture.exchanges[0]!;
    expect(x.outcome).toMatchObject({ kind: 'transport-error', failure: { kind: 'closed' } });
    expect(x.durationMs).toBeLessThan(15_000); // well before the 30 s call timeout
    expect(capture.stdio?.exit).toEqual({ code: 3, signal: null });
    const pid = Number(/child (\d+)/.exec(capture.stdio?.stderrTail ?? '')?.[1]);
    expect(pid).toBeGreaterThan(0);
    const alive = (): boolean => {
      try {
        process.kill(pid, 0);
        return true;
      } catch {
        return false;
      }
    };
    for (let i = 0; i < 50 && alive(); i++) await new Promise((r) => setTimeout(r, 100));
    expect(alive()).toBe(false);
  });

  test('agentMs bounds the wall time, close of a process that ignores stdin EOF and SIGTERM included', async () => {
    const t0 = performance.now();
    const capture = await captureAgent(
      mini('--stubborn', {
        probes: probes('env_probe', 'get_adcp_capabilities'),
        timeouts: { connectMs: 10_000, callMs: 30_000, agentMs: 1_000 },
      }),
    );
    // Bounded by the 1 s agent timeout, not the 30 s call timeout (margin for a loaded machine).
    expect(performance.now() - t0).toBeLessThan(15_000);
    expect(capture.aborted).toMatchObject({ kind: 'timeout' });
  });
});
