// The AdCP 3.1 version and protocol-field rules as pure functions: release parsing and the server
// resolution rule of versioning.mdx, the pins the scenarios send, and the judges of version.echo,
// version.release-negotiation, version.major-mismatch, envelope.protocol-fields and
// envelope.context-not-fabricated on hand-built captures (including hostile answers).
import { describe, expect, test } from 'vitest';
import type { AgentCapture, Exchange } from '../../harness/record/exchange.ts';
import { parseRelease, releases31, resolvePin, declaredReleases, echoOf } from '../../harness/capture/version-facts.ts';
import { pinsFor, VERSION_SCENARIO, VERSION_STEP } from '../../harness/capture/version-scenario.ts';
import { ENVELOPE_SCENARIO, ENVELOPE_STEP, governanceToken, protocolFields } from '../../harness/capture/envelope-scenario.ts';
import type { AgentCheck, Status } from '../../harness/checks/check.ts';
import echoCheck from '../../harness/checks/version/echo.ts';
import negotiationCheck from '../../harness/checks/version/release-negotiation.ts';
import mismatchCheck from '../../harness/checks/version/major-mismatch.ts';
import protocolFieldsCheck from '../../harness/checks/envelope/protocol-fields.ts';
import contextCheck from '../../harness/checks/envelope/context-not-fabricated.ts';
import { capture, errorResult, result, success } from './build.ts';

const caps = (supported: unknown) =>
  result(success({ status: 'completed', adcp: { major_versions: [3], supported_versions: supported } }), {
    tool: 'get_adcp_capabilities',
    request: { name: 'get_adcp_capabilities', arguments: { context: { correlation_id: 'c0' } } },
  });

const pinned = (pin: string, major: number | undefined, answer: unknown, scenario?: { name: string; step: string }): Exchange =>
  result(answer, {
    request: {
      name: 'get_products',
      arguments: {
        buying_mode: 'brief',
        adcp_version: pin,
        ...(major !== undefined ? { adcp_major_version: major } : {}),
        context: { c: 1 },
      },
    },
    ...(scenario ? { scenario } : {}),
  });

const served = (release?: string) => success({ status: 'completed', products: [], ...(release ? { adcp_version: release } : {}) });
const unsupported = (details: unknown = { supported_versions: ['3.0', '3.1'] }) =>
  errorResult({ code: 'VERSION_UNSUPPORTED', message: 'no', recovery: 'correctable', details });

const statuses = (check: AgentCheck, a: AgentCapture): Status[] => check.judge(a, {}).map((v) => v.verdict.status);

describe('release facts', () => {
  test('parseRelease: release precision only', () => {
    expect(parseRelease('3.1')).toEqual({ major: 3, minor: 1 });
    expect(parseRelease('3.1-beta.2')).toEqual({ major: 3, minor: 1, pre: 'beta.2' });
    for (const bad of ['3.1.2', 'v3.1', '3', 3.1, null, {}, '3.1-', 'x'.repeat(100)]) expect(parseRelease(bad)).toBeNull();
  });

  test('resolvePin follows versioning.mdx', () => {
    const s = ['3.0', '3.1'];
    expect(resolvePin(s, '3.1')).toMatchObject({ serve: '3.1' });
    expect(resolvePin(s, '3.0')).toMatchObject({ serve: '3.0' });
    expect(resolvePin(s, '3.99')).toMatchObject({ serve: '3.1' });
    expect(resolvePin(['3.0', '3.2'], '3.1')).toMatchObject({ serve: '3.0' }); // the gap case of the text
    expect(resolvePin(['3.1-beta', '3.1'], '3.1')).toMatchObject({ serve: '3.1' });
    expect(resolvePin(['3.0', '3.1-beta'], '3.2')).toMatchObject({ serve: '3.0' }); // never onto a pre-release
    expect(resolvePin(s, '3.1-beta')).toHaveProperty('unsupported');
    expect(resolvePin(['3.1-beta'], '3.1-beta')).toMatchObject({ serve: '3.1-beta' });
    expect(resolvePin(['3.2'], '3.1')).toHaveProperty('unsupported'); // sub-min
    expect(resolvePin(s, '99.0')).toHaveProperty('unsupported');
    expect(resolvePin(s, '3.1', 4)).toHaveProperty('unsupported');
    expect(resolvePin(s, '3.1', 3)).toMatchObject({ serve: '3.1' });
  });

  test('declared releases come from the capabilities probe, bounded and well-formed only', () => {
    expect(declaredReleases([caps(['3.0', '3.1', 'bogus', 7])])).toEqual({ kind: 'declared', releases: ['3.0', '3.1'] });
    expect(declaredReleases([caps(undefined)]).kind).toBe('none');
    expect(declaredReleases([]).kind).toBe('unknown');
    expect(releases31(['2.5', '3.0', '3.1-beta', '4.0'])).toEqual(['3.1-beta', '4.0']);
  });

  test('pins the scenarios send', () => {
    expect(pinsFor(['3.0', '3.1'])).toEqual({
      major: 3,
      exact: '3.1',
      higherMinor: '3.99',
      preRelease: '3.1-beta.99',
      otherMajor: '99.0',
      nextMajor: 4,
      newest: '3.1',
    });
    expect(pinsFor(['3.1-beta.99', '3.1'])?.preRelease).not.toBe('3.1-beta.99');
    expect(pinsFor(['3.1-beta'])).toBeUndefined();
  });

  test('echoOf reads successes and errors, never throws on hostile answers', () => {
    expect(echoOf(pinned('3.1', 3, served('3.1')))?.value).toBe('3.1');
    expect(echoOf(pinned('3.1', 3, { ...unsupported(), structuredContent: { adcp_error: {}, adcp_version: '3.0' } }))?.value).toBe('3.0');
    for (const hostile of [null, 7, [], { isError: 'yes' }, { structuredContent: [] }, { isError: true, content: [{ text: '{' }] }])
      expect(() => echoOf(pinned('3.1', 3, hostile))).not.toThrow();
  });

  test('envelope fields: a well-formed compact JWS and a harmless webhook URL', () => {
    const jws = governanceToken(0).split('.');
    expect(jws).toHaveLength(3);
    expect(JSON.parse(Buffer.from(jws[0]!, 'base64url').toString())).toMatchObject({ typ: 'adcp-gov+jws' });
    const f = protocolFields([]);
    expect((f['push_notification_config'] as { url: string }).url).toMatch(/^https:\/\/conformance-test\.example\//);
    expect(f['idempotency_key']).toMatch(/^[A-Za-z0-9_.:-]{16,255}$/);
  });
});

describe('version.echo', () => {
  test('a 3.0-only seller: not applicable', () => {
    expect(statuses(echoCheck, capture({ exchanges: [caps(['3.0'])] }))).toEqual(['not-applicable']);
  });
  test('the release served comes back, the same for the same pin', () => {
    const ok = capture({ exchanges: [caps(['3.0', '3.1']), pinned('3.1', 3, served('3.1')), pinned('3.99', 3, served('3.1'))] });
    expect(statuses(echoCheck, ok)).toEqual(['pass']);
  });
  test('absent, unlisted, patch precision or changing echoes warn-level fails', () => {
    for (const echo of [undefined, '3.1.2', '3.2', 31]) {
      const a = capture({ exchanges: [caps(['3.0', '3.1']), pinned('3.1', 3, served(echo as string))] });
      expect(statuses(echoCheck, a)).toEqual(['fail']);
    }
    const drift = capture({ exchanges: [caps(['3.0', '3.1']), pinned('3.1', 3, served('3.1')), pinned('3.1', 3, served('3.0'))] });
    expect(statuses(echoCheck, drift)).toEqual(['fail']);
  });
  test('a VERSION_UNSUPPORTED refusal served no release: not judged', () => {
    const a = capture({ exchanges: [caps(['3.0', '3.1']), pinned('99.0', 99, unsupported())] });
    expect(statuses(echoCheck, a)).toEqual(['not-applicable']);
  });
});

const step = (name: string, s: string) => ({ name, step: s });
const ran = (...names: string[]) => names.map((name) => ({ name, status: 'ran' as const }));

describe('version.release-negotiation', () => {
  const N = VERSION_SCENARIO.negotiation;
  const run = (answers: [string, number, unknown, string][]) =>
    capture({
      exchanges: [caps(['3.0', '3.1']), ...answers.map(([pin, major, answer, s]) => pinned(pin, major, answer, step(N, s)))],
      scenarios: ran(N),
    });
  const good: [string, number, unknown, string][] = [
    ['3.0', 3, served('3.0'), VERSION_STEP.exact],
    ['3.99', 3, served('3.1'), VERSION_STEP.higherMinor],
    ['3.1-beta.99', 3, unsupported(), VERSION_STEP.preRelease],
    ['99.0', 99, unsupported(), VERSION_STEP.otherMajor],
  ];
  test('the conformant answers pass', () => {
    expect(statuses(negotiationCheck, run(good))).toEqual(['pass', 'pass', 'pass', 'pass']);
  });
  test('a wrong downshift, a served pre-release, a refusal without supported_versions fail', () => {
    const bad = good.map((g) => [...g] as [string, number, unknown, string]);
    bad[1]![2] = served('3.0');
    bad[2]![2] = served('3.0');
    bad[3]![2] = unsupported({});
    expect(statuses(negotiationCheck, run(bad))).toEqual(['pass', 'fail', 'fail', 'fail']);
  });
  test('no echo: served vs refused only, and the subject says what stayed unverified', () => {
    const quiet = good.map(
      (g) =>
        [g[0], g[1], g[3] === VERSION_STEP.exact || g[3] === VERSION_STEP.higherMinor ? served() : g[2], g[3]] as [
          string,
          number,
          unknown,
          string,
        ],
    );
    const out = (negotiationCheck as AgentCheck).judge(run(quiet), {});
    expect(out.map((v) => v.verdict.status)).toEqual(['pass', 'pass', 'pass', 'pass']);
    expect(out[0]!.subject).toContain('unverified');
  });
  test('a seller declaring only 3.0 is not concerned', () => {
    expect(statuses(negotiationCheck, capture({ exchanges: [caps(['3.0'])], scenarios: ran(N) }))).toEqual(['not-applicable']);
  });
});

describe('version.major-mismatch', () => {
  const M = VERSION_SCENARIO.mismatch;
  const run = (a: unknown, b: unknown) =>
    capture({
      exchanges: [
        caps(['3.0', '3.1']),
        pinned('3.1', 4, a, step(M, VERSION_STEP.majorDisagrees)),
        pinned('4.0', 3, b, step(M, VERSION_STEP.releaseDisagrees)),
      ],
      scenarios: ran(M),
    });
  test('both refused: pass; one served: fail', () => {
    expect(statuses(mismatchCheck, run(unsupported(), unsupported()))).toEqual(['pass', 'pass']);
    expect(statuses(mismatchCheck, run(served('3.1'), unsupported()))).toEqual(['fail', 'pass']);
    expect(
      statuses(mismatchCheck, run(errorResult({ code: 'INVALID_REQUEST', message: 'x', recovery: 'correctable' }), unsupported())),
    ).toEqual(['fail', 'pass']);
  });
});

describe('envelope.protocol-fields and envelope.context-not-fabricated', () => {
  const P = ENVELOPE_SCENARIO.protocolFields;
  const C = ENVELOPE_SCENARIO.noContext;
  const withFields = (answer: unknown) =>
    result(answer, {
      request: { name: 'get_products', arguments: { context_id: 'x', context: { c: 1 } } },
      scenario: step(P, ENVELOPE_STEP.withFields),
    });
  test('served: pass; refused: fail; 3.0-only: not applicable', () => {
    expect(statuses(protocolFieldsCheck, capture({ exchanges: [caps(['3.0', '3.1']), withFields(served())], scenarios: ran(P) }))).toEqual([
      'pass',
    ]);
    const refused = errorResult({ code: 'VALIDATION_ERROR', message: 'unexpected field governance_context', recovery: 'correctable' });
    expect(statuses(protocolFieldsCheck, capture({ exchanges: [caps(['3.0', '3.1']), withFields(refused)], scenarios: ran(P) }))).toEqual([
      'fail',
    ]);
    expect(statuses(protocolFieldsCheck, capture({ exchanges: [caps(['3.0'])], scenarios: ran(P) }))).toEqual(['not-applicable']);
  });
  const noContext = (answer: unknown, args: Record<string, unknown> = { buying_mode: 'brief' }) =>
    result(answer, { request: { name: 'get_products', arguments: args }, scenario: step(C, ENVELOPE_STEP.withoutContext) });
  test('no context back (absent or null): pass; a made-up one, on success or error: fail', () => {
    const judge = (x: Exchange) => statuses(contextCheck, capture({ exchanges: [x], scenarios: ran(C) }));
    expect(judge(noContext(served()))).toEqual(['pass']);
    expect(judge(noContext(success({ status: 'completed', context: null })))).toEqual(['pass']);
    expect(judge(noContext(success({ status: 'completed', context: {} })))).toEqual(['fail']);
    expect(judge(noContext(errorResult({ code: 'X', message: 'y', recovery: 'terminal' }, { context: { trace: 1 } })))).toEqual(['fail']);
    expect(judge(noContext(served(), { context: { c: 1 } }))).toEqual(['untested']);
    expect(judge(noContext(7))).toEqual(['untested']);
  });
});
