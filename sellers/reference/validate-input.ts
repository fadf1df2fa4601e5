// Argument validation: the seller answers bad input itself with an AdCP VALIDATION_ERROR (field +
// issues), never with the SDK's JSON-RPC −32602 (unless the `validation-jsonrpc-32602` fault says so).
import { Ajv, type ErrorObject, type ValidateFunction } from 'ajv';
import addFormatsModule from 'ajv-formats';

// ajv-formats is CommonJS: under NodeNext its callable is the `default` property.
const addFormats = addFormatsModule.default;
import { AdcpFailure, pointerToField } from './adcp-error.ts';
import { inputSchemas } from './input-schemas.ts';

const ajv = new Ajv({ strict: false, allErrors: true });
addFormats(ajv);
const compiled = new Map<string, ValidateFunction>();

function validator(tool: string): ValidateFunction | undefined {
  let fn = compiled.get(tool);
  if (!fn) {
    const schema = inputSchemas[tool];
    if (!schema) return undefined;
    fn = ajv.compile(schema);
    compiled.set(tool, fn);
  }
  return fn;
}

/** Where an Ajv error points: the offending property itself for `required`. */
function issuePointer(e: ErrorObject): string {
  if (e.keyword === 'required' && typeof e.params['missingProperty'] === 'string') {
    return `${e.instancePath}/${e.params['missingProperty']}`;
  }
  return e.instancePath;
}

/** Throws an AdcpFailure (VALIDATION_ERROR) when `args` break the tool's input schema. */
export function validateArguments(tool: string, args: unknown): void {
  const fn = validator(tool);
  if (!fn || fn(args)) return;
  // anyOf/required noise first is unhelpful: put concrete (type/enum/required) issues first.
  const errors = [...(fn.errors ?? [])].sort((a, b) => Number(a.keyword === 'anyOf') - Number(b.keyword === 'anyOf'));
  const issues = errors.slice(0, 10).map((e) => ({
    pointer: issuePointer(e),
    message: e.message ?? 'is invalid',
    keyword: e.keyword,
  }));
  const first = issues[0]!;
  const field = pointerToField(first.pointer);
  throw new AdcpFailure({
    code: 'VALIDATION_ERROR',
    message: field ? `Invalid request: '${field}' ${first.message}` : `Invalid request: ${first.message}`,
    recovery: 'correctable',
    ...(field ? { field } : {}),
    issues,
    suggestion: `Fix the request to match the ${tool} input schema listed by tools/list.`,
  });
}

/** Compiles every input validator now, so the first call of each tool is as fast as the rest. */
export function compileAllInputValidators(): void {
  for (const tool of Object.keys(inputSchemas)) validator(tool);
}
