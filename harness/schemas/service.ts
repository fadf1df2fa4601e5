// The contract between the checks and the AdCP schema registry: types only, importing nothing of ours.

/** Evidence a check can attach to a failure beyond pointer/expected/found (all already seller-bounded). */
export interface SchemaError {
  pointer: string;
  keyword: string;
  expected: string;
  found: string;
}

/**
 * Implemented by harness/schemas (one instance per agent, created once the agent's AdCP version is
 * known); an interface of its own so checks see the contract and stay free of Ajv.
 */
export interface SchemaService {
  /** The AdCP schema version chosen for this agent, and why (`echoed by seller`, `capabilities`, `config`, `default`). */
  adcpVersion: { version: string; reason: string };
  /** Validate an extracted AdCP payload against the official response schema of task `tool`. */
  validateAdcpResponse(tool: string, payload: Record<string, unknown>): { errors: SchemaError[]; omitted?: number } | { skip: string };
  /**
   * The standard error-code vocabulary (`enums/error-code.json` enum) of the release judged, or why there
   * is none. Optional: services built without a schema tree (unit tests) leave it out.
   */
  errorCodes?(): { version: string; codes: ReadonlySet<string> } | { skip: string };
  /**
   * Validate a webhook delivery's payload against `core/mcp-webhook-payload.json` of the release judged.
   * Optional: services built without a schema tree (unit tests) leave it out.
   */
  validateWebhookPayload?(payload: Record<string, unknown>): { errors: SchemaError[]; omitted?: number } | { skip: string };
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
  ): { errors: SchemaError[]; omitted?: number } | { skip: string };
}
