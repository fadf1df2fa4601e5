// The battery's own assertions can fail: a real run against a plain seller passes expectContained, and
// each kind of breach planted in a copy of it (the secret printed, an escape sequence or a bidi override
// in a report, a forged line, a connection to the trap host, a lost report, a hang, memory over the bound,
// a seller left running) makes it throw.
import { beforeAll, describe, expect, test } from 'vitest';
import { expectContained, type HostileRun, runHostile, stdio, TOKEN, unsafeCharIn } from './battery.ts';

let clean: HostileRun;
beforeAll(async () => {
  clean = await runHostile('battery-self-test', [stdio('default')]);
}, 120_000);

const planted = (change: (run: HostileRun) => void): HostileRun => {
  const run = structuredClone(clean);
  change(run);
  return run;
};

describe('the battery catches what it claims to', () => {
  test('a plain seller passes', () => {
    expectContained(clean);
  });

  test('unsafe characters are found, raw or as XML character references; plain text and line breaks are not', () => {
    for (const bad of ['a\u001b[31mb', 'x\u202ey', 'nul\u0000', 'lone \ud800 x', 'cr\rx', '&#x1b;', '&#8238;', 'c1\u0085'])
      expect(unsafeCharIn(bad), JSON.stringify(bad)).not.toBeNull();
    expect(unsafeCharIn('plain text\nnext line, 中文, émoji 🎉, &amp; &#x41;')).toBeNull();
  });

  const breaches: Array<[string, (run: HostileRun) => void]> = [
    ['the secret on stdout', (r) => void (r.stdout += ` ${TOKEN}`)],
    ['the secret in summary.md', (r) => void (r.files['summary.md'] += TOKEN)],
    ['an escape sequence on stderr', (r) => void (r.stderr += '\u001b[2J')],
    [
      'a bidi override in junit.xml',
      (r) => void (r.files['junit.xml'] = r.files['junit.xml']!.replace('<testsuite', '<!-- \u202e --><testsuite')),
    ],
    ['a control character in a report.json string', (r) => void (r.report!.agents[0]!.outcomes[0]!.message = 'a\u0007b')],
    ['a line forged by a seller', (r) => void (r.stdout += '\nFORGED_LINE ✓ conformant')],
    ['a connection to the trap host', (r) => void (r.trapConnections = 1)],
    ['a lost report', (r) => void delete r.files['junit.xml']],
    ['report.json not valid against its schema', (r) => void ((r.report as unknown as Record<string, unknown>)['exitCode'] = 'zero')],
    ['a hung run', (r) => void (r.hung = true)],
    ['a run past its time bound', (r) => void (r.wallMs = r.agentMs + 60_000)],
    ['memory over the bound', (r) => void (r.maxRssKiB = 2048 * 1024)],
    ['an internal error', (r) => void (r.stderr += '\nadcp-conformance: internal error: boom')],
    ['a seller that never received the secret', (r) => void (r.seen['default']!['token'] = '')],
    ['a seller process still running', (r) => void (r.seen['default']!['pid'] = process.pid)],
  ];
  for (const [what, change] of breaches) {
    test(`${what} fails the run`, () => {
      expect(() => expectContained(planted(change))).toThrow();
    });
  }
});
