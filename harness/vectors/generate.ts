// Generators that keep multi-megabyte vectors out of the JSON files:
//   "response_generator": {"text_repeat": {"prefix": "{\"a\":\"", "char": "x", "count": N, "suffix": "\"}"}}
//     → a tool result `{content: [...before, {type: "text", text: prefix + char×count + suffix}]}`
//       (optional "before" / "after": content items placed around the generated text)
//   "expected_data_generator": {"repeat_field": {"key": "a", "char": "x", "count": N}}
//     → `{[key]: char×count}`
import { isObject, own } from '../json.ts';

/** Large enough for every limit case (1 MiB + a margin), small enough to be harmless. */
export const MAX_GENERATED_UNITS = 8 * 1_048_576;

export class GeneratorError extends Error {}

function repeat(spec: unknown, where: string): string {
  const char = own(spec, 'char');
  const count = own(spec, 'count');
  if (typeof char !== 'string' || char === '') throw new GeneratorError(`${where}.char must be a non-empty string`);
  if (typeof count !== 'number' || !Number.isInteger(count) || count < 0) throw new GeneratorError(`${where}.count must be an integer ≥ 0`);
  if (char.length * count > MAX_GENERATED_UNITS) throw new GeneratorError(`${where} would exceed ${MAX_GENERATED_UNITS} UTF-16 units`);
  return char.repeat(count);
}

function optionalString(spec: unknown, key: string, where: string): string {
  const v = own(spec, key);
  if (v === undefined) return '';
  if (typeof v !== 'string') throw new GeneratorError(`${where}.${key} must be a string`);
  return v;
}

export function generateResponse(generator: unknown): unknown {
  const spec = own(generator, 'text_repeat');
  if (!isObject(spec)) throw new GeneratorError('response_generator needs {"text_repeat": {prefix, char, count, suffix}}');
  const where = 'response_generator.text_repeat';
  const text = optionalString(spec, 'prefix', where) + repeat(spec, where) + optionalString(spec, 'suffix', where);
  const before = own(spec, 'before') ?? [];
  const after = own(spec, 'after') ?? [];
  if (!Array.isArray(before) || !Array.isArray(after)) throw new GeneratorError(`${where}.before / .after must be arrays of content items`);
  return { content: [...before, { type: 'text', text }, ...after] };
}

export function generateExpectedData(generator: unknown): unknown {
  const spec = own(generator, 'repeat_field');
  if (!isObject(spec)) throw new GeneratorError('expected_data_generator needs {"repeat_field": {key, char, count}}');
  const key = own(spec, 'key');
  if (typeof key !== 'string') throw new GeneratorError('expected_data_generator.repeat_field.key must be a string');
  const out: Record<string, unknown> = {};
  // defineProperty: a key named "__proto__" stays an own data key, as JSON.parse would make it
  Object.defineProperty(out, key, {
    value: repeat(spec, 'expected_data_generator.repeat_field'),
    enumerable: true,
    writable: true,
    configurable: true,
  });
  return out;
}
