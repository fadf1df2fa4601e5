// Known defects of the pinned storyboard runner and corpus (@adcp/sdk 6.11.0, corpus 3.0.6), loaded
// from known-defects.json: one committed list, each with the reason and an upstream reference. An
// outcome a defect matches is reported `not-applicable` ("known runner defect: …"), never as the
// seller's failure; a defect the harness neutralizes (the proxy, or the outcome mapping) matches
// nothing and is listed so a reader knows why the runner's own verdict differs from ours.
import { readFileSync } from 'node:fs';

export interface DefectMatch {
  /** Storyboard id (`idempotency`, `media_buy_seller/…`); absent with `detect` (any storyboard). */
  storyboard?: string;
  /**
   * A defect recognised from the run itself rather than by name: `request-fields-dropped` — the
   * runner's client removed top-level request fields before the call reached the agent.
   */
  detect?: 'request-fields-dropped';
  /** Step id; absent: every step of the storyboard. */
  step?: string;
  /** Validation check (`capture_path_not_resolvable`, `error_code`, `step` …); absent: every check of the step. */
  check?: string;
  /** The validation's JSON pointer (`/idempotency_key`); absent: any. */
  pointer?: string;
  /** Which verdicts it turns: a failure (default), or a pass the defect made vacuous. */
  verdict?: 'fail' | 'pass' | 'any';
  /** Also the later steps of the storyboard the runner skipped because this one failed (`prerequisite_failed`). */
  cascade?: boolean;
}

export interface KnownDefect {
  id: string;
  /** One line: what the runner or corpus does wrong. */
  title: string;
  /** Why the outcome says nothing about the seller. */
  reason: string;
  /** Upstream issue or fix, when one is known. */
  upstream?: string;
  /** `not-applicable`: matching outcomes are turned; `neutralized`: the harness avoids the defect, nothing to match. */
  handling: 'not-applicable' | 'neutralized';
  /** How the harness neutralizes it (handling `neutralized`). */
  neutralizedBy?: string;
  match?: DefectMatch[];
}

export interface KnownDefects {
  sdk: string;
  sdkVersion: string;
  corpusVersion: string;
  defects: KnownDefect[];
}

let loaded: KnownDefects | undefined;

/** The committed list (read once). */
export function knownDefects(): KnownDefects {
  loaded ??= JSON.parse(readFileSync(new URL('./known-defects.json', import.meta.url), 'utf8')) as KnownDefects;
  return loaded;
}

export interface OutcomeKey {
  storyboard: string;
  step: string;
  check: string;
  pointer?: string | null;
  verdict: 'fail' | 'pass';
}

/** The defect that explains this outcome, if any (first match in file order). */
export function defectFor(key: OutcomeKey, list: KnownDefects = knownDefects()): KnownDefect | undefined {
  return list.defects.find(
    (d) =>
      d.handling === 'not-applicable' &&
      (d.match ?? []).some(
        (m) =>
          m.detect === undefined &&
          m.storyboard === key.storyboard &&
          (m.step === undefined || m.step === key.step) &&
          (m.check === undefined || m.check === key.check) &&
          (m.pointer === undefined || m.pointer === key.pointer) &&
          (m.verdict ?? 'fail') !== (key.verdict === 'fail' ? 'pass' : 'fail'),
      ),
  );
}

/** Whether a failed step's defect also explains the steps the runner skipped after it. */
export function cascades(defect: KnownDefect, storyboard: string, step: string): boolean {
  return (defect.match ?? []).some((m) => m.cascade === true && m.storyboard === storyboard && (m.step === undefined || m.step === step));
}

/** The defect a run-detected condition names (e.g. `request-fields-dropped`), if the list has one. */
export function detectedDefect(kind: NonNullable<DefectMatch['detect']>, list: KnownDefects = knownDefects()): KnownDefect | undefined {
  return list.defects.find((d) => d.handling === 'not-applicable' && (d.match ?? []).some((m) => m.detect === kind));
}
