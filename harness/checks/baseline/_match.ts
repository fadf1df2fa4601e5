// How `expect` entries name outcomes: `check id` (every failure of that check, on every tool) or
// `check id › tool` (`>` works too): a tool name covers every call of that tool, whatever its label
// (`get_products (invalid input)`, `get_products (pagination: page-2)`), and a full label covers that
// call alone; the narrowest entry wins. One definition, used where baselines are applied
// (harness/run/judge/judge.ts), where they are written (harness/run/baseline.ts), where entries are validated,
// and by baseline.stale, which judges them.
import type { AgentCapture } from '../../record/exchange.ts';

/** The parts of an entry key: the check id, and the tool label when the entry names one. */
export function parseEntryKey(key: string): { check: string; tool?: string } {
  const at = /\s(?:›|>)\s/.exec(key);
  if (!at) return { check: key.trim() };
  return { check: key.slice(0, at.index).trim(), tool: key.slice(at.index + at[0].length).trim() };
}

/**
 * The tool an outcome label names: `get_products (invalid input)` and `get_products (pagination: page-2)`
 * name `get_products`; a label without a parenthesised suffix (`get_products`, `tools/list`) names itself.
 */
export function toolOfLabel(label: string): string {
  const m = /^(.+?) \(.*\)$/.exec(label);
  return m?.[1] ?? label;
}

/** Whether an entry naming `entryTool` covers an outcome labelled `label`: that label, or any call of that tool. */
export function entryCoversLabel(entryTool: string, label: string): boolean {
  return label === entryTool || toolOfLabel(label) === entryTool;
}

/**
 * The key of the entry that covers a fail / warn of `check` on `tool` (an outcome label): an entry naming
 * that label wins over one naming its tool, which wins over one naming the check alone; among equals, the
 * first written.
 */
export function matchingEntry(expect: Readonly<Record<string, string>> | undefined, check: string, tool: string): string | undefined {
  if (!expect) return undefined;
  let byTool: string | undefined;
  let bare: string | undefined;
  for (const key of Object.keys(expect)) {
    const entry = parseEntryKey(key);
    if (entry.check !== check) continue;
    if (entry.tool === tool) return key;
    if (entry.tool === undefined) bare ??= key;
    else if (entryCoversLabel(entry.tool, tool)) byTool ??= key;
  }
  return byTool ?? bare;
}

/**
 * The tool an entry names when the agent does not expose it: its tools/list answered and does not list
 * it, and no outcome of this run carries that label (session labels such as `initialize` or
 * `tools/list` are outcome labels). Undefined when the entry names no tool, the tool is known, or the
 * tool list is unknown (then nothing can be said).
 */
export function unexposedTool(
  key: string,
  capture: Pick<AgentCapture, 'toolsList'>,
  outcomeTools: ReadonlySet<string>,
): string | undefined {
  const { tool } = parseEntryKey(key);
  if (tool === undefined || outcomeTools.has(tool)) return undefined;
  const list = capture.toolsList;
  if (!list?.ok || !Array.isArray(list.tools)) return undefined;
  // A label of one of its calls (`tool (invalid input)`) names the tool; an unknown call of a listed tool is stale, not a typo.
  const names = new Set([tool, toolOfLabel(tool)]);
  const listed = list.tools.some(
    (t) =>
      t !== null &&
      typeof t === 'object' &&
      Object.prototype.hasOwnProperty.call(t, 'name') &&
      names.has((t as { name: unknown }).name as string),
  );
  return listed ? undefined : tool;
}

/** The names in a tools/list, for a message (bounded). */
export function listedNames(capture: Pick<AgentCapture, 'toolsList'>, max = 12): string {
  const list = capture.toolsList;
  if (!list?.ok || !Array.isArray(list.tools)) return 'unknown';
  const names = list.tools.flatMap((t) =>
    t !== null && typeof t === 'object' && typeof (t as { name?: unknown }).name === 'string' ? [(t as { name: string }).name] : [],
  );
  return names.length <= max ? names.join(', ') || 'none' : `${names.slice(0, max).join(', ')}, … (${names.length} tools)`;
}
