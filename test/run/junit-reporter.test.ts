// BufferedJUnitReporter writes the XML vitest's own JUnit reporter writes: the same suite run through both
// (a child process: vitest is driven programmatically there, as the CLI does), compared line by line with
// only the clock-dependent attributes (timestamp, time, hostname) left out.
import { execFile } from 'node:child_process';
import { mkdir, readFile, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { expect, test } from 'vitest';
import { ROOT, tempDirs } from './cli.helpers.ts';

const tmp = tempDirs();

const SUITE = `import { describe, test } from 'vitest';
describe('agent & <co>', () => {
  test('passes', () => {});
  test('logs then passes', () => { console.log('warning: "quoted" <tag> & more'); });
  test('skipped at run time', (ctx) => ctx.skip('untested: no answer'));
  test('fails', () => { const e = new Error('at /status: expected a task status; found "done"'); e.name = 'ConformanceFailure'; e.stack = e.name + ': ' + e.message; throw e; });
  for (let i = 0; i < 50; i++) test('case ' + i + ' › get_products', () => {});
  // Characters XML forbids or discourages, which vitest's escaping removes (and a valid pair it keeps).
  test('odd \\u0007 \\u0085 \\u0086 \\uFDD0 \\uFFFD \\uD800 \\uDFFF \\uD83F\\uDFFE \\uD83D\\uDE00 \\u2028 name', () => {});
});
`;

const DRIVER = (reporterUrl: string) => `import { createVitest } from 'vitest/node';
import { Writable } from 'node:stream';
import { BufferedJUnitReporter } from ${JSON.stringify(reporterUrl)};
const [root, which, outputFile] = process.argv.slice(2);
const options = { suiteName: 'adcp-conformance', includeConsoleOutput: true, classnameTemplate: ({ filepath }) => 'class-of-' + filepath.split('/').pop() };
const reporter = which === 'ours' ? new BufferedJUnitReporter({ ...options, outputFile }) : ['junit', { ...options, outputFile }];
const sink = new Writable({ write(_c, _e, done) { done(); } });
const vitest = await createVitest('test', { config: false, root, dir: root, include: ['*.adcp.test.js'], watch: false, reporters: [reporter], pool: 'threads', isolate: false, maxWorkers: 1 }, { logLevel: 'silent' }, { stdout: sink, stderr: sink });
await vitest.start();
await vitest.close();
process.exitCode = 0; // the suite has a failing test on purpose
`;

function run(script: string, args: string[]): Promise<void> {
  return new Promise((resolve, reject) =>
    execFile(process.execPath, ['--import', 'tsx', script, ...args], { cwd: ROOT }, (err, _out, stderr) =>
      err ? reject(new Error(`${err.message}\n${stderr}`)) : resolve(),
    ),
  );
}

const normalize = (xml: string) => xml.replace(/ (timestamp|time|hostname)="[^"]*"/g, '');

test('the same XML as vitest’s own junit reporter, written at once', async () => {
  const dir = await tmp('junit-reporter');
  const root = join(dir, 'root');
  await mkdir(root);
  await symlink(join(ROOT, 'node_modules'), join(dir, 'node_modules'), 'dir');
  await writeFile(join(root, 'agent.adcp.test.js'), SUITE);
  const driver = join(dir, 'driver.mjs');
  await writeFile(driver, DRIVER(pathToFileURL(join(ROOT, 'harness', 'run', 'vitest', 'junit-reporter.ts')).href));
  await run(driver, [root, 'vitest', join(dir, 'vitest.xml')]);
  await run(driver, [root, 'ours', join(dir, 'ours.xml')]);
  const [theirs, ours] = [await readFile(join(dir, 'vitest.xml'), 'utf8'), await readFile(join(dir, 'ours.xml'), 'utf8')];
  expect(ours).toMatch(
    /<testcase classname="class-of-agent\.adcp\.test\.js" name="agent &amp; &lt;co&gt; &gt; fails" time="[\d.]+">\n\s+<failure message=/,
  );
  expect(ours).toContain('<skipped/>');
  expect(ours).toContain('warning: &quot;quoted&quot; &lt;tag&gt; &amp; more');
  expect(ours.match(/<testcase /g)).toHaveLength(55);
  // The name with characters XML forbids went through vitest's own escaping: they are gone; U+0085 and the
  // valid pair stay.
  const odd = /name="[^"]*(odd [^"]* name)"/.exec(ours)?.[1] ?? '';
  expect(odd).toContain('\uD83D\uDE00');
  expect(odd).toContain('\u0085');
  for (const gone of ['\u0007', '\u0086', '\uFDD0', '\uFFFD', '\uD800']) expect(odd).not.toContain(gone);
  expect(normalize(ours)).toBe(normalize(theirs));
}, 120_000);
