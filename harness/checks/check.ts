// The shape of a check: data (id, severity, title, spec reference) plus a pure function.
// Exchange checks judge one call; agent checks judge the whole session (handshake, tool list).
import type { AgentCapture, Exchange } from '../capture/exchange.ts';

export type Severity = 'MUST' | 'SHOULD';
export type Status = 'pass' | 'fail' | 'warn' | 'skip';

/** What a check function returns. `fail` becomes `warn` when the effective severity is SHOULD. */
export type Verdict =
  | { status: 'pass' }
  | { status: 'skip'; reason: string }
  | {
      status: 'fail';
      /** JSON pointer into the exchange (`/result/structuredContent/status`) or a session fact (`/tools/3/name`). */
      pointer: string;
      expected: string;
      found: string;
      /** Overrides the check's severity for conditional rules (the `MUST*` rows of RULES.md). */
      severity?: Severity;
    };

export interface CheckContext {
  /** Services the schema checks need (Ajv registries); absent in plain unit tests. */
  schemas?: SchemaService;
  /**
   * The agent's configuration facts, for exchange checks that need them (seed 004's `metaIdTools`
   * override, the configured AdCP version). Optional: `judgeAgent` fills it from the capture.
   */
  agent?: AgentCapture['agent'];
}

/**
 * Implemented by harness/schemas (one instance per agent, created once the agent's AdCP version is
 * known); declared here so checks stay free of Ajv.
 */
export interface SchemaService {
  /** The AdCP schema version chosen for this agent, and why (`echoed by seller`, `capabilities`, `config`, `default`). */
  adcpVersion: { version: string; reason: string };
  /** Validate an extracted AdCP payload against the official response schema of task `tool`. */
  validateAdcpResponse(tool: string, payload: Record<string, unknown>): { errors: SchemaError[] } | { skip: string };
  /** Compile (once per agent and tool) the tool's advertised outputSchema. */
  compileOutputSchema(tool: string, outputSchema: unknown): { ok: true } | { ok: false; message: string };
  /**
   * Validate `instance` against the tool's compiled outputSchema (skip when it did not compile).
   * Optional `layer`: with `'legacy_wrapper'`, `instance` is the inner object of a `{result:{…}}`
   * wrapper; when the advertised schema is the 2.0–2.3 wrap shape (`properties.result`, required
   * `result`) it is validated against that `result` subschema, pointers relative to the inner object.
   */
  validateOutput(
    tool: string,
    outputSchema: unknown,
    instance: unknown,
    layer?: 'legacy_wrapper' | 'validate_root',
  ): { errors: SchemaError[] } | { skip: string };
}

export interface SchemaError {
  pointer: string;
  keyword: string;
  expected: string;
  found: string;
}

interface CheckBase {
  /** Stable `area.slug` id from RULES.md §2; never renamed. */
  id: string;
  severity: Severity;
  title: string;
  /** Where the rule comes from: document and section. */
  spec: string;
  /** True for checks that can only be decided from a live session (handshake, transport facts). */
  live: boolean;
}

export interface ExchangeCheck extends CheckBase {
  scope: 'exchange';
  run(x: Exchange, ctx: CheckContext): Verdict;
}

/** One verdict per subject (a tool name, or a fixed label such as `tools/list`). */
export interface AgentVerdict {
  subject: string;
  verdict: Verdict;
}

export interface AgentCheck extends CheckBase {
  scope: 'agent';
  run(a: AgentCapture, ctx: CheckContext): AgentVerdict[];
}

export type Check = ExchangeCheck | AgentCheck;

export const pass = (): Verdict => ({ status: 'pass' });
export const skip = (reason: string): Verdict => ({ status: 'skip', reason });
export const fail = (pointer: string, expected: string, found: string, severity?: Severity): Verdict =>
  severity ? { status: 'fail', pointer, expected, found, severity } : { status: 'fail', pointer, expected, found };

/** A check outcome as reports see it: the check id, the subject (tool) and the final status. */
export interface Outcome {
  check: string;
  /** Tool name, or a session label such as `initialize` / `tools/list`. */
  tool: string;
  status: Status;
  severity: Severity;
  /** Readable detail: `at /pointer: expected …, found …`, or the skip reason. Empty on pass. */
  message: string;
  pointer?: string;
  expected?: string;
  found?: string;
  spec: string;
}
