// The self-test matrix: the harness against the clean reference seller (stdio and HTTP) gives zero
// failures and zero warnings; against each fault mode exactly the ids the fault declares fail (MUST) or
// warn (SHOULD), and no other id does. Every check id in the catalog must be proven by some fault.
import pLimit from 'p-limit';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { AgentConfig } from '../../harness/config/types.ts';
import type { Outcome } from '../../harness/checks/check.ts';
import { catalog } from '../../harness/checks/catalog.ts';
import { judgeAgent } from '../../harness/checks/engine.ts';
import { DEFAULT_MAX_BYTES } from '../../harness/config/index.ts';
import { captureAgent } from '../../harness/capture/capture-agent.ts';
import { createSchemaService, sdkSchemaSource } from '../../harness/schemas/index.ts';
import { faults, type Fault } from '../../sellers/faults.ts';
import { startHttpSeller, stdioSellerCommand } from '../../sellers/launch.ts';

// Timeouts short enough that the hang fault stays cheap, long enough for a loaded 2-core CI machine
// (the clean seller answers in milliseconds when the machine is idle).
const timeouts = { connectMs: 20_000, callMs: 8_000, agentMs: 90_000 };

interface Judged {
  outcomes: Outcome[];
}

function stdioAgent(name: string, fault: Fault | undefined): AgentConfig {
  const { command, args } = stdioSellerCommand({ faults: fault ? [fault.name] : [] });
  return {
    name,
    transport: 'stdio',
    command,
    args,
    env: {},
    timeouts,
    production: fault?.agent?.production ?? false,
    sandbox: fault?.agent?.sandbox ?? true,
    maxBytes: DEFAULT_MAX_BYTES,
    secrets: [],
  };
}

function httpAgent(name: string, url: string, fault: Fault | undefined): AgentConfig {
  return {
    name,
    transport: 'http',
    url,
    headers: {},
    timeouts,
    production: fault?.agent?.production ?? false,
    sandbox: fault?.agent?.sandbox ?? true,
    maxBytes: DEFAULT_MAX_BYTES,
    secrets: [],
  };
}

async function judge(agent: AgentConfig): Promise<Judged> {
  const capture = await captureAgent(agent);
  const schemas = await createSchemaService(capture, sdkSchemaSource());
  return { outcomes: judgeAgent(capture, { schemas, agent: capture.agent }) };
}

async function judgeFault(fault: Fault | undefined, transport: 'stdio' | 'http'): Promise<Judged> {
  const label = `${fault?.name ?? 'clean'}-${transport}`;
  if (transport === 'stdio') return judge(stdioAgent(label, fault));
  const seller = await startHttpSeller({ faults: fault ? [fault.name] : [] });
  try {
    return await judge(httpAgent(label, seller.url, fault));
  } finally {
    await seller.close();
  }
}

/** Ids that failed or warned, with the first message of each, for readable assertion diffs. */
function tripped(outcomes: Outcome[]): Map<string, string> {
  const ids = new Map<string, string>();
  for (const o of outcomes) {
    if ((o.status === 'fail' || o.status === 'warn') && !ids.has(o.check)) ids.set(o.check, `${o.tool}: ${o.message}`);
  }
  return ids;
}

/** One run per (fault, transport) the fault applies to (both, unless the fault names one). */
const cases = faults.flatMap((fault) =>
  (fault.transports ?? (['stdio', 'http'] as const)).map((transport) => ({ fault, transport })),
);

const results = new Map<string, Judged | Error>();
const key = (fault: string, transport: string): string => `${fault}/${transport}`;

beforeAll(async () => {
  const limit = pLimit(4);
  const runs = [
    ...(['stdio', 'http'] as const).map((transport) => ({ name: 'clean', fault: undefined, transport })),
    ...cases.map(({ fault, transport }) => ({ name: fault.name, fault, transport })),
  ];
  await Promise.all(
    runs.map((run) =>
      limit(async () => {
        try {
          results.set(key(run.name, run.transport), await judgeFault(run.fault, run.transport));
        } catch (err) {
          results.set(key(run.name, run.transport), err instanceof Error ? err : new Error(String(err)));
        }
      }),
    ),
  );
}, 400_000);

afterAll(() => results.clear());

function judged(name: string, transport: string): Judged {
  const r = results.get(key(name, transport));
  if (!r) throw new Error(`no result for ${name} over ${transport}`);
  if (r instanceof Error) throw r;
  return r;
}

describe('the clean reference seller', () => {
  test.for(['stdio', 'http'])('over %s: zero failures and zero warnings', (transport) => {
    const { outcomes } = judged('clean', transport);
    expect(Object.fromEntries(tripped(outcomes))).toEqual({});
    expect(outcomes.filter((o) => o.status === 'pass').length).toBeGreaterThan(20);
  });
});

describe('each fault trips exactly the ids it declares', () => {
  test.for(cases.map(({ fault, transport }) => [fault.name, transport, fault.trips] as const))(
    '%s over %s',
    ([name, transport, trips]) => {
      const got = tripped(judged(name, transport).outcomes);
      // Compare as objects so a mismatch shows the message of every unexpected id.
      const unexpected = Object.fromEntries([...got].filter(([id]) => !trips.includes(id)));
      const missing = trips.filter((id) => !got.has(id));
      expect({ unexpected, missing }).toEqual({ unexpected: {}, missing: [] });
    },
  );
});

describe('the matrix covers the catalog', () => {
  test('every check id is proven by at least one fault', () => {
    const proven = new Set(faults.flatMap((f) => f.trips));
    expect(catalog.map((c) => c.id).filter((id) => !proven.has(id))).toEqual([]);
  });

  test('every id a fault names is in the catalog', () => {
    const ids = new Set(catalog.map((c) => c.id));
    expect(faults.flatMap((f) => f.trips).filter((id) => !ids.has(id))).toEqual([]);
  });

  test('fault names are unique', () => {
    const names = faults.map((f) => f.name);
    expect(new Set(names).size).toBe(names.length);
  });
});
