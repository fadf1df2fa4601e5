// `--write-baseline` writes one entry per check (per tool only where the check fails on some tools and
// passes on others), and matching and baseline.stale read entries the same way: a check id alone excuses
// that check everywhere and is stale only when the check fails nowhere; a tool covers every call of it.
import { parse } from 'yaml';
import { describe, expect, test } from 'vitest';
import { entryCoversLabel, matchingEntry, toolOfLabel } from '../../harness/checks/baseline/_match.ts';
import staleCheck from '../../harness/checks/baseline/stale.ts';
import type { AgentCapture } from '../../harness/record/exchange.ts';
import type { BaselineContext, Status } from '../../harness/checks/check.ts';
import { REASON_PLACEHOLDER, renderBaselineYaml } from '../../harness/run/baseline.ts';
import type { ReportOutcome } from '../../harness/report/model.ts';
import { agent, outcome } from '../report/fixtures.ts';

const ECHO = 'envelope.context-echo';
const CODE = 'error.code';
const CALL = 'transport.call';

async function written(outcomes: ReportOutcome[]): Promise<Record<string, string> | undefined> {
  const yaml = await renderBaselineYaml({ agents: [agent('seller', outcomes)], strict: false, cutShort: null });
  return (parse(yaml) as { agents: Array<{ expect: Record<string, string> }> }).agents[0]?.expect;
}

describe('renderBaselineYaml', () => {
  test('one entry per check: the id alone where it failed on every tool it judged, per tool where it passed elsewhere', async () => {
    const expect_ = await written([
      // The echo fails on every call of get_products (the probe and scenario steps) and passes on get_signals.
      outcome({ check: ECHO, tool: 'get_products', status: 'fail' }),
      outcome({ check: ECHO, tool: 'get_products (pagination: page-2)', status: 'fail' }),
      outcome({ check: ECHO, tool: 'get_products (release-negotiation: exact-release)', status: 'fail' }),
      outcome({ check: ECHO, tool: 'get_signals', status: 'pass' }),
      // error.code fails on every error it saw (several tools), passes nowhere, is not applicable elsewhere.
      outcome({ check: CODE, tool: 'get_products (invalid input)', status: 'fail' }),
      outcome({ check: CODE, tool: 'get_adcp_capabilities (credential-in-args: ext-api-key)', status: 'fail' }),
      outcome({ check: CODE, tool: 'get_products', status: 'not-applicable' }),
      // transport.call: one tool timed out, the others answered.
      outcome({ check: CALL, tool: 'get_signals', status: 'fail' }),
      outcome({ check: CALL, tool: 'get_products', status: 'pass' }),
      // Left untested by the timeout: nothing to write.
      outcome({ check: 'envelope.flat', tool: 'get_signals', status: 'untested', blockedBy: { check: CALL, call: 1 } }),
    ]);
    expect(expect_).toEqual({
      [`${ECHO} › get_products`]: REASON_PLACEHOLDER,
      [CODE]: REASON_PLACEHOLDER,
      [`${CALL} › get_signals`]: REASON_PLACEHOLDER,
    });
  });

  test('a reason already given is kept, from whichever entry excused the failure; flaky failures are left out', async () => {
    const expect_ = await written([
      outcome({ check: ECHO, tool: 'get_products', status: 'fail', baseline: 'drops context (TICKET-7)' }),
      outcome({ check: ECHO, tool: 'get_products (pagination: page-2)', status: 'fail' }),
      outcome({ check: CODE, tool: 'get_products (invalid input)', status: 'fail', flaky: true }),
    ]);
    expect(expect_).toEqual({ [ECHO]: 'drops context (TICKET-7)' });
  });
});

describe('matching an entry', () => {
  test('a tool names every call of it; a full label that call alone; the narrowest entry wins', async () => {
    expect(toolOfLabel('get_products (pagination: page-2)')).toBe('get_products');
    expect(toolOfLabel('get_products (invalid input)')).toBe('get_products');
    expect(toolOfLabel('tools/list')).toBe('tools/list');
    expect(toolOfLabel('(no calls)')).toBe('(no calls)');
    expect(entryCoversLabel('get_products', 'get_products (pagination: page-2)')).toBe(true);
    expect(entryCoversLabel('get_products', 'get_products_v2')).toBe(false);
    const entries = { [ECHO]: 'bare', [`${ECHO} › get_products`]: 'tool', [`${ECHO} › get_products (invalid input)`]: 'label' };
    expect(matchingEntry(entries, ECHO, 'get_products (invalid input)')).toBe(`${ECHO} › get_products (invalid input)`);
    expect(matchingEntry(entries, ECHO, 'get_products (pagination: page-1)')).toBe(`${ECHO} › get_products`);
    expect(matchingEntry(entries, ECHO, 'get_signals')).toBe(ECHO);
    expect(matchingEntry({ [`${ECHO} › get_products`]: 'tool' }, ECHO, 'get_signals')).toBeUndefined();
  });
});

describe('baseline.stale agrees', () => {
  const toolsList = { ok: true as const, pages: 1, tools: [{ name: 'get_products' }, { name: 'get_signals' }] };
  const capture = { initialize: { ok: true }, toolsList } as unknown as AgentCapture;
  function judge(keys: string[], outcomes: Array<{ check: string; tool: string; status: Status }>) {
    const baseline: BaselineContext = {
      entries: keys.map((key) => ({ key, pointer: `/agents/0/expect/${key}` })),
      applied: true,
      outcomes,
    };
    return Object.fromEntries(staleCheck.judge(capture, { baseline }).map((v) => [v.subject, v.verdict.status]));
  }

  test('a check id alone holds while the check fails anywhere, and is stale only when it fails nowhere', async () => {
    const failingOnSteps = [
      { check: ECHO, tool: 'get_products (pagination: page-2)', status: 'fail' as const },
      { check: ECHO, tool: 'get_signals', status: 'pass' as const },
    ];
    expect(judge([ECHO], failingOnSteps)).toEqual({ [ECHO]: 'pass' });
    expect(judge([ECHO], [{ check: ECHO, tool: 'get_products', status: 'pass' }])).toEqual({ [ECHO]: 'fail' });
  });

  test('an entry naming a tool holds while a call of that tool fails, and is stale when every call of it passes', async () => {
    const key = `${ECHO} › get_products`;
    expect(judge([key], [{ check: ECHO, tool: 'get_products (pagination: page-2)', status: 'fail' }])).toEqual({ [key]: 'pass' });
    expect(
      judge(
        [key],
        [
          { check: ECHO, tool: 'get_products (pagination: page-2)', status: 'pass' },
          { check: ECHO, tool: 'get_signals', status: 'fail' },
        ],
      ),
    ).toEqual({ [key]: 'fail' });
    // An unknown call of a listed tool is stale (it matched nothing), not a tool the agent does not expose.
    const unknownStep = `${ECHO} › get_products (pagination: page-9)`;
    const baseline: BaselineContext = {
      entries: [{ key: unknownStep, pointer: '/agents/0/expect/x' }],
      applied: true,
      outcomes: [{ check: ECHO, tool: 'get_products', status: 'fail' }],
    };
    expect(staleCheck.judge(capture, { baseline })[0]?.verdict).toMatchObject({
      status: 'fail',
      found: expect.stringContaining('nothing to excuse'),
    });
  });
});
