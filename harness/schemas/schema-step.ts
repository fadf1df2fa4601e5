// A step of judging that runs seller-controlled schema work, and its words. Its own module (no Ajv): the
// judge sandbox on the main thread names steps without loading the schema machinery.

/** Seller-controlled work about to start: what the judge worker reports, so a deadline can name it. */
export interface SchemaStep {
  action: 'compile' | 'validate';
  tool: string;
  /** `outputSchema`, or the `$id` of the AdCP response schema. */
  schema: string;
  /** Patterns of that schema that run on the native (backtracking) engine, described; '' when none. */
  patterns: string;
}

export type StepListener = (step: SchemaStep) => void;

/**
 * Why a step must not run again, or undefined: the judge sandbox re-judges an agent without the step
 * that ran past its budget (the finding names it instead).
 */
export type StepBlocker = (step: Pick<SchemaStep, 'action' | 'tool' | 'schema'>) => string | undefined;

/** The keyword of the schema error a blocked validation reports. */
export const BUDGET_KEYWORD = 'budget';

/** One line: `validating get_products against its outputSchema (pattern "…" at /properties/x/pattern)`. */
export function describeSchemaStep(step: SchemaStep): string {
  const what = step.schema === 'outputSchema' ? 'its outputSchema' : `the AdCP schema ${step.schema}`;
  const verb =
    step.action === 'compile'
      ? `compiling ${step.schema === 'outputSchema' ? `the outputSchema of ${step.tool}` : step.schema}`
      : `validating ${step.tool} against ${what}`;
  return `${verb}${step.patterns ? ` (${step.patterns})` : ''}`;
}
