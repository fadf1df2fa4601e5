// The AdCP handshake always runs: get_adcp_capabilities is called first whenever the agent lists it,
// whatever the configured probes say (its answer decides the AdCP release pinned on every later call, and
// capabilities.versions judges it) — once, never twice when the probes already start with it. Live against
// the reference seller over stdio, and through the CLI with a config of explicit probes.
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { captureAgent } from '../../harness/capture/capture-agent.ts';
import type { Probe, StdioAgentConfig } from '../../harness/config/types.ts';
import { DEFAULT_MAX_BYTES } from '../../harness/config/index.ts';
import { stdioSellerCommand } from '../../sellers/launch.ts';
import { readReport, runCli, tempDirs } from '../run/cli.helpers.ts';

const tmp = tempDirs();
const timeouts = { connectMs: 20_000, callMs: 8_000, agentMs: 60_000 };
const PRODUCTS: Probe = { tool: 'get_products', arguments: { buying_mode: 'brief', brief: 'sports' }, intent: 'valid' };
const CAPS: Probe = { tool: 'get_adcp_capabilities', arguments: {}, intent: 'valid' };

function stdio(probes: Probe[], faults: string[] = []): StdioAgentConfig {
  const { command, args } = stdioSellerCommand({ faults });
  return {
    name: 'ref',
    transport: 'stdio',
    command,
    args,
    env: {},
    timeouts,
    production: false,
    sandbox: false,
    maxBytes: DEFAULT_MAX_BYTES,
    secrets: [],
    probes,
  };
}

describe('captureAgent: the handshake goes first', () => {
  test('explicit probes without it: get_adcp_capabilities first (marked), and its answer pins the later call', async () => {
    const capture = await captureAgent(stdio([PRODUCTS]), { scenarios: false, adcpReleases: ['3.1.19', '3.0.26'] });
    expect(capture.exchanges.map((x) => x.tool)).toEqual(['get_adcp_capabilities', 'get_products']);
    expect(capture.exchanges[0]).toMatchObject({
      handshake: true,
      intent: 'valid',
      request: { arguments: { context: expect.any(Object) } },
    });
    expect(capture.exchanges[1]!.handshake).toBeUndefined();
    // The pin comes from the capabilities answer (supported_versions ["3.0","3.1"]), not from the config.
    expect(capture.exchanges[1]!.request.arguments).toMatchObject({ adcp_version: '3.1', adcp_major_version: 3 });
    expect(capture.adcpPin?.reason).toMatch(/^capabilities:/);
  }, 60_000);

  test('probes that already start with it: called once, no handshake of our own', async () => {
    const capture = await captureAgent(stdio([CAPS, PRODUCTS]), { scenarios: false });
    expect(capture.exchanges.map((x) => x.tool)).toEqual(['get_adcp_capabilities', 'get_products']);
    expect(capture.exchanges.some((x) => x.handshake)).toBe(false);
  }, 60_000);

  test('an invalid-input capabilities probe first is no handshake: the valid one goes before it', async () => {
    const capture = await captureAgent(stdio([{ ...CAPS, arguments: { protocols: 42 }, intent: 'invalid' }]), { scenarios: false });
    expect(capture.exchanges.map((x) => [x.tool, x.intent, x.handshake === true])).toEqual([
      ['get_adcp_capabilities', 'valid', true],
      ['get_adcp_capabilities', 'invalid', false],
    ]);
  }, 60_000);

  test('an agent that does not list it: nothing added', async () => {
    const capture = await captureAgent(stdio([PRODUCTS], ['no-capabilities-tool']), { scenarios: false });
    expect(capture.exchanges.map((x) => x.tool)).toEqual(['get_products']);
  }, 60_000);

  test('handshake: false (the sessions that repeat given calls exactly): nothing added', async () => {
    const capture = await captureAgent(stdio([PRODUCTS]), { scenarios: false, handshake: false });
    expect(capture.exchanges.map((x) => x.tool)).toEqual(['get_products']);
  }, 60_000);
});

describe('run with explicit probes', () => {
  test('capabilities.versions is verified and the agent conformant (before: untested, incomplete, exit 3)', async () => {
    const dir = await tmp('handshake');
    const config = join(dir, 'agents.json');
    const { command, args } = stdioSellerCommand();
    await writeFile(
      config,
      JSON.stringify({
        agents: [{ name: 'ref', transport: 'stdio', command, args, probes: [{ tool: 'get_products', arguments: PRODUCTS.arguments }] }],
      }),
    );
    const out = join(dir, 'out');
    const r = await runCli(['run', '--config', config, '--out', out, '--reporter', 'json'], { ADCP_CONFORMANCE_SCHEMAS_DIR: 'none' });
    expect(r.code, r.stdout + r.stderr).toBe(0);
    const outcomes = (await readReport(out)).agents[0]!.outcomes;
    expect(outcomes.find((o) => o.check === 'capabilities.versions')).toMatchObject({ tool: 'get_adcp_capabilities', status: 'pass' });
    expect(outcomes.filter((o) => o.status === 'untested')).toEqual([]);
  }, 120_000);
});
