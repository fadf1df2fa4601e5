// One storyboard's result, as outcomes: id `storyboard.<storyboard id>`, tool `<phase>/<step> › <check>`.
// The runner's own grading is not taken at face value: a skipped step is never a pass (an all-skipped
// storyboard is `overall_passed` for the runner), a step whose call got no answer from the agent is
// untested (the runner grades the transport's error text as if it were the seller's answer), and a
// failure a known runner defect explains is not-applicable.
import type { StoryboardPhaseResult, StoryboardResult, StoryboardStepResult, ValidationResult } from '@adcp/sdk/testing';
import type { Outcome, Status } from '../checks/check.ts';
import { isObject, own, preview, safeStringify } from '../json.ts';
import { escapeVisible } from '../sanitize.ts';
import { cascades, defectFor, detectedDefect, type KnownDefect, type KnownDefects } from './known-defects.ts';
import type { ProxiedCall } from './proxy.ts';
import type { PlannedStoryboard } from './worker.ts';

export interface StoryboardOutcome extends Outcome {
  /** The storyboard id (the outcome's `check` is `storyboard.<this>`). */
  storyboard: string;
  /** Version of the storyboard corpus that graded it (from the pinned SDK). */
  corpusVersion: string;
  /** Set when a known runner defect turned this outcome into not-applicable. */
  knownDefect?: string;
  /** Set when the agent declares AdCP versions the corpus does not cover. */
  versionMismatch?: string;
  /** The proxied calls (`seq`) this step made, in order. */
  calls?: number[];
  durationMs?: number;
  evidence?: { request?: string; answer?: string };
}

export interface StoryboardContext {
  corpusVersion: string;
  defects: KnownDefects;
  /** The storyboard's tools/call requests, in arrival order (already filtered to this storyboard). */
  calls: readonly ProxiedCall[];
  versionMismatch?: string;
}

/** Tasks the runner serves itself (HTTP probes, assertions) or that never reach the agent as a tools/call. */
const NOT_TOOL_CALLS = new Set([
  'protected_resource_metadata',
  'oauth_auth_server_metadata',
  'assert_contribution',
  'request_signing_probe',
  'expect_webhook',
  'expect_webhook_retry_keys_stable',
  'expect_webhook_signature_valid',
]);

/** Skips that say the storyboard step does not concern this agent. Everything else is untested. */
const NOT_APPLICABLE_SKIPS: Record<string, string> = {
  missing_tool: 'the agent does not list the tool this step needs',
  not_applicable: 'the runner graded this step not applicable',
  capability_unsupported: 'the agent declares it does not support what this storyboard tests',
  no_phases: 'the storyboard has no phases the runner could run',
  peer_branch_taken: 'another branch of the same any-of set was taken',
  peer_substituted: 'a peer step established the same state',
  oauth_not_advertised: 'the agent advertises no OAuth protected-resource metadata (another auth mechanism is tested instead)',
  missing_test_controller:
    'the agent does not expose comply_test_controller, which this step needs (a test-only tool a production seller does not list)',
  // The corpus grades a step that needs a runner-side contract (a webhook receiver, a signing test kit)
  // not applicable when the runner does not host it; the harness hosts none (a remote seller cannot reach it).
  unsatisfied_contract:
    'the step needs a runner-side test contract the harness does not host (e.g. a webhook receiver); the corpus grades it not applicable',
};

const SHOWN = 200;
const clean = (s: string, max = SHOWN): string => escapeVisible(s, max);
const show = (v: unknown): string => clean(v === undefined ? 'absent' : typeof v === 'string' ? v : preview(v));

export function specUrl(sb: Pick<PlannedStoryboard, 'bundle'>, corpusVersion: string): string {
  const dir = sb.bundle.kind === 'universal' ? 'universal' : sb.bundle.kind === 'protocol' ? 'protocols' : 'specialisms';
  return `https://adcontextprotocol.org/compliance/${corpusVersion}/${dir}/${sb.bundle.id}`;
}

/** The outcome fields every storyboard outcome shares. */
function base(sb: PlannedStoryboard, ctx: StoryboardContext, tool: string, status: Status, message: string): StoryboardOutcome {
  return {
    check: `storyboard.${sb.id}`,
    tool,
    status,
    severity: 'MUST',
    message: clean(message, 600),
    spec: clean(`AdCP compliance storyboard ${sb.id} (${sb.title}), corpus ${ctx.corpusVersion}`),
    specUrl: specUrl(sb, ctx.corpusVersion),
    storyboard: sb.id,
    corpusVersion: ctx.corpusVersion,
    ...(ctx.versionMismatch !== undefined ? { versionMismatch: ctx.versionMismatch } : {}),
  };
}

/** Every planned step untested (the storyboard never ran or never finished). */
export function untestedStoryboard(sb: PlannedStoryboard, ctx: StoryboardContext, reason: string): StoryboardOutcome[] {
  const steps = sb.phases.flatMap((p) => p.steps.map((s) => ({ phase: p.id, step: s.id })));
  if (steps.length === 0) return [base(sb, ctx, 'storyboard', 'untested', reason)];
  return steps.map((s) => base(sb, ctx, `${s.phase}/${s.step} › step`, 'untested', reason));
}

/** Every planned step not applicable (the storyboard does not concern this agent). */
export function notApplicableStoryboard(sb: PlannedStoryboard, ctx: StoryboardContext, reason: string): StoryboardOutcome[] {
  return [base(sb, ctx, 'storyboard', 'not-applicable', reason)];
}

/** `check path` (or `assertion <id>`), unique within the step. */
function labels(validations: readonly ValidationResult[]): string[] {
  const seen = new Map<string, number>();
  return validations.map((v) => {
    let label = v.check;
    if (v.check === 'assertion') label = `assertion ${/^([\w.-]+):/.exec(v.description)?.[1] ?? ''}`.trim();
    else if (typeof v.path === 'string' && v.path !== '') label = `${v.check} ${v.path}`;
    // A capture names the authored context_outputs path (stable); other pointers depend on the answer.
    else if (v.check.startsWith('capture_') && typeof v.json_pointer === 'string' && v.json_pointer !== '')
      label = `${v.check} ${v.json_pointer}`;
    const n = (seen.get(label) ?? 0) + 1;
    seen.set(label, n);
    return n > 1 ? `${label} #${n}` : label;
  });
}

/** The correlation id a request carries in `context`, if any. */
const correlationOf = (args: unknown): unknown => own(own(args, 'context'), 'correlation_id');

/**
 * Which proxied calls each step made: in order, the next tools/call of the step's task (same context
 * correlation id when the step sends one), plus the runner's immediate repeats of a failed call.
 */
export function correlate(
  phases: readonly StoryboardPhaseResult[],
  calls: readonly ProxiedCall[],
): Map<StoryboardStepResult, ProxiedCall[]> {
  const tools = calls.filter((c) => c.method === 'tools/call');
  const claimed = new Set<number>();
  const out = new Map<StoryboardStepResult, ProxiedCall[]>();
  let cursor = 0;
  for (const phase of phases) {
    for (const step of phase.steps) {
      const op = step.request?.operation;
      if (step.skipped || !op || NOT_TOOL_CALLS.has(op) || step.request?.transport === 'http') continue;
      const want = correlationOf(step.request?.payload);
      const at = tools.findIndex(
        (c, i) =>
          i >= cursor &&
          !claimed.has(c.seq) &&
          c.repeatOf === undefined &&
          c.tool === op &&
          (want === undefined || correlationOf(c.arguments) === want),
      );
      if (at < 0) continue;
      const first = tools[at]!;
      const mine = [first, ...tools.filter((c) => c.repeatOf === first.seq)];
      for (const c of mine) claimed.add(c.seq);
      out.set(step, mine);
      cursor = at + 1;
    }
  }
  return out;
}

/** Why a step's own call tells nothing about the seller (no answer, or not forwarded), if so. */
function unanswered(calls: readonly ProxiedCall[]): string | undefined {
  for (const c of calls) {
    if (c.refused !== undefined) return `not run: ${c.refused} (the call was not sent)`;
    const o = c.exchange?.outcome;
    // An HTTP status (401, 403 …) is an answer the runner grades; anything else is no answer at all.
    if (o?.kind === 'transport-error' && o.failure.kind !== 'http-status') {
      return `the agent gave no answer to ${c.exchange!.tool} (${o.failure.kind}: ${o.failure.message}); see the transport checks of this call`;
    }
  }
  return undefined;
}

function evidenceOf(step: StoryboardStepResult, calls: readonly ProxiedCall[]): StoryboardOutcome['evidence'] {
  const x = calls[0]?.exchange;
  const request = x
    ? `${x.tool} ${safeStringify(x.request.arguments) ?? ''}`
    : step.request
      ? `${step.request.operation} ${safeStringify(step.request.payload) ?? ''}`
      : undefined;
  let answer: string | undefined;
  if (x) {
    const o = x.outcome;
    answer =
      o.kind === 'result'
        ? (safeStringify(o.result) ?? undefined)
        : o.kind === 'jsonrpc-error'
          ? (safeStringify(o.error) ?? undefined)
          : `${o.failure.kind}: ${o.failure.message}`;
  } else if (step.response_record) {
    const r = step.response_record;
    answer = `${r.status !== undefined ? `HTTP ${r.status} ` : ''}${safeStringify(r.payload) ?? ''}`;
  }
  return {
    ...(request !== undefined ? { request: clean(request, 500) } : {}),
    ...(answer !== undefined ? { answer: clean(answer, 500) } : {}),
  };
}

function failureMessage(v: ValidationResult): { message: string; pointer: string; expected: string; found: string } {
  const pointer = typeof v.json_pointer === 'string' ? v.json_pointer || '/' : typeof v.path === 'string' ? v.path : '/';
  const expected = v.expected !== undefined ? show(v.expected) : clean(v.description);
  const found = v.actual !== undefined ? show(v.actual) : v.error !== undefined ? clean(v.error) : 'absent';
  const why = v.error !== undefined && v.actual !== undefined ? ` (${clean(v.error)})` : '';
  return { message: `at ${pointer}: expected ${expected}, found ${found}${why}`, pointer, expected, found };
}

const defectNote = (d: KnownDefect, detail = ''): string =>
  `known runner defect: ${d.title}${detail}${d.upstream ? ` (${d.upstream})` : ''}`;

/** Whether a failed validation is about a field the runner dropped (its path starts with that field). */
function aboutDropped(v: ValidationResult, dropped: readonly string[]): boolean {
  const first = (p: unknown): string | undefined => (typeof p === 'string' ? p.replace(/^\//, '').split(/[./[]/)[0] : undefined);
  return [first(v.path), first(v.json_pointer)].some((f) => f !== undefined && dropped.includes(f));
}

/** Top-level request fields the runner meant to send (its request record) that the agent never received. */
export function droppedFields(step: StoryboardStepResult, calls: readonly ProxiedCall[]): string[] {
  const intended = step.request?.payload;
  const sent = calls[0]?.arguments;
  if (!isObject(intended) || !isObject(sent)) return [];
  return Object.keys(intended).filter((k) => !Object.hasOwn(sent, k));
}

/** The outcomes of one storyboard the runner finished. */
export function storyboardOutcomes(sb: PlannedStoryboard, result: StoryboardResult, ctx: StoryboardContext): StoryboardOutcome[] {
  const out: StoryboardOutcome[] = [];
  const byStep = correlate(result.phases, ctx.calls);
  /** A failed step whose known defect cascades: the steps the runner skipped after it are that defect's too. */
  let cascade: KnownDefect | undefined;

  for (const phase of result.phases) {
    for (const step of phase.steps) {
      const where = `${phase.phase_id}/${step.step_id}`;
      const calls = byStep.get(step) ?? [];
      const common = {
        ...(calls.length ? { calls: calls.map((c) => c.seq) } : {}),
        durationMs: step.duration_ms,
      };
      const push = (o: StoryboardOutcome) =>
        out.push({
          ...o,
          ...common,
          ...(o.status !== 'pass' && o.status !== 'not-applicable' ? { evidence: evidenceOf(step, calls) } : {}),
        });

      if (phase.phase_id === 'discovery_failed') {
        push(
          base(
            sb,
            ctx,
            `${where} › step`,
            'untested',
            `the runner could not discover the agent through the harness's proxy: ${step.error ?? 'no detail'}`,
          ),
        );
        continue;
      }
      if (step.skipped) {
        const reason = step.skip_reason ?? step.skip?.reason ?? 'skipped';
        const detail = step.skip?.detail ?? step.error;
        if (reason === 'prerequisite_failed' && cascade) {
          push({
            ...base(sb, ctx, `${where} › step`, 'not-applicable', `${defectNote(cascade)}; skipped because an earlier step hit it`),
            knownDefect: cascade.id,
          });
          continue;
        }
        const why = NOT_APPLICABLE_SKIPS[reason];
        const afterNa =
          reason === 'prerequisite_failed' &&
          detail !== undefined &&
          /\((missing_tool|missing_test_controller|not_applicable)\)/.test(detail);
        if (why !== undefined || afterNa) {
          push(
            base(
              sb,
              ctx,
              `${where} › step`,
              'not-applicable',
              `${why ?? 'an earlier step this one needs does not apply to the agent'}${detail ? `: ${detail}` : ''}`,
            ),
          );
        } else {
          push(base(sb, ctx, `${where} › step`, 'untested', `skipped by the runner (${reason})${detail ? `: ${detail}` : ''}`));
        }
        continue;
      }

      const noAnswer = unanswered(calls);
      if (noAnswer !== undefined) {
        push(base(sb, ctx, `${where} › step`, 'untested', noAnswer));
        continue;
      }

      const names = labels(step.validations);
      // The runner's client dropped request fields on the way (fields the agent's inputSchema does not
      // list): what failed may be about fields the agent never saw.
      const dropped = droppedFields(step, calls);
      const droppedDefect = dropped.length ? detectedDefect('request-fields-dropped', ctx.defects) : undefined;
      const droppedNote = droppedDefect
        ? defectNote(droppedDefect, ` (dropped: ${dropped.join(', ')}; listing them in the tool's inputSchema avoids it)`)
        : '';
      const judged: StoryboardOutcome[] = step.validations.map((v, i) => {
        const tool = `${where} › ${names[i]}`;
        if (v.passed && v.not_applicable)
          return base(sb, ctx, tool, 'not-applicable', `the runner does not implement this check${v.note ? `: ${v.note}` : ''}`);
        const defect = defectFor(
          { storyboard: sb.id, step: step.step_id, check: v.check, pointer: v.json_pointer ?? null, verdict: v.passed ? 'pass' : 'fail' },
          ctx.defects,
        );
        if (defect) {
          if (!v.passed && cascades(defect, sb.id, step.step_id)) cascade = defect;
          return { ...base(sb, ctx, tool, 'not-applicable', defectNote(defect)), knownDefect: defect.id };
        }
        if (!v.passed && droppedDefect && aboutDropped(v, dropped)) {
          return { ...base(sb, ctx, tool, 'not-applicable', droppedNote), knownDefect: droppedDefect.id };
        }
        if (v.passed) return base(sb, ctx, tool, 'pass', '');
        const f = failureMessage(v);
        return {
          ...base(sb, ctx, tool, 'fail', f.message),
          pointer: f.pointer,
          expected: f.expected,
          found: f.found,
          fix: clean(v.description),
        };
      });
      // The step's own verdict, when no validation carries it (no validations, or all passed on a failed step).
      const stepFailed = !step.passed && !step.validations.some((v) => !v.passed);
      if (step.validations.length === 0 || stepFailed) {
        const tool = `${where} › step`;
        const defect = defectFor(
          { storyboard: sb.id, step: step.step_id, check: 'step', verdict: step.passed ? 'pass' : 'fail' },
          ctx.defects,
        );
        if (defect) {
          if (!step.passed && cascades(defect, sb.id, step.step_id)) cascade = defect;
          judged.push({ ...base(sb, ctx, tool, 'not-applicable', defectNote(defect)), knownDefect: defect.id });
        } else if (!step.passed && droppedDefect && step.validations.length === 0) {
          judged.push({ ...base(sb, ctx, tool, 'not-applicable', droppedNote), knownDefect: droppedDefect.id });
        } else if (step.passed) {
          judged.push(base(sb, ctx, tool, 'pass', ''));
        } else {
          const found = step.error ?? 'the step failed without a validation saying why';
          judged.push({
            ...base(sb, ctx, tool, 'fail', `expected the step to pass${step.expect_error ? ' (an error answer)' : ''}, found ${found}`),
            expected: 'step passes',
            found: clean(found),
            fix: clean(step.title),
          });
        }
      }
      // Every failure of the step is the dropped fields' doing: the runner's skips after it are too.
      const failures = judged.filter((o) => o.status === 'fail' || o.knownDefect !== undefined);
      if (!step.passed && droppedDefect && failures.length > 0 && failures.every((o) => o.knownDefect === droppedDefect.id))
        cascade ??= droppedDefect;
      for (const o of judged) push(o);
    }
  }

  for (const a of result.assertions ?? []) {
    if (a.scope !== 'storyboard') continue;
    const tool = `invariant › ${a.assertion_id}`;
    if (a.passed) {
      // An observation-based invariant that saw nothing verified nothing.
      const silent = a.observation_count === 0;
      out.push(
        base(sb, ctx, tool, silent ? 'not-applicable' : 'pass', silent ? 'nothing this invariant watches happened in the storyboard' : ''),
      );
    } else {
      out.push({
        ...base(sb, ctx, tool, 'fail', a.error ?? a.description),
        found: clean(a.error ?? ''),
        expected: clean(a.description),
        fix: clean(a.description),
      });
    }
  }
  return out;
}

/** A readable agent-declared AdCP version list, from a raw get_adcp_capabilities payload. */
export function declaredVersions(capabilities: unknown): { supported?: string[]; majors?: number[] } {
  const adcp = own(capabilities, 'adcp');
  if (!isObject(adcp)) return {};
  const supported = own(adcp, 'supported_versions');
  const majors = own(adcp, 'major_versions');
  return {
    ...(Array.isArray(supported) ? { supported: supported.filter((v): v is string => typeof v === 'string') } : {}),
    ...(Array.isArray(majors) ? { majors: majors.filter((v): v is number => typeof v === 'number') } : {}),
  };
}

/**
 * Why the storyboards grade no release newer than the pinned corpus (3.0.6 in @adcp/sdk 6.11.0): the
 * 3.1.19 corpus loads in this runner (ADCP_COMPLIANCE_DIR) but does not run faithfully on it, so it is
 * not offered. Found by running it against the reference seller (README, "Storyboards and AdCP 3.1").
 */
export const NEWER_CORPUS_UNSUPPORTED =
  'the pinned runner cannot run a newer corpus faithfully: it cannot pin adcp_version above its own schema bundle, ' +
  'grades response_schema against its bundled schemas, and grades check types it does not implement as not applicable';

/** `3.1` → [3, 1]; `3.1-beta` → [3, 1]; anything else → undefined. */
function releaseParts(v: string): [number, number] | undefined {
  const m = /^(\d{1,4})\.(\d{1,4})(?:[.-]|$)/.exec(v);
  return m ? [Number(m[1]), Number(m[2])] : undefined;
}

/**
 * When the agent declares versions the corpus does not cover (e.g. only 3.1), or also a release newer
 * than the corpus (3.0 and 3.1 against the 3.0.6 corpus): the sentence saying so, named on every outcome.
 * `runner` names the runner (`@adcp/sdk 6.11.0`) in the sentence.
 */
export function versionMismatch(capabilities: unknown, corpusVersion: string, runner = 'the pinned @adcp/sdk'): string | undefined {
  const { supported, majors } = declaredVersions(capabilities);
  const [major, minor] = corpusVersion.split('.');
  const corpusMinor = `${major}.${minor}`;
  const corpus = releaseParts(corpusVersion);
  if (supported && supported.length > 0) {
    const newer = supported.filter((v) => {
      const p = releaseParts(v);
      return p !== undefined && corpus !== undefined && (p[0] > corpus[0] || (p[0] === corpus[0] && p[1] > corpus[1]));
    });
    const why = newer.length
      ? `: AdCP ${newer.join(', ')} is not graded by storyboards here (${runner} ships the ${corpusVersion} corpus only; ${NEWER_CORPUS_UNSUPPORTED})`
      : '';
    const coversCorpus = supported.some((v) => v === corpusMinor || v.startsWith(`${corpusMinor}.`));
    if (coversCorpus && !why) return undefined;
    return clean(`the agent declares AdCP ${supported.join(', ')}; the storyboards are the ${corpusVersion} corpus${why}`, 600);
  }
  if (majors && majors.length > 0 && !majors.includes(Number(major))) {
    return clean(`the agent declares AdCP major version(s) ${majors.join(', ')}; the storyboards are the ${corpusVersion} corpus`);
  }
  return undefined;
}
