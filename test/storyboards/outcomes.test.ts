// The mapping from the runner's results to outcomes, on results shaped like the runner's own, and the
// committed known-defect list against the pinned corpus (a typo there would silently match nothing).
import { describe, expect, test } from 'vitest';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { StoryboardResult, StoryboardStepResult, ValidationResult } from '@adcp/sdk/testing';
import type { Exchange, ExchangeOutcome } from '../../harness/record/exchange.ts';
import { knownDefects } from '../../harness/storyboards/known-defects.ts';
import { storyboardOutcomes, versionMismatch, type StoryboardContext } from '../../harness/storyboards/outcomes.ts';
import type { ProxiedCall } from '../../harness/storyboards/proxy.ts';
import { startRunnerWorker, type PlannedStoryboard } from '../../harness/storyboards/worker.ts';

const SB: PlannedStoryboard = {
  id: 'idempotency',
  title: 'Idempotency enforcement',
  category: 'core',
  bundle: { kind: 'universal', id: 'idempotency' },
  requiredTools: [],
  phases: [],
};

const v = (check: string, passed: boolean, extra: Partial<ValidationResult> = {}): ValidationResult => ({
  check,
  passed,
  description: `${check} holds`,
  ...extra,
});

function step(phase: string, id: string, task: string, extra: Partial<StoryboardStepResult> = {}): StoryboardStepResult {
  return {
    step_id: id,
    phase_id: phase,
    title: id,
    task,
    passed: true,
    duration_ms: 5,
    validations: [],
    context: {},
    extraction: { path: 'structured_content' },
    ...extra,
  };
}

function result(steps: StoryboardStepResult[]): StoryboardResult {
  const phases = [...new Set(steps.map((s) => s.phase_id))].map((id) => ({
    phase_id: id,
    phase_title: id,
    passed: true,
    steps: steps.filter((s) => s.phase_id === id),
    duration_ms: 1,
  }));
  return {
    storyboard_id: SB.id,
    storyboard_title: SB.title,
    agent_url: 'http://127.0.0.1:1/x/mcp',
    overall_passed: true,
    phases,
    context: {},
    total_duration_ms: 1,
    passed_count: 0,
    failed_count: 0,
    skipped_count: 0,
    tested_at: '',
  };
}

let seq = 0;
function call(
  tool: string,
  args: Record<string, unknown>,
  outcome: ExchangeOutcome = { kind: 'result', result: { structuredContent: {} } },
): ProxiedCall {
  const exchange: Exchange = {
    agent: 'a',
    tool,
    intent: 'valid',
    request: { name: tool, arguments: args },
    outcome,
    startedAt: '',
    durationMs: 1,
  };
  return { seq: seq++, method: 'tools/call', auth: 'configured', label: SB.id, tool, arguments: args, exchange };
}

const ctx = (calls: ProxiedCall[] = []): StoryboardContext => ({ corpusVersion: '3.0.6', defects: knownDefects(), calls });
const byTool = (outcomes: ReturnType<typeof storyboardOutcomes>) => Object.fromEntries(outcomes.map((o) => [o.tool, o]));

describe('storyboard outcomes', () => {
  test('validations become outcomes with the runner’s expected/actual/pointer; a passing step is pass', () => {
    const req = { operation: 'get_products', transport: 'mcp' as const, payload: { context: { correlation_id: 'c-1' } } };
    const calls = [call('get_products', { context: { correlation_id: 'c-1' } })];
    const out = byTool(
      storyboardOutcomes(
        SB,
        result([
          step('p', 'ok', 'get_products', {
            request: req,
            validations: [v('response_schema', true), v('field_present', true, { path: 'context' })],
          }),
          step('p', 'bad', 'get_products', {
            passed: false,
            request: { ...req, payload: { context: { correlation_id: 'c-2' } } },
            validations: [
              v('field_value', false, {
                path: 'context.correlation_id',
                json_pointer: '/context/correlation_id',
                expected: 'c-2',
                actual: 'x',
                error: 'Expected "c-2", got "x"',
              }),
            ],
          }),
        ]),
        ctx(calls),
      ),
    );
    expect(out['p/ok › response_schema']).toMatchObject({
      status: 'pass',
      check: 'storyboard.idempotency',
      severity: 'MUST',
      calls: [calls[0]!.seq],
    });
    expect(out['p/ok › field_present context']?.status).toBe('pass');
    expect(out['p/bad › field_value context.correlation_id']).toMatchObject({
      status: 'fail',
      pointer: '/context/correlation_id',
      expected: 'c-2',
      found: 'x',
      message: expect.stringMatching(/^at \/context\/correlation_id: expected c-2, found x/),
      specUrl: 'https://adcontextprotocol.org/compliance/3.0.6/universal/idempotency',
      corpusVersion: '3.0.6',
    });
  });

  test('skipped steps are never passes: not-applicable when they do not concern the agent, untested otherwise', () => {
    const out = byTool(
      storyboardOutcomes(
        SB,
        result([
          step('p', 'a', 'list_accounts', {
            skipped: true,
            passed: true,
            skip_reason: 'missing_tool',
            skip: { reason: 'missing_tool', detail: 'no list_accounts' },
          }),
          step('p', 'b', 'get_products', {
            skipped: true,
            passed: false,
            skip_reason: 'prerequisite_failed',
            skip: { reason: 'prerequisite_failed', detail: 'Skipped: prior stateful step failed.' },
          }),
          step('p', 'c', 'get_products', { skipped: true, passed: true, skip_reason: 'unsatisfied_contract' }),
        ]),
        ctx(),
      ),
    );
    expect(out['p/a › step']?.status).toBe('not-applicable');
    expect(out['p/b › step']).toMatchObject({ status: 'untested', message: expect.stringMatching(/prerequisite_failed/) });
    expect(out['p/c › step']?.status).toBe('not-applicable');
  });

  test('a step whose call got no answer is untested, whatever the runner graded', () => {
    const req = { operation: 'get_products', transport: 'mcp' as const, payload: {} };
    const calls = [call('get_products', {}, { kind: 'transport-error', failure: { kind: 'timeout', message: 'no answer within 10 ms' } })];
    const outcomes = storyboardOutcomes(
      SB,
      result([step('p', 'hung', 'get_products', { request: req, expect_error: true, passed: true, validations: [v('error_code', true)] })]),
      ctx(calls),
    );
    expect(outcomes).toEqual([
      expect.objectContaining({
        tool: 'p/hung › step',
        status: 'untested',
        message: expect.stringMatching(/gave no answer to get_products \(timeout/),
      }),
    ]);
  });

  test('a known defect turns its failures not-applicable, and the steps the runner skipped after it', () => {
    const req = { operation: 'create_media_buy', transport: 'mcp' as const, payload: { idempotency_key: 'k' } };
    const calls = [call('create_media_buy', { idempotency_key: 'k' })];
    const out = byTool(
      storyboardOutcomes(
        SB,
        result([
          step('replay_same_payload', 'create_media_buy_initial', 'create_media_buy', {
            passed: false,
            request: req,
            validations: [
              v('field_present', true, { path: 'media_buy_id' }),
              v('capture_path_not_resolvable', false, { json_pointer: '/media_buy_id', expected: 'media_buy_id', actual: null }),
              v('capture_path_not_resolvable', false, { json_pointer: '/idempotency_key', expected: 'idempotency_key', actual: null }),
            ],
          }),
          step('replay_same_payload', 'create_media_buy_replay', 'create_media_buy', {
            skipped: true,
            passed: false,
            skip_reason: 'prerequisite_failed',
          }),
        ]),
        ctx(calls),
      ),
    );
    // Only the capture the corpus gets wrong is the defect's; the seller's own missing media_buy_id is not.
    expect(out['replay_same_payload/create_media_buy_initial › capture_path_not_resolvable /media_buy_id']?.status).toBe('fail');
    expect(out['replay_same_payload/create_media_buy_initial › capture_path_not_resolvable /idempotency_key']).toMatchObject({
      status: 'not-applicable',
      knownDefect: 'idempotency-key-read-from-response',
      message: expect.stringMatching(/^known runner defect: /),
    });
    expect(out['replay_same_payload/create_media_buy_replay › step']).toMatchObject({
      status: 'not-applicable',
      knownDefect: 'idempotency-key-read-from-response',
    });
  });

  test('the replay made non-deterministic by stale sample dates is the runner’s, not the seller’s IDEMPOTENCY_CONFLICT', () => {
    const out = storyboardOutcomes(
      SB,
      result([
        step('replay_same_payload', 'create_media_buy_replay', 'create_media_buy', {
          passed: false,
          validations: [v('field_value', false, { path: 'media_buy_id', expected: 'mb_1', actual: null })],
        }),
        step('key_reuse_conflict', 'create_media_buy_conflict', 'create_media_buy', {
          skipped: true,
          passed: false,
          skip_reason: 'prerequisite_failed',
        }),
      ]),
      ctx(),
    );
    expect(out.map((o) => [o.tool, o.status, o.knownDefect])).toEqual([
      ['replay_same_payload/create_media_buy_replay › field_value media_buy_id', 'not-applicable', 'stale-sample-dates-replay'],
      ['key_reuse_conflict/create_media_buy_conflict › step', 'not-applicable', 'stale-sample-dates-replay'],
    ]);
  });

  test('request fields the runner’s client dropped explain only the failures about those fields', () => {
    const req = {
      operation: 'get_signals',
      transport: 'mcp' as const,
      payload: { signal_spec: 's', pagination: { max_results: 1 }, account: {} },
    };
    const calls = [call('get_signals', { signal_spec: 's' })];
    const out = byTool(
      storyboardOutcomes(
        { ...SB, id: 'get_signals_pagination_integrity' },
        result([
          step('walk', 'first', 'get_signals', {
            passed: false,
            request: req,
            validations: [
              v('field_value', false, { path: 'pagination.has_more', json_pointer: '/pagination/has_more', expected: true, actual: null }),
              v('field_present', false, { path: 'signals', json_pointer: '/signals', expected: 'signals', actual: null }),
            ],
          }),
        ]),
        ctx(calls),
      ),
    );
    expect(out['walk/first › field_value pagination.has_more']).toMatchObject({
      status: 'not-applicable',
      knownDefect: 'request-fields-dropped',
      message: expect.stringMatching(/dropped: pagination, account/),
    });
    expect(out['walk/first › field_present signals']?.status).toBe('fail');
  });

  test('a version mismatch between the agent and the corpus is named on every outcome', () => {
    expect(versionMismatch({ adcp: { major_versions: [3], supported_versions: ['3.1'] } }, '3.0.6')).toMatch(
      /declares AdCP 3\.1; the storyboards are the 3\.0\.6 corpus/,
    );
    expect(versionMismatch({ adcp: { major_versions: [3], supported_versions: ['3.0'] } }, '3.0.6')).toBeUndefined();
    // A 3.1 seller that also speaks 3.0: its 3.0 behaviour is graded, and every outcome says 3.1 is not, and why.
    const both = versionMismatch({ adcp: { major_versions: [3], supported_versions: ['3.0', '3.1'] } }, '3.0.6', '@adcp/sdk 6.11.0');
    expect(both).toMatch(/declares AdCP 3\.0, 3\.1; the storyboards are the 3\.0\.6 corpus: AdCP 3\.1 is not graded by storyboards here/);
    expect(both).toContain('@adcp/sdk 6.11.0 ships the 3.0.6 corpus only');
    expect(both).toContain('cannot pin adcp_version');
    expect(versionMismatch({ adcp: { supported_versions: ['3.1-beta', '2.5'] } }, '3.0.6')).toMatch(/AdCP 3\.1-beta is not graded/);
    expect(versionMismatch({ adcp: { supported_versions: ['3.0', 'x.y', 3.1] } }, '3.0.6')).toBeUndefined();
    expect(versionMismatch({ adcp: { major_versions: [3] } }, '3.0.6')).toBeUndefined();
    expect(versionMismatch({ adcp: { major_versions: [4] } }, '3.0.6')).toMatch(/major version\(s\) 4/);
  });
});

describe('the known-defect list', () => {
  test('is for the pinned SDK and corpus, and every defect names a real storyboard step', { timeout: 60_000 }, async () => {
    const list = knownDefects();
    const sdk = createRequire(import.meta.url)('@adcp/sdk/package.json') as { version: string };
    const corpus = readFileSync(
      createRequire(import.meta.url)
        .resolve('@adcp/sdk/package.json')
        .replace(/package\.json$/, 'ADCP_VERSION'),
      'utf8',
    ).trim();
    expect(list.sdkVersion).toBe(sdk.version); // bumping the SDK means reviewing this list
    expect(list.corpusVersion).toBe(corpus);
    const ids = list.defects.map((d) => d.id);
    expect(new Set(ids).size).toBe(ids.length);
    const worker = startRunnerWorker();
    try {
      const plan = await worker.plan('all');
      const steps = new Map(plan.storyboards.map((s) => [s.id, new Set(s.phases.flatMap((p) => p.steps.map((st) => st.id)))]));
      for (const d of list.defects) {
        expect(d.reason.length, d.id).toBeGreaterThan(40);
        if (d.handling === 'neutralized') {
          expect(d.neutralizedBy, d.id).toBeTruthy();
          expect(d.match, d.id).toBeUndefined();
          continue;
        }
        expect(d.match?.length, d.id).toBeGreaterThan(0);
        for (const m of d.match!) {
          if (m.detect !== undefined) continue;
          expect(steps.has(m.storyboard!), `${d.id}: storyboard ${m.storyboard}`).toBe(true);
          if (m.step !== undefined) expect(steps.get(m.storyboard!)!.has(m.step), `${d.id}: step ${m.step}`).toBe(true);
        }
      }
    } finally {
      await worker.terminate();
    }
  });
});
