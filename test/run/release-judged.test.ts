// Each seller judged at the release it serves, end to end through the CLI: the stdio reference seller
// (supported_versions ["3.0", "3.1"]) with the official 3.1.19 tree present as the shipped trees is
// "conformant to AdCP 3.1.19", exit 0, every report naming the release, the patch, the schema source and
// why, and the pin the harness sent; with no shipped trees (ADCP_CONFORMANCE_SCHEMAS_DIR=none) it is judged
// at the @adcp/sdk 3.0 tree and says why. The 3.1.19 tree is read from ../shared (never from the project's
// own adcp-schemas/, which is not committed); the first test is skipped when it is absent.
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { runCli, SHARED, tempDirs } from './cli.helpers.ts';

const SHARED_SCHEMAS = join(SHARED, 'adcp', 'schemas');
const NO_SHARED = !existsSync(join(SHARED_SCHEMAS, '3.1.19', 'index.json'));
const tmp = tempDirs();

interface Reported {
  exitCode: number;
  run: { schemaSource: { kind: string; location: string; versions: string[]; trees?: Record<string, string> } };
  agents: Array<{ name: string; adcpVersion: string | null; adcpVersionReason: string | null; verdictText: string }>;
}

async function report(dir: string): Promise<Reported> {
  return JSON.parse(await readFile(join(dir, 'report.json'), 'utf8')) as Reported;
}

describe('the release judged', () => {
  test.skipIf(NO_SHARED)(
    'with the 3.1.19 tree shipped: conformant to AdCP 3.1.19, the reports say release, patch, source and why',
    async () => {
      const out = await tmp('release-31');
      const r = await runCli(['run', '--agent', 'reference-stdio', '--out', out], { ADCP_CONFORMANCE_SCHEMAS_DIR: SHARED_SCHEMAS });
      const rep = await report(out);
      const agent = rep.agents[0]!;
      expect(agent.adcpVersion, agent.adcpVersionReason ?? '').toBe('3.1.19');
      expect(r.code, r.stdout.slice(-3000)).toBe(0);
      expect(r.stdout).toContain('conformant to AdCP 3.1.19');
      const reason = agent.adcpVersionReason ?? '';
      expect(reason).toMatch(/^echoed by seller: adcp_version "3\.1" in get_products → schemas 3\.1\.19/);
      expect(reason).toContain('judged at AdCP 3.1 (patch 3.1.19), schemas: shipped adcp-schemas 3.1.19');
      expect(reason).toContain('pinned: adcp_version 3.1 (capabilities: the newest of supported_versions');
      expect(rep.run.schemaSource).toMatchObject({
        kind: 'composite',
        trees: { '3.1.19': expect.stringMatching(/^shipped adcp-schemas 3\.1\.19/) },
      });
      // The terminal, summary.md, HTML and JUnit properties all carry the same line.
      expect(r.stdout).toContain('AdCP 3.1.19: echoed by seller');
      expect(await readFile(join(out, 'summary.md'), 'utf8')).toMatch(/## AdCP release judged[\s\S]*patch 3\.1\.19/);
      expect(await readFile(join(out, 'report.html'), 'utf8')).toContain('judged at AdCP 3.1 (patch 3.1.19)');
      expect(await readFile(join(out, 'junit.xml'), 'utf8')).toMatch(
        /name="adcpVersion.reason" value="[^"]*judged at AdCP 3\.1 \(patch 3\.1\.19\)/,
      );
    },
  );

  test('with no shipped trees: judged at the @adcp/sdk 3.0 tree, and why', async () => {
    const out = await tmp('release-30');
    const r = await runCli(['run', '--agent', 'reference-stdio', '--out', out], { ADCP_CONFORMANCE_SCHEMAS_DIR: 'none' });
    const rep = await report(out);
    const agent = rep.agents[0]!;
    expect(agent.adcpVersion).toMatch(/^3\.0\.\d+$/);
    expect(r.code, r.stdout.slice(-3000)).toBe(0);
    const reason = agent.adcpVersionReason ?? '';
    expect(reason).toMatch(/^echoed by seller: adcp_version "3\.0" in get_products → schemas 3\.0\.6/);
    // The unpinned capabilities call was served at 3.1, which the harness has no schemas for: it says so.
    expect(reason).toContain('served: adcp_version "3.1" (echoed in get_adcp_capabilities), adcp_version "3.0"');
    expect(reason).toMatch(/judged at AdCP 3\.0 \(patch 3\.0\.\d+\), schemas: @adcp\/sdk \d+\.\d+\.\d+/);
    expect(reason).toContain('pinned: adcp_version 3.0');
    expect(rep.run.schemaSource.kind).toBe('sdk');
  });
});
