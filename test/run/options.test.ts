import { describe, expect, test } from 'vitest';
import { checkSelector, parseRunArgs, UsageError } from '../../harness/run/options.ts';
import { keyOfSuiteFile, suiteKeys } from '../../harness/run/vitest/workspace.ts';

describe('parseRunArgs', () => {
  test('defaults', () => {
    const o = parseRunArgs([]);
    expect(o).toMatchObject({ agents: [], checks: [], out: 'reports', strict: false, concurrency: 4, keepWork: false, help: false });
    expect(parseRunArgs(['--keep-work']).keepWork).toBe(true);
    expect([...o.reporters]).toEqual(['junit', 'json', 'summary', 'markdown', 'html']);
    expect([o.failOn, o.reverify, o.noBaseline, o.compare, o.writeBaseline]).toEqual(['any', true, undefined, undefined, undefined]);
  });
  test('nightly options: --compare, --fail-on, --no-reverify, --no-baseline, --write-baseline, the html and badge reporters', () => {
    const o = parseRunArgs([
      '--compare',
      'last/report.json',
      '--fail-on',
      'regressions',
      '--no-reverify',
      '--no-baseline',
      '--write-baseline',
      'b.yaml',
      '--reporter',
      'html,badge',
    ]);
    expect([o.compare, o.failOn, o.reverify, o.noBaseline, o.writeBaseline]).toEqual([
      'last/report.json',
      'regressions',
      false,
      true,
      'b.yaml',
    ]);
    expect([...o.reporters]).toEqual(['html', 'badge']);
    // A merge compares and gates too (the nightly workflow: merge the shards, compare with last night).
    expect(
      parseRunArgs(['--merge-reports', 'd', '--compare', 'r.json', '--fail-on', 'regressions', '--write-baseline', 'b.yaml']).failOn,
    ).toBe('regressions');
  });
  test('repeated and comma-separated lists', () => {
    const o = parseRunArgs([
      '--agent',
      'a,b',
      '--agent',
      'c',
      '--check',
      'envelope.',
      '--reporter',
      'json,junit',
      '--shard',
      '2/3',
      '--concurrency',
      '8',
      '--strict',
    ]);
    expect(o.agents).toEqual(['a', 'b', 'c']);
    expect(o.checks).toEqual(['envelope.']);
    expect([...o.reporters]).toEqual(['json', 'junit']);
    expect(o.shard).toEqual({ index: 2, count: 3 });
    expect(o.concurrency).toBe(8);
    expect(o.strict).toBe(true);
  });
  test.for([
    [['--bogus'], /^unknown option --bogus$/],
    [['positional'], /positional/],
    [['--reporter', 'pdf'], /unknown reporter 'pdf'/],
    [['--fail-on', 'regressions'], /--fail-on regressions needs --compare PREVIOUS_REPORT_JSON/],
    [['--fail-on', 'new'], /--fail-on: expected 'any' or 'regressions', got 'new'/],
    [['--merge-reports', 'd', '--no-reverify'], /--merge-reports .* takes no --no-reverify/],
    [['--merge-reports', 'd', '--no-baseline'], /--merge-reports .* takes no --no-baseline/],
    [['--shard', '3/2'], /--shard/],
    [['--shard', '1'], /--shard/],
    [['--concurrency', '0'], /positive integer/],
    [['--concurrency', '1.5'], /positive integer/],
    [['--record', 'a', '--replay', 'b'], /cannot be used together/],
    [['--merge-reports', 'd', '--shard', '1/2'], /--merge-reports/],
    // An empty value (`--agent "$UNSET"`) must not quietly select everything (or, for --reporter, nothing).
    [['--agent', ''], /--agent: expected a name/],
    [['--check', ' , '], /--check: expected a name/],
    [['--reporter', ''], /--reporter: expected a name/],
  ] as const)('%j is a usage error', ([argv, message]) => {
    expect(() => parseRunArgs([...argv])).toThrow(UsageError);
    expect(() => parseRunArgs([...argv])).toThrow(message);
  });
});

describe('checkSelector', () => {
  const ids = ['transport.initialize', 'envelope.flat', 'envelope.status', 'error.code'];
  test('no patterns selects everything', () => expect(checkSelector([], ids)).toBeUndefined());
  test('exact ids, prefixes and bare areas', () => {
    const sel = checkSelector(['envelope.', 'error.code'], ids);
    expect(ids.filter((id) => sel?.(id))).toEqual(['envelope.flat', 'envelope.status', 'error.code']);
    const area = checkSelector(['transport'], ids);
    expect(ids.filter((id) => area?.(id))).toEqual(['transport.initialize']);
  });
  test('a pattern matching nothing is a usage error', () => {
    expect(() => checkSelector(['envelope.nope'], ids)).toThrow(/matches no check id/);
  });
});

describe('suite file keys', () => {
  test('file-safe, unique and stable', () => {
    const keys = suiteKeys(['Seller A', 'seller-a', '../../etc', '', 'ok.name_1']);
    expect([...keys.values()]).toEqual(['seller-a', 'seller-a-2', 'etc', 'agent', 'ok.name_1']);
    expect(suiteKeys(['Seller A', 'seller-a'])).toEqual(
      new Map([
        ['Seller A', 'seller-a'],
        ['seller-a', 'seller-a-2'],
      ]),
    );
  });
  test('key of a suite file path', () => {
    expect(keyOfSuiteFile('/tmp/x/reference-http.adcp.test.ts')).toBe('reference-http');
  });
});
