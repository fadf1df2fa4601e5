// CLI conventions, as a user meets them (the compiled CLI in a child process): a usage error is one line
// plus where the command's help is (exit 2), with a did-you-mean for a mistyped flag, command or check id;
// `help COMMAND` is `COMMAND --help`; `checks ID` explains one check, and the command it gives to see the
// check fail does fail; `checks` fits 100 columns.
import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { catalog, checkById } from '../../harness/checks/catalog.ts';
import { shellWord } from '../../harness/commands/checks-explain.ts';
import { readReport, ROOT, runCli, tempDirs, type CliResult } from '../run/cli.helpers.ts';

const tmp = tempDirs();

/** The two lines every usage error prints on stderr (and nothing on stdout), exit 2. */
function expectUsageError(r: CliResult, line: string, command = ''): void {
  const name = command ? `adcp-conformance ${command}` : 'adcp-conformance';
  expect(r.code, r.stdout + r.stderr).toBe(2);
  expect(r.stdout).toBe('');
  expect(r.stderr).toBe(`${name}: ${line}\nsee '${name} --help'\n`);
}

describe('a usage error is one line and where the help is (exit 2)', () => {
  test.concurrent.for([
    [['run', '--strcit'], 'run', 'unknown option --strcit (did you mean --strict?)'],
    [['run', '--strcit=1'], 'run', 'unknown option --strcit (did you mean --strict?)'],
    [['run', '--out'], 'run', '--out needs a value'],
    [['run', '--strict=yes'], 'run', '--strict takes no value'],
    [['run', 'strict'], 'run', "unexpected argument 'strict' (this command takes options only)"],
    [['run', '--shard', '3/2'], 'run', "--shard: expected i/n with 1 ≤ i ≤ n (e.g. 1/2), got '3/2'"],
    [['probe', 'get_products', '--conifg', 'x.yaml'], 'probe', 'unknown option --conifg (did you mean --config?)'],
    [['checks', '--jsno'], 'checks', 'unknown option --jsno (did you mean --json?)'],
    [['checks', '--json', '--markdown'], 'checks', '--json or --markdown: one format at a time'],
    [['vectors', '--hlep'], 'vectors', 'unknown option --hlep (did you mean --help?)'],
    [['vectors'], 'vectors', 'no vector file given'],
  ] as const)('%j', async ([argv, command, line]) => {
    expectUsageError(await runCli([...argv]), line, command);
  });

  test.concurrent('a mistyped command, a flag before the command, help of an unknown command', async () => {
    const [typo, flagFirst, helpTypo, far] = await Promise.all([
      runCli(['rn', '--strict']),
      runCli(['--strict', 'run']),
      runCli(['help', 'chekcs']),
      runCli(['launch']),
    ]);
    expectUsageError(typo, "unknown command 'rn' (did you mean run?)");
    expectUsageError(flagFirst, 'unknown option --strict (options follow the command)');
    expectUsageError(helpTypo, "unknown command 'chekcs' (did you mean checks?)");
    expectUsageError(far, "unknown command 'launch'");
  });

  test.concurrent('a mistyped check id: checks ID and run --check suggest the id meant', async () => {
    const [explain, area, run] = await Promise.all([
      runCli(['checks', 'envelope.contxt-echo']),
      runCli(['checks', 'envelop']),
      runCli(['run', '--check', 'envelope.contxt-echo', '--out', await tmp('check-typo')]),
    ]);
    expectUsageError(explain, "no check 'envelope.contxt-echo' (did you mean envelope.context-echo?)", 'checks');
    expectUsageError(area, "no check 'envelop' (did you mean envelope?)", 'checks');
    expectUsageError(
      run,
      "--check: 'envelope.contxt-echo' matches no check id (did you mean envelope.context-echo?); 'adcp-conformance checks' lists them",
      'run',
    );
  });
});

describe('help', () => {
  test.concurrent.for(['run', 'probe', 'checks', 'vectors'])('help %s is the command with --help', async (command) => {
    const [viaHelp, viaFlag] = await Promise.all([runCli(['help', command]), runCli([command, '--help'])]);
    expect(viaHelp.code, viaHelp.stderr).toBe(0);
    expect(viaHelp.stdout).toMatch(new RegExp(`^usage: adcp-conformance ${command}\\b`));
    expect(viaHelp).toEqual(viaFlag);
  });

  test.concurrent('help alone is --help (exit 0) and names help COMMAND; help takes one command', async () => {
    const [help, flag, helpHelp, extra] = await Promise.all([
      runCli(['help']),
      runCli(['--help']),
      runCli(['help', '--help']),
      runCli(['help', 'run', 'probe']),
    ]);
    expect(help.code).toBe(0);
    expect(help).toEqual(flag);
    expect(helpHelp).toEqual(flag);
    expect(help.stdout).toContain("'adcp-conformance help <command>'");
    expectUsageError(extra, 'help takes one command (got run probe)');
  });
});

describe('checks', () => {
  test.concurrent('the list fits 100 columns and still names every check, its title and what proves it', async () => {
    const r = await runCli(['checks']);
    expect(r.code, r.stderr).toBe(0);
    const lines = r.stdout.trimEnd().split('\n');
    for (const line of lines) expect([...line].length, line).toBeLessThanOrEqual(100);
    const rows = lines.filter((l) => /^[a-z][a-z0-9-]*\.[a-z0-9-]+ /.test(l));
    expect(rows.map((l) => l.split(' ')[0])).toEqual(catalog.map((c) => c.id));
    // Wrapped, the words of every title are still all there, in order.
    const words = lines.join(' ').split(/\s+/).join(' ');
    for (const c of catalog) expect(words).toContain(c.title.split(/\s+/).join(' '));
    expect(words).toContain('proven by context-altered, context-not-echoed,');
  });

  test.concurrent('an area lists only its checks', async () => {
    const r = await runCli(['checks', 'envelope']);
    expect(r.code, r.stderr).toBe(0);
    const ids = r.stdout.split('\n').flatMap((l) => /^([a-z][a-z0-9-]*\.[a-z0-9-]+) /.exec(l)?.[1] ?? []);
    expect(ids).toEqual(catalog.filter((c) => c.id.startsWith('envelope.')).map((c) => c.id));
  });

  test('checks ID explains the check: rule, severity, spec, fix, proving fault, and a command that fails it', async () => {
    const check = checkById('envelope.context-echo')!;
    const r = await runCli(['checks', check.id]);
    expect(r.code, r.stderr).toBe(0);
    const text = r.stdout.replace(/\n {13}(?=\S)/g, ' '); // unwrap the fields' continuation lines
    expect(text.split('\n')[0]).toBe(check.id);
    expect(text).toContain(`rule         ${check.title}`);
    expect(text).toMatch(/^severity {5}MUST$/m);
    expect(text).toContain(`spec         ${check.spec.label} ${check.spec.url}`);
    expect(text).toContain(`fix          ${check.fix}`);
    // Each proving fault starts a line; its own continuation lines hang two columns further in.
    expect(r.stdout).toMatch(/^ {15}\S/m);
    expect(r.stdout).toMatch(/^proven by {4}context-not-echoed \(fail\): get_products success drops the context the caller sent$/m);
    const demo = /^see it fail {2}(adcp-conformance run .*)$/m.exec(r.stdout)?.[1];
    expect(demo).toContain('--fault context-not-echoed');

    // The command does what it says: the reference seller with that fault fails the check (exit 1).
    const out = await tmp('see-it-fail');
    const cli = `${shellWord(process.execPath)} ${shellWord(join(ROOT, 'bin', 'adcp-conformance.js'))}`;
    const command = `${demo!.replace(/^adcp-conformance /, `${cli} `)} --out ${shellWord(out)} --reporter json`;
    const code = await new Promise<number | null>((done) =>
      execFile('/bin/sh', ['-c', command], { cwd: out, env: { ...process.env, CI: '1', NO_COLOR: '1' } }, (err) =>
        done(err ? (typeof err.code === 'number' ? err.code : null) : 0),
      ),
    );
    expect(code).toBe(1);
    const report = await readReport(out);
    const outcomes = report.agents[0]!.outcomes.filter((o) => o.check === check.id);
    expect(outcomes.some((o) => o.status === 'fail')).toBe(true);
  }, 120_000);

  test.concurrent('checks ID --json is that check only', async () => {
    const r = await runCli(['checks', 'envelope.context-echo', '--json']);
    expect(r.code, r.stderr).toBe(0);
    const rows = JSON.parse(r.stdout) as Array<{ id: string; faults: string[] }>;
    expect(rows.map((row) => row.id)).toEqual(['envelope.context-echo']);
    expect(rows[0]!.faults).toContain('context-not-echoed');
  });
});
