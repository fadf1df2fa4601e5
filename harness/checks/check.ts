// The shape of a check: its definition as data (id, severity, title, spec reference, fix hint and the
// flags that decide how the engine runs it) plus a pure `judge` function. One check = one module under
// harness/checks/<area>/<slug>.ts whose default export is `defineCheck({...})`; the catalog finds it there.
// Exchange checks judge one call; agent checks judge the whole session (handshake, tool list).
import type { AgentCapture, Exchange } from '../record/exchange.ts';
import type { SchemaError, SchemaService } from '../schemas/service.ts';

export type Level = 'MUST' | 'SHOULD';

/** One step of a conditional level: from this version on (inclusive), the rule has this level. */
export interface LevelStep {
  from: string;
  level: Level;
}

/**
 * A check's severity as data: a fixed level, or a level that depends on the negotiated MCP revision
 * (`YYYY-MM-DD`) or on the AdCP version the call is judged at (`major.minor`). Steps are tried newest
 * first; below the oldest step the rule gives `below` — a level, or the reason it does not apply.
 */
export type SeverityRule =
  | Level
  | { byMcpRevision: LevelStep[]; below: Level | { notApplicable: string } }
  | { byAdcpVersion: LevelStep[]; below: Level | { notApplicable: string } };

// The schema service's contract lives with the schemas (so schemas/ never imports checks/); checks read it here.
export type { SchemaError, SchemaService } from '../schemas/service.ts';

/** Where a rule comes from: a public URL (AdCP or MCP page and section) and a short label. */
export interface SpecRef {
  label: string;
  url: string;
}

/** Outcome statuses as every report carries them (report.json schemaVersion 2). */
export type Status = 'pass' | 'fail' | 'warn' | 'not-applicable' | 'untested';

/** What a judge returns. `fail` becomes `warn` when the effective level is SHOULD. */
export type Verdict =
  | { status: 'pass' }
  /** The check does not concern this seller or call (a success rule on an error, a tool that is not AdCP). */
  | { status: 'not-applicable'; reason: string }
  /**
   * The check applies but could not be verified (no answer, schemas missing, a precondition failed elsewhere).
   * `blockedBy`: the check whose failure is that precondition, when the reason names one (`… see <id>`).
   */
  | { status: 'untested'; reason: string; blockedBy?: Blocker }
  | {
      status: 'fail';
      /** JSON pointer into the exchange (`/result/structuredContent/status`) or a session fact (`/tools/3/name`). */
      pointer: string;
      expected: string;
      found: string;
      /** Every schema error when the finding is a schema validation (bounded by the schema service). */
      schemaErrors?: SchemaError[];
      /** How many schema errors were left out of `schemaErrors`. */
      schemaErrorsOmitted?: number;
      /**
       * The other calls the finding rests on (indexes in the capture's `exchanges`): a request pair, a
       * write and the read that missed it. Their requests and answers are shown as evidence with it.
       */
      related?: number[];
    };

export interface CheckContext {
  /** Services the schema checks need (Ajv registries); absent in plain unit tests. */
  schemas?: SchemaService;
  /**
   * The agent's configuration facts, for exchange checks that need them (the `metaIdTools` override of
   * the structured-content layer, the configured AdCP version). Optional: `judgeAgent` fills it from the capture.
   */
  agent?: AgentCapture['agent'];
  /**
   * The agent's `expect` baseline and this run's other outcomes, for the check that judges the baseline
   * itself (baseline.stale). Set by harness/run only, in a pass after every other check has judged.
   */
  baseline?: BaselineContext;
}

/** What a baseline judge sees: the entries as written in the config, and what the run found without them. */
export interface BaselineContext {
  /** Every `expect` entry of the agent: its key as written (`check id` or `check id › tool`) and its JSON pointer in the config. */
  entries: ReadonlyArray<{ key: string; pointer: string }>;
  /** false under `--no-baseline`: the entries were not applied, so they are not judged either. */
  applied: boolean;
  /** Every other outcome of the agent in this run (before the baseline was applied): check, tool label, status. */
  outcomes: ReadonlyArray<{ check: string; tool: string; status: Status }>;
}

interface CheckBase {
  /** Stable `area.slug` id; never renamed (add a new id instead). The module's file is `<area>/<slug>.ts`. */
  id: string;
  severity: SeverityRule;
  title: string;
  /** Public URL of the rule; for a rule this harness adds, its section of docs/checks.md. */
  spec: SpecRef;
  /** One line: how a seller fixes a failure of this check (with an example where it helps). */
  fix: string;
  /** A rule this harness adds to the AdCP/MCP ones (its `spec` links its section of docs/checks.md, which explains why). */
  harnessAddition?: boolean;
  /**
   * For a rule whose level is fixed but whose requirement depends on a version (listed as MUST*): what
   * changes, in one line (e.g. `supported_versions required from AdCP 3.1; 3.0 declares major_versions`).
   */
  condition?: string;
  /** Decided only from a live session's facts (handshake, transport): a recording replays its outcome. */
  live: boolean;
  /**
   * For a check no reference-seller fault can trip (it judges the harness's own config, not a seller's
   * answer): the test file, relative to the project root, that proves it live. The matrix accepts it
   * in place of a fault.
   */
  provenBy?: string;
  /**
   * A state rule: it needs calls that write (bookings, creatives, replays), made on agents marked
   * `sandbox` only; elsewhere every outcome is not-applicable with the reason, and the reports list the
   * rule among those out of reach with how to enable it.
   */
  requires?: 'sandbox';
}

export interface ExchangeCheck extends CheckBase {
  scope: 'exchange';
  /** Judge calls that got no answer (timeouts, crashes) too; every other exchange check marks them untested. */
  judgesUnanswered?: boolean;
  judge(x: Exchange, ctx: CheckContext): Verdict;
  /** Extra verdicts about the session as a whole (e.g. a session cut short), after the per-call ones. */
  judgeSession?(a: AgentCapture, ctx: CheckContext): AgentVerdict[];
}

/** One verdict per subject (a tool name, or a fixed label such as `tools/list`). */
export interface AgentVerdict {
  subject: string;
  verdict: Verdict;
}

export interface AgentCheck extends CheckBase {
  scope: 'agent';
  judge(a: AgentCapture, ctx: CheckContext): AgentVerdict[];
}

export type Check = ExchangeCheck | AgentCheck;

const ID = /^[a-z][a-z0-9]*(?:-[a-z0-9]+)*\.[a-z0-9]+(?:-[a-z0-9]+)*$/;

/** Declare a check. Validates the definition's data so a malformed module fails loudly at load. */
export function defineCheck<T extends Check>(check: T): T {
  const problems: string[] = [];
  if (!ID.test(check.id)) problems.push(`id '${check.id}' is not area.kebab-slug`);
  if (!check.title) problems.push('title is empty');
  if (!check.fix) problems.push('fix is empty');
  if (!check.spec?.label || !/^(https:\/\/|docs\/checks\.md#)/.test(check.spec?.url ?? ''))
    problems.push('spec needs a label and a public https URL (or docs/checks.md#section for a harness addition)');
  if (check.harnessAddition && !check.spec.url.startsWith('docs/checks.md#'))
    problems.push('a harness addition links its section of docs/checks.md');
  if (typeof check.judge !== 'function') problems.push('judge is not a function');
  if (problems.length) throw new Error(`check ${String(check.id)}: ${problems.join('; ')}`);
  return Object.freeze(check);
}

/**
 * A MUST of the AdCP 3.1 line: judged at 3.1 and later, not applicable below (a seller that declares no 3.1
 * release, or a call served at an earlier one).
 */
export const MUST_FROM_ADCP_3_1: SeverityRule = {
  byAdcpVersion: [{ from: '3.1', level: 'MUST' }],
  below: {
    notApplicable:
      'a rule of the AdCP 3.1 line, not in force at the release judged (the seller declares no 3.1+ release in adcp.supported_versions, or this call was served at an earlier one)',
  },
};

export const pass = (): Verdict => ({ status: 'pass' });
export const notApplicable = (reason: string): Verdict => ({ status: 'not-applicable', reason });
/**
 * Untested. `blockedBy` names the check whose failure left this unverified (the one the reason says to
 * see), `call` the call it judges when that is not the call being judged (exchange checks default to it).
 */
/** `see <check id>` in an untested reason: the check whose failure left it untested. */
const SEE_CHECK = /\bsee ([a-z][a-z0-9]*(?:-[a-z0-9]+)*\.[a-z0-9]+(?:-[a-z0-9]+)*)\b/;

/**
 * An untested verdict. Its precondition (blockedBy) is the check its reason sends the reader to
 * (`… see transport.call`), unless given: one source for the words and the data, and no check id
 * quoted outside its own module.
 */
export const untested = (reason: string, blockedBy: string | undefined = SEE_CHECK.exec(reason)?.[1], call?: number): Verdict =>
  blockedBy === undefined
    ? { status: 'untested', reason }
    : { status: 'untested', reason, blockedBy: call === undefined ? { check: blockedBy } : { check: blockedBy, call } };
export const fail = (pointer: string, expected: string, found: string): Verdict => ({ status: 'fail', pointer, expected, found });
/** A failure that rests on more than one call: `related` are the others (e.g. the booking a read missed). */
export const failAcross = (pointer: string, expected: string, found: string, related: readonly number[]): Verdict => ({
  status: 'fail',
  pointer,
  expected,
  found,
  related: [...related],
});

/** The check an untested verdict names as its failed precondition, if any. */
export function blockerOf(verdict: Verdict): string | undefined {
  return verdict.status === 'untested' ? verdict.blockedBy?.check : undefined;
}

/**
 * The verdict, with an untested verdict's blocker placed on call `call` (unless it names its own): for agent
 * checks that judge one call of the session (a scenario step, the capabilities call).
 */
export function onCall(verdict: Verdict, call: number | undefined): Verdict {
  if (verdict.status !== 'untested' || verdict.blockedBy === undefined || verdict.blockedBy.call !== undefined || call === undefined)
    return verdict;
  return { ...verdict, blockedBy: { check: verdict.blockedBy.check, call } };
}

/**
 * The precondition an untested outcome names: the check whose failure left it unverified, and the call that
 * check judged (absent for a session-level check such as transport.initialize or transport.tools-list).
 * A baselined failure of that check there covers the untested outcome (harness/report/model.ts).
 */
export interface Blocker {
  check: string;
  call?: number;
}

/** A check outcome as reports see it: the check id, the subject (tool) and the final status. */
export interface Outcome {
  check: string;
  /** Tool name, or a session label such as `initialize` / `tools/list`. */
  tool: string;
  status: Status;
  /** The level in force for this outcome (a conditional rule resolved for this call). */
  severity: Level;
  /** Readable detail: `at /pointer: expected …, found …`, or the not-applicable / untested reason. Empty on pass. */
  message: string;
  pointer?: string;
  expected?: string;
  found?: string;
  schemaErrors?: SchemaError[];
  schemaErrorsOmitted?: number;
  /** Label of the rule's source. */
  spec: string;
  /** Public URL of the rule (docs/checks.md#section for the harness's own rules). */
  specUrl: string;
  /** How to fix a failure (present on fail and warn). */
  fix?: string;
  /** Index of the judged call in the capture's `exchanges` (exchange checks only). */
  call?: number;
  /** Advisory (the official storyboards, unless --strict-storyboards): reported, never counted in the verdict. */
  advisory?: boolean;
  /** On an untested outcome: the failed precondition that left it unverified, when its reason names one. */
  blockedBy?: Blocker;
  /** On a fail or warn: the other calls the finding rests on (their evidence is shown with it). */
  related?: number[];
}
