// The standard error-code vocabulary of one AdCP schema tree: the `enum` of its `enums/error-code.json`
// (bounded: codes are strings of 1–64 characters, at most MAX_CODES of them). error.vendor-code reads it
// through the schema service, so a seller is judged against the vocabulary of the release it serves.
import type { SchemaTree } from './source.ts';

const MAX_CODES = 2048;

export type ErrorVocabulary = { version: string; codes: ReadonlySet<string> } | { skip: string };

/** The codes of a parsed `enums/error-code.json`, or undefined when it has no usable `enum`. */
export function vocabularyOf(errorCodeSchema: unknown): Set<string> | undefined {
  if (typeof errorCodeSchema !== 'object' || errorCodeSchema === null || Array.isArray(errorCodeSchema)) return undefined;
  if (!Object.prototype.hasOwnProperty.call(errorCodeSchema, 'enum')) return undefined;
  const list = (errorCodeSchema as Record<string, unknown>)['enum'];
  if (!Array.isArray(list)) return undefined;
  const codes = new Set<string>();
  for (const code of list.slice(0, MAX_CODES)) if (typeof code === 'string' && code.length >= 1 && code.length <= 64) codes.add(code);
  return codes.size > 0 ? codes : undefined;
}

/** Read the tree's vocabulary once; never throws. */
export async function loadErrorVocabulary(tree: SchemaTree): Promise<ErrorVocabulary> {
  try {
    const codes = vocabularyOf(await tree.readJson('enums/error-code.json'));
    return codes
      ? { version: tree.version, codes }
      : { skip: `the AdCP ${tree.version} tree's enums/error-code.json has no enum of codes` };
  } catch (e) {
    return { skip: `the AdCP ${tree.version} tree has no readable enums/error-code.json (${e instanceof Error ? e.message : String(e)})` };
  }
}
