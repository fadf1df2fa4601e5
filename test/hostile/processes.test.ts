// Hostile battery · seller processes: one that ignores SIGTERM and the end of its stdin (answering, and
// hanging), one that leaves a grandchild holding its pipes (in its process group, and escaped into a
// session of its own), endless junk on stdout, a seller that closes its stdin at once, one that stops
// itself (SIGSTOP), and 1 GiB on stderr. Every run ends within its budget and (checked for every stdio
// run) no seller process in the seller's group outlives it.
import { afterAll, describe, expect, test } from 'vitest';
import { agentOf, expectContained, expectFinding, family, runHostile, stdio, TIMEOUTS } from './battery.ts';

const processes = family('processes', [
  stdio('ignore-sigterm'),
  stdio('ignore-sigterm-hang'),
  stdio('grandchild-holds-pipes'),
  stdio('detached-grandchild'),
  stdio('stdout-junk-flood'),
  stdio('closes-stdin'),
  stdio('sigstop'),
]);

// The escaped grandchild is out of the harness's reach by design (a session of its own): the test reaps it.
afterAll(async () => {
  const run = await processes.of('detached-grandchild');
  const pid = run.seen['detached-grandchild']?.['grandchild'];
  if (typeof pid === 'number') {
    try {
      process.kill(pid, 'SIGKILL');
    } catch {
      /* gone */
    }
  }
});

const callTimeout = new RegExp(`timeout: tools/call: no answer within ${TIMEOUTS.call} ms`);

describe.concurrent('seller processes', () => {
  test('the run stays bounded, reports are valid, nothing leaks, no seller process survives', async () => {
    expectContained(await processes.of('ignore-sigterm'));
  });

  test('ignore-sigterm: a seller that ignores SIGTERM and stdin EOF is killed at close; its session stays in budget', async () => {
    const run = await processes.of('ignore-sigterm');
    expect(agentOf(run, 'ignore-sigterm').outcomes.find((o) => o.check === 'transport.call')?.status).toBe('pass');
  });

  test('ignore-sigterm-hang: the call times out, then the seller is killed', async () => {
    expectFinding(await processes.of('ignore-sigterm-hang'), 'ignore-sigterm-hang', 'transport.call', callTimeout);
  });

  test('grandchild-holds-pipes: the exit is a crash at once though a grandchild holds the pipes; the grandchild is killed', async () => {
    const run = await processes.of('grandchild-holds-pipes');
    expectFinding(
      run,
      'grandchild-holds-pipes',
      'transport.call',
      /closed: the server process exited \(code 0\) before answering tools\/call/,
    );
    expect(run.seen['grandchild-holds-pipes']?.['grandchild']).toEqual(expect.any(Number));
  });

  test('detached-grandchild: a grandchild in a session of its own holding the pipes does not hold the run', async () => {
    const run = await processes.of('detached-grandchild');
    expectFinding(
      run,
      'detached-grandchild',
      'transport.call',
      /closed: the server process exited \(code 0\) before answering tools\/call/,
    );
  });

  test('stdout-junk-flood: endless non-JSON lines: bounded, named, and the call times out', async () => {
    const run = await processes.of('stdout-junk-flood');
    expectFinding(run, 'stdout-junk-flood', 'transport.stdio-stdout', /50 other line\(s\), first: "junk line \[REDACTED\]/);
    expectFinding(run, 'stdout-junk-flood', 'transport.call', callTimeout);
  });

  test('closes-stdin: a seller that closes its stdin fails initialize, named', async () => {
    expectFinding(await processes.of('closes-stdin'), 'closes-stdin', 'transport.initialize', /(EPIPE|closed|stdin|timeout)/);
  });

  test('sigstop: a seller that stops itself times out and is still reaped', async () => {
    expectFinding(await processes.of('sigstop'), 'sigstop', 'transport.call', callTimeout);
  });

  test('stderr-1gib: 1 GiB on stderr: memory bounded, the call still answered, stderr evidence bounded', async () => {
    // Without re-verification: it would ask the failing call again, for another GiB (twice the CPU, same bound).
    const run = await runHostile('stderr-1gib', [stdio('stderr-1gib', { timeouts: { call: 20_000, agent: 30_000 } })], {
      args: ['--no-reverify'],
    });
    expectContained(run);
    const agent = agentOf(run, 'stderr-1gib');
    expect(agent.outcomes.find((o) => o.check === 'transport.call')?.status).toBe('pass');
    const stderr = agent.outcomes.find((o) => o.evidence?.stderr)?.evidence?.stderr ?? '';
    expect(stderr.length).toBeGreaterThan(0);
    expect(stderr.length).toBeLessThan(5000);
  });
});
