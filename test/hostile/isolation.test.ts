// One agent's failure is that agent's alone: a seller whose outputSchema makes the validator asynchronous
// ($async) once ended the whole process with no report for any agent. Run it beside a clean seller.
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { stdioSellerCommand } from '../../sellers/launch.ts';
import { canValidateJunit, ROOT, runCli, tempDirs, validateJunit } from '../run/cli.helpers.ts';

const tmp = tempDirs();
const HOSTILE = join(ROOT, 'test', 'hostile', 'servers', 'judging-stdio.mjs');

describe('isolation', () => {
  test('an $async outputSchema seller and a clean seller: every report written, the clean seller conformant', async () => {
    const dir = await tmp('isolation');
    const { command, args } = stdioSellerCommand();
    const config = join(dir, 'agents.json');
    await writeFile(
      config,
      JSON.stringify({
        agents: [
          { name: 'async-schema', transport: 'stdio', command: process.execPath, args: [HOSTILE, 'async-schema'] },
          { name: 'clean', transport: 'stdio', command, args },
        ],
      }),
    );
    const cli = await runCli(['run', '--config', config, '--out', dir]);
    expect(cli.stderr).not.toContain('internal error');
    expect([1, 3]).toContain(cli.code);
    const report = JSON.parse(await readFile(join(dir, 'report.json'), 'utf8')) as {
      agents: Array<{ name: string; verdict: string; outcomes: Array<{ check: string; status: string; message: string }> }>;
    };
    const byName = Object.fromEntries(report.agents.map((a) => [a.name, a]));
    expect(byName['clean']?.verdict).toBe('conformant');
    const hostile = byName['async-schema']!;
    expect(hostile.verdict).not.toBe('conformant');
    expect(hostile.outcomes.find((o) => o.check === 'schema.output-schema' && o.status === 'fail')?.message).toMatch(/\$async/);
    if (canValidateJunit) validateJunit(join(dir, 'junit.xml'));
    expect(await readFile(join(dir, 'summary.md'), 'utf8')).toContain('clean');
  }, 120_000);
});
