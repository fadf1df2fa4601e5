// Hostile battery · hostile text: invalid UTF-8 bytes and lone surrogates (in serverInfo, tool names,
// error messages), NUL / ANSI escapes / bidi overrides / line breaks in tool names, a seller that dies
// at start-up shouting escape sequences (and its token) on stderr, a protocolVersion made of escape
// sequences, and a crash mid-call. What reaches a report or the terminal is stripped or escaped (every
// run checks it); the checks that judge such text name it.
import { describe, expect, test } from 'vitest';
import { agentOf, expectContained, expectFinding, family, stdio } from './battery.ts';

const text = family('text', [
  stdio('invalid-utf8'),
  stdio('lone-surrogates'),
  stdio('nul-ansi-tool-names'),
  stdio('ansi-error-message'),
  stdio('ansi-stderr-crash'),
  stdio('ansi-initialize'),
  stdio('exit-mid-call'),
]);

describe.concurrent('hostile text', () => {
  test('the run stays bounded, reports are valid (UTF-8, XML), no unsafe character or secret anywhere', async () => {
    expectContained(await text.of('invalid-utf8'));
  });

  test('invalid-utf8: messages that are not UTF-8 are named; their bad bytes are read (and reported) as U+FFFD', async () => {
    const run = await text.of('invalid-utf8');
    expectFinding(run, 'invalid-utf8', 'transport.jsonrpc', /was not valid UTF-8/);
    expectFinding(run, 'invalid-utf8', 'transport.tool-names', /bad_\uFFFD+_name/, 'warn');
  });

  test('lone-surrogates: lone surrogates never reach a report (XML forbids them), and are named', async () => {
    const run = await text.of('lone-surrogates');
    expectFinding(run, 'lone-surrogates', 'transport.tool-names', /lone_/, 'warn');
  });

  test('nul-ansi-tool-names: names with NUL, ANSI, bidi and line breaks are named (escaped)', async () => {
    const o = expectFinding(await text.of('nul-ansi-tool-names'), 'nul-ansi-tool-names', 'transport.tool-names', /5 name\(s\)/, 'warn');
    expect(o.found).toMatch(/get\\u0000products/); // shown as an escape, not as the character
  });

  test('ansi-error-message: escape sequences and NUL in an AdCP error message are named (as escapes)', async () => {
    const o = expectFinding(await text.of('ansi-error-message'), 'ansi-error-message', 'error.message-safety', /U\+001B/, 'warn');
    expect(o.found).toMatch(/\\u001b\[31m/);
  });

  test('ansi-stderr-crash: the start-up failure quotes stderr stripped of escapes, token redacted', async () => {
    const run = await text.of('ansi-stderr-crash');
    expectFinding(
      run,
      'ansi-stderr-crash',
      'transport.initialize',
      // Its FATAL line (the last error line of stderr), stripped of escapes; the token is redacted in the tail.
      /exited with code 1 before answering initialize: FATAL: /,
    );
    expect(agentOf(run, 'ansi-stderr-crash').stderrTail).toMatch(/FATAL: .*token=\[REDACTED\]/);
  });

  test('ansi-initialize: a protocolVersion of escape sequences is named, stripped', async () => {
    expectFinding(
      await text.of('ansi-initialize'),
      'ansi-initialize',
      'transport.initialize',
      /initialize was answered, but not usably: Server's protocol version is not supported: /,
    );
  });

  test('exit-mid-call: the crash is named at once with its exit code', async () => {
    const run = await text.of('exit-mid-call');
    expectFinding(run, 'exit-mid-call', 'transport.call', /closed: the server process exited \(code 3\) before answering tools\/call/);
  });
});
