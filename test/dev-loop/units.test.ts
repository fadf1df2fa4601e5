// The dev loop's small pieces: the command-line agent, the wire log, the watch loop's bookkeeping.
import { describe, expect, test } from 'vitest';
import { adhocAgent, envEntries, splitCommandLine } from '../../harness/run/dev/adhoc.ts';
import { DEFAULT_TIMEOUTS } from '../../harness/config/defaults.ts';
import { devOptionsOf, normalizeWatchArg, timeoutSeconds } from '../../harness/run/dev/dev-options.ts';
import { waitingLine, waitingText } from '../../harness/run/progress.ts';
import { UsageError } from '../../harness/run/options.ts';
import { changesSince, compactLine, watchSetup, type RunSnapshot } from '../../harness/run/dev/watch.ts';
import { wireLine } from '../../harness/run/wire-log.ts';

describe('splitCommandLine', () => {
  test.each([
    ['node seller.js --port 1', ['node', 'seller.js', '--port', '1']],
    ["  node  'my seller.js'  ", ['node', 'my seller.js']],
    ['node "a \\"b\\" $c" d\\ e', ['node', 'a "b" $c', 'd e']],
    ["python -c 'print(1)'", ['python', '-c', 'print(1)']],
    ["''", ['']],
  ])('%j', (line, words) => {
    expect(splitCommandLine(line)).toEqual(words);
  });
  test('an open quote is a usage error', () => {
    expect(() => splitCommandLine('node "x')).toThrow(UsageError);
  });
});

describe('adhocAgent', () => {
  test('--url with headers: every header value (and its token without the scheme) and URL credential is a secret', () => {
    const a = adhocAgent({
      url: 'http://user:pw-9f3@127.0.0.1:8080/mcp',
      header: ['Authorization: Bearer tok-123456', 'X-Api-Key:  k-abcdef '],
    });
    expect(a.transport).toBe('http');
    expect(a.name).toBe('127.0.0.1:8080');
    if (a.transport !== 'http') throw new Error('http');
    expect(a.headers).toEqual({ Authorization: 'Bearer tok-123456', 'X-Api-Key': 'k-abcdef' });
    expect([...a.secrets].sort()).toEqual(['Bearer tok-123456', 'k-abcdef', 'pw-9f3', 'tok-123456', 'user'].sort());
    expect(a.sandbox).toBe(false);
  });
  test('--stdio: the command resolved against the working directory, named without argument values', () => {
    expect(adhocAgent({ stdio: 'node ./seller.js --port 1' }, '/srv').name).toBe('node seller.js');
    const a = adhocAgent({ stdio: './bin/seller --token abc123 ./conf.json', sandbox: true }, '/srv/app');
    if (a.transport !== 'stdio') throw new Error('stdio');
    expect(a.command).toBe('/srv/app/bin/seller');
    expect(a.args).toEqual(['--token', 'abc123', './conf.json']);
    expect(a.cwd).toBe('/srv/app');
    expect(a.name).toBe('seller'); // never an argument value (a token, here)
    expect(a.sandbox).toBe(true);
  });
  test.each([
    [{ url: 'not a url' }, /--url: not a URL/],
    [{ url: 'file:///x' }, /expected an http\(s\) URL/],
    [{ url: 'http://h/mcp', header: ['Bad Name: v'] }, /--header: expected 'Name: value'/],
    [{ stdio: '   ' }, /--stdio: expected a command line/],
    [{ stdio: 'x', header: ['A: b'] }, /--header goes with --url, not --stdio/],
  ])('%j is a usage error', (values, message) => {
    expect(() => adhocAgent(values)).toThrow(message);
  });
});

describe('dev options', () => {
  test('--watch takes a PATH only when it exists', () => {
    const exists = (p: string) => p === 'src';
    expect(normalizeWatchArg(['--watch', 'src', '--verbose'], exists)).toEqual(['--watch=src', '--verbose']);
    expect(normalizeWatchArg(['--watch', 'get_products'], exists)).toEqual(['--watch=', 'get_products']);
    expect(normalizeWatchArg(['get_products', '--watch'], exists)).toEqual(['get_products', '--watch=']);
    expect(normalizeWatchArg(['--watch=lib'], exists)).toEqual(['--watch=lib']);
  });
  test('what cannot go together is refused', () => {
    expect(() => devOptionsOf({ header: ['a: b'] })).toThrow(/--header goes with --url/);
    expect(() => devOptionsOf({ url: 'http://x', stdio: 'y' })).toThrow(/cannot be used together/);
    expect(devOptionsOf({ stdio: 'y', watch: '', verbose: true })).toEqual({
      adhoc: { url: undefined, header: undefined, stdio: 'y', sandbox: undefined },
      watch: '',
      verbose: true,
    });
  });
});

describe('timeouts and environment of the command-line agent', () => {
  test('--timeout / --connect-timeout / --agent-timeout: positive seconds, a fraction allowed, at most a day', () => {
    expect(timeoutSeconds('--timeout', '30')).toBe(30_000);
    expect(timeoutSeconds('--timeout', '2.5')).toBe(2_500);
    expect(timeoutSeconds('--timeout', '.25')).toBe(250);
    for (const bad of ['0', '-1', 'abc', '', '1e3', 'Infinity', 'NaN', '5s', '86401'])
      expect(() => timeoutSeconds('--timeout', bad), bad).toThrow(UsageError);
    expect(() => timeoutSeconds('--connect-timeout', '0')).toThrow(/--connect-timeout: expected a positive number of seconds/);
  });
  test('the flags go with --url / --stdio only, checked before anything else', () => {
    expect(() => devOptionsOf({ timeout: '5' })).toThrow(/go with --url or --stdio/);
    expect(() => devOptionsOf({ env: ['A=b'] })).toThrow(/--env goes with --stdio/);
    expect(() => devOptionsOf({ stdio: 'y', 'agent-timeout': 'x' })).toThrow(/--agent-timeout: expected a positive number/);
    expect(devOptionsOf({ stdio: 'y', timeout: '7', 'connect-timeout': '1.5', env: ['A=b'] }).adhoc).toMatchObject({
      timeouts: { callMs: 7_000, connectMs: 1_500 },
      env: ['A=b'],
    });
  });
  test('an agent timeout left unset is long enough for the connect and one whole call', () => {
    expect(adhocAgent({ stdio: 'node s.js' }).timeouts).toEqual(DEFAULT_TIMEOUTS);
    expect(adhocAgent({ stdio: 'node s.js', timeouts: { callMs: 300_000 } }).timeouts).toEqual({
      connectMs: 10_000,
      callMs: 300_000,
      agentMs: 320_000,
    });
    expect(adhocAgent({ url: 'http://127.0.0.1:1/mcp', timeouts: { callMs: 5_000, agentMs: 4_000 } }).timeouts).toEqual({
      connectMs: 10_000,
      callMs: 5_000,
      agentMs: 4_000,
    });
  });
  test('--env KEY=VALUE and KEY (this shell’s value): the child’s env, every value a secret; --env with --url refused', () => {
    const a = adhocAgent({ stdio: 'node s.js', env: ['NODE_ENV=development', 'TOKEN=a=b=c', 'FROM_HERE', 'EMPTY='] }, '/tmp', {
      FROM_HERE: 'here-value-123',
    });
    expect(a.transport === 'stdio' && a.env).toEqual({ NODE_ENV: 'development', TOKEN: 'a=b=c', FROM_HERE: 'here-value-123', EMPTY: '' });
    expect(a.secrets).toEqual(expect.arrayContaining(['development', 'a=b=c', 'here-value-123']));
    expect(() => envEntries(['1BAD=x'], {})).toThrow(/KEY a variable name/);
    expect(() => envEntries(['=x'], {})).toThrow(UsageError);
    expect(() => envEntries(['MISSING'], {})).toThrow(/MISSING is not set here/);
    // The value is never echoed in the error (it may be a secret).
    expect(() => envEntries(['BAD-KEY=hunter2'], {})).toThrow(expect.objectContaining({ message: expect.not.stringContaining('hunter2') }));
    expect(() => adhocAgent({ url: 'http://127.0.0.1:1/mcp', env: ['A=b'] })).toThrow(/--env goes with --stdio/);
  });
  test('the waiting line: which agent and call, how long of how long; plain lines off a TTY, one line redrawn on a TTY', () => {
    expect(waitingText({ call: 'tools/call get_products', waitedMs: 5_012, budgetMs: 30_000 })).toBe(
      'tools/call get_products (5 s of 30 s)',
    );
    expect(waitingText({ call: 'initialize', waitedMs: 15_900, budgetMs: 20_500 })).toBe('initialize (15 s of 20.5 s)');
    const written: string[] = [];
    const sink = (isTTY: boolean) => Object.assign({ write: (s: string) => written.push(s) !== 0 }, { isTTY }) as never;
    const plain = waitingLine(sink(false), {}, ['sekret-value']);
    plain.notice({ agent: 'node s.js', call: 'tools/call sekret-value\u001b[31m', waitedMs: 5_000, budgetMs: 30_000 });
    plain.notice({ agent: 'node s.js', call: 'x', waitedMs: 6_000, budgetMs: 30_000, settled: true });
    expect(written).toHaveLength(1);
    expect(written[0]).toMatch(/^waiting on node s\.js: tools\/call \S+ \(5 s of 30 s\)\n$/);
    expect(written[0]).not.toContain('sekret-value');
    expect(written[0]).not.toContain('\u001b');
    written.length = 0;
    const tty = waitingLine(sink(true), {});
    tty.notice({ agent: 'a', call: 'initialize', waitedMs: 5_000, budgetMs: 10_000 });
    tty.notice({ agent: 'a', call: 'initialize', waitedMs: 9_000, budgetMs: 10_000, settled: true });
    expect(written).toEqual(['\r\u001b[2Kwaiting on a: initialize (5 s of 10 s)', '\r\u001b[2K']);
  });
});

describe('wireLine', () => {
  test('redacted before it is cut: a secret straddling the bound never shows even in part', () => {
    const secret = 'S3CRET-0123456789';
    const text = `${'x'.repeat(95)}${secret}${'y'.repeat(50)}`;
    const line = wireLine('agent', { direction: 'in', message: null, text }, [secret], 100);
    expect(line).not.toContain('S3CRET');
    expect(line).not.toContain('S3CR');
    expect(line).toMatch(/^\[agent\] ← x{95}\[REDA … \(\+\d+ chars\)$/);
  });
  test('control and bidi characters are shown as escapes; outgoing messages are JSON', () => {
    const line = wireLine('a\u202eb', { direction: 'out', message: { method: 'tools/call', params: { name: 'x\u0007' } } }, []);
    expect(line).toBe('[a\\u202eb] → {"method":"tools/call","params":{"name":"x\\u0007"}}');
    const raw = wireLine('a', { direction: 'in', message: {}, text: '{"a":"\u001b[31mred"}\n' }, []);
    expect(raw).toBe('[a] ← {"a":"\\u001b[31mred"}');
  });
});

describe('watch bookkeeping', () => {
  const snap = (code: number, verdict: string, entries: Array<[string, string]>, details: Array<[string, string]> = []): RunSnapshot => ({
    code,
    verdict,
    statuses: new Map(entries),
    details: new Map(details),
  });

  test('changesSince names what newly fails (with its detail), what got fixed, what moved otherwise', () => {
    const before = snap(0, 'conformant', [
      ['a :: envelope.status › get_products', 'pass'],
      ['a :: error.code › get_products (invalid input)', 'fail'],
      ['a :: schema.adcp-response › get_signals', 'pass'],
    ]);
    const after = snap(
      1,
      'nonconformant',
      [
        ['a :: envelope.status › get_products', 'fail'],
        ['a :: error.code › get_products (invalid input)', 'pass'],
        ['a :: schema.adcp-response › get_signals', 'untested'],
      ],
      [['a :: envelope.status › get_products', 'at /status: expected a task status · fix: set status']],
    );
    expect(changesSince(before, after)).toEqual([
      'verdict: conformant → nonconformant',
      '✗ now fail: a :: envelope.status › get_products (was pass) — at /status: expected a task status · fix: set status',
      '✓ fixed: a :: error.code › get_products (invalid input)',
      '~ pass → untested: a :: schema.adcp-response › get_signals',
    ]);
    expect(changesSince(after, after)).toEqual(['no change since the previous run']);
  });

  test('compactLine: when, why, verdict, counts, exit, time', () => {
    const line = compactLine(
      3,
      'src/x.ts changed',
      snap(1, 'nonconformant', [
        ['k1', 'pass'],
        ['k2', 'fail'],
        ['k3', 'pass'],
      ]),
      '1.2',
    );
    expect(line).toMatch(
      /^\[\d\d:\d\d:\d\d\] #3 \(src\/x\.ts changed\): nonconformant · 2 pass · 1 fail · 0 warn · 0 untested · exit 1 · 1\.2 s$/,
    );
  });

  test('watchSetup: PATH, else the stdio agents’ directories; HTTP agents are watched for restarts', () => {
    const base = { timeouts: { connectMs: 1, callMs: 1, agentMs: 1 }, production: false, sandbox: false, maxBytes: 1, secrets: [] };
    const stdio = { ...base, name: 's', transport: 'stdio' as const, command: 'x', args: [], env: {}, cwd: '/srv/seller' };
    const http = { ...base, name: 'h', transport: 'http' as const, url: 'http://127.0.0.1:1/mcp', headers: {} };
    expect(watchSetup('', [stdio, http], ['reports'], '/work')).toEqual({
      paths: ['/srv/seller'],
      urls: ['http://127.0.0.1:1/mcp'],
      ignore: ['/work/reports'],
    });
    expect(watchSetup('lib', [http], [], '/work').paths).toEqual(['/work/lib']);
    expect(() => watchSetup('', [], [], '/work')).toThrow(/nothing to watch/);
  });
});
