// Findings say where they are in the seller's answer, never where they are in the harness's own capture
// record: `/exchanges/4/…`, `/outcome/failure`, `/stdio/stdoutJunk/0`, `/http/observations/2/status`,
// `/scenarios/1/refusal/status` and `/initialize` become words; a pointer into the seller's payload stays.
import { describe, expect, test } from 'vitest';
import type { AgentCapture } from '../../harness/record/exchange.ts';
import { judgeAgent } from '../../harness/checks/engine.ts';
import { placeOf, placeText } from '../../harness/checks/place.ts';
import { capture, noAnswer, result } from '../checks/build.ts';

const INTERNAL =
  /\/exchanges\/\d|\/outcome\/|\/stdio\/|\/http\/observations|\/scenarios\/\d|\/aborted|\/protocolViolations|at \/initialize/;

describe('placeOf', () => {
  test.for([
    ['/result/structuredContent/products/0/name', 'at /result/structuredContent/products/0/name'],
    ['/error/data/adcp_error/code', 'at /error/data/adcp_error/code'],
    ['/tools/3/name', 'at /tools/3/name'],
    ['', 'at /'],
    ['/exchanges/12/result/isError', 'at /result/isError'],
    ['/exchanges/4/result/structuredContent/adcp_version', 'at /result/structuredContent/adcp_version'],
    ['/outcome/failure', 'on the call'],
    ['/aborted', 'in the session'],
    ['/protocolViolations/0', 'on the wire'],
    ['/stdio/stdoutJunk/0', "on the server's stdout"],
    ['/initialize', 'at initialize'],
    ['/initialize/protocolVersion', 'in the initialize answer at /result/protocolVersion'],
    ['/http/observations/2/status', 'in the HTTP status of the answer'],
    ['/http/observations/0/contentType', "in the answer's Content-Type header"],
    ['/http/observations/5/sessionId', "in the answer's Mcp-Session-Id header"],
    ['/scenarios/1/refusal/status', 'in the HTTP status of the answer'],
    ['/scenarios/1/refusals/3/status', 'in the HTTP status of the answer'],
    ['/scenarios/0/refusal/wwwAuthenticate', "in the answer's WWW-Authenticate header"],
  ] as const)('%s → %s', ([pointer, text]) => {
    expect(placeText(placeOf(pointer))).toBe(text);
  });

  test('a pointer into the seller payload is kept as the pointer; one into the capture is dropped', () => {
    expect(placeOf('/exchanges/3/result/isError')).toEqual({ pointer: '/result/isError' });
    expect(placeOf('/outcome/failure')).toEqual({ words: 'on the call' });
  });
});

describe('outcomes as the engine reports them', () => {
  const only = (a: AgentCapture, id: string) => {
    const mine = judgeAgent(a, {}, (c) => c === id).filter((o) => o.status === 'fail' || o.status === 'warn');
    expect(mine.length).toBeGreaterThan(0);
    for (const o of mine) expect(o.message).not.toMatch(INTERNAL);
    return mine;
  };

  test('a call with no answer: "on the call", no pointer, expected and found kept', () => {
    const [o] = only(capture({ exchanges: [noAnswer('timeout')] }), 'transport.call');
    expect(o).toMatchObject({
      message: expect.stringMatching(/^on the call: expected .*; found timeout: timeout happened$/),
      found: 'timeout: timeout happened',
    });
    expect(o!.pointer).toBeUndefined();
  });

  test('a session cut short: "in the session"', () => {
    const [o] = only(capture({ aborted: { kind: 'closed', message: 'the server process exited (code 70)' } }), 'transport.call');
    expect(o!.message).toMatch(/^in the session: expected the session to run to the end/);
  });

  test("junk on stdout: on the server's stdout", () => {
    const [o] = only(capture({ stdio: { stdoutJunk: ['Listening on 3000'], stderrTail: '' } }), 'transport.stdio-stdout');
    expect(o!.message).toMatch(/^on the server's stdout: expected only JSON-RPC messages/);
  });

  test('initialize that failed says why it is down; a bad revision points into the initialize answer', () => {
    const down = capture({
      initialize: { ok: false, failure: { kind: 'connect', message: 'ECONNREFUSED: fetch failed: connect ECONNREFUSED 127.0.0.1:40123' } },
      agent: { name: 'unit', transport: 'http', production: false, sandbox: false },
      stdio: undefined,
    });
    expect(only(down, 'transport.initialize')[0]!.message).toBe(
      'at initialize: expected an initialize answer within the connect timeout; found connection refused at 127.0.0.1:40123',
    );
    const old = capture({
      initialize: { ok: true, protocolVersion: '1999-01-01', serverInfo: { name: 's', version: '1' }, durationMs: 1 },
    });
    const [o] = only(old, 'transport.initialize');
    expect(o).toMatchObject({ pointer: '/result/protocolVersion' });
    expect(o!.message).toMatch(/^in the initialize answer at \/result\/protocolVersion: expected one of /);
  });

  test("an HTTP answer's Content-Type: words, not the observation's index", () => {
    const a = capture({
      agent: { name: 'unit', transport: 'http', production: false, sandbox: false },
      stdio: undefined,
      http: {
        observations: [
          { method: 'initialize', status: 200, contentType: 'application/json' },
          { method: 'tools/list', status: 200, contentType: 'text/plain' },
        ],
      },
    });
    expect(only(a, 'transport.http-response')[0]!.message).toMatch(
      /^in the answer's Content-Type header: expected application\/json or text\/event-stream/,
    );
  });

  test('a finding in the seller payload keeps its pointer', () => {
    const a = capture({ exchanges: [result({ content: [{ type: 'text', text: 'plain words' }], structuredContent: [1, 2] })] });
    const fails = judgeAgent(a, {}).filter((o) => o.status === 'fail' && o.pointer?.startsWith('/result'));
    expect(fails.length).toBeGreaterThan(0);
    for (const o of fails) expect(o.message).toMatch(/^at \/result/);
  });
});
