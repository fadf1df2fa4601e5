// Validation that collects a bounded number of errors. Ajv has no cap: with `allErrors` a 120k-item
// answer failing per item builds millions of error objects, and every `$ref` call concatenates its
// errors onto a copy of the caller's (quadratic: 16k empty products took 14 s, 120k never finished; 40
// missing fields × 150k items grew to 2.6 GB). The generated code is given a cap instead: once a
// validation function holds more than ERROR_CAP errors it throws, and the answer is re-validated with a
// validator that stops at the first error (`allErrors: false`), whose errors are exact. The cap can trip
// inside an `anyOf` branch that would have been discarded, so only that second pass decides validity.
import type { ErrorObject, ValidateFunction } from 'ajv';
import { MAX_ANALYSED } from './errors.ts';

/** Errors one validation function may hold before validation stops. */
export const ERROR_CAP = MAX_ANALYSED;

const CAP_MARK = '__adcpErrorCap';

/**
 * Ajv's `code.process` hook: after every statement that adds errors (`errors++` for one error,
 * `errors = vErrors.length` after merging a called function's), stop once there are too many.
 * Tied to Ajv 8's generated code (the version is pinned; test/schemas/bounded.test.ts fails if the
 * hook stops finding those statements).
 */
export function capErrorsInCode(code: string): string {
  return code.replace(/errors\+\+;|errors = vErrors\.length;/g, (m) => `${m}if(errors > ${ERROR_CAP}){throw {${CAP_MARK}: true};}`);
}

export function isCapStop(e: unknown): boolean {
  return typeof e === 'object' && e !== null && (e as Record<string, unknown>)[CAP_MARK] === true;
}

export class AsyncSchemaError extends Error {
  override name = 'AsyncSchemaError';
}

export type BoundedResult = { valid: true } | { valid: false; errors: readonly ErrorObject[]; capped: boolean };

/** Call a validator and insist on a synchronous verdict (an `$async` schema returns a promise). */
function verdict(validate: ValidateFunction, instance: unknown): boolean {
  const r: unknown = validate(instance);
  if (typeof r === 'boolean') return r;
  if (r && typeof (r as Promise<unknown>).then === 'function') (r as Promise<unknown>).then(undefined, () => undefined); // never an unhandled rejection
  throw new AsyncSchemaError('the schema is asynchronous ($async): the validator returned a promise, not a verdict');
}

/**
 * Validate with `full` (allErrors, capped); if the cap stops it, `firstError()` (compiled lazily,
 * allErrors off) decides and lists the errors, and `capped` says more were left out.
 */
export function validateBounded(full: ValidateFunction, firstError: () => ValidateFunction, instance: unknown): BoundedResult {
  try {
    if (verdict(full, instance)) return { valid: true };
    return { valid: false, errors: full.errors ?? [], capped: false };
  } catch (e) {
    if (!isCapStop(e)) throw e;
  }
  const first = firstError();
  if (verdict(first, instance)) return { valid: true };
  return { valid: false, errors: first.errors ?? [], capped: true };
}
