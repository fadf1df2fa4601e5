// Shared by the capabilities.* checks: the names they look for in the tool list.
import { own, preview } from '../../json.ts';

export const CAPABILITIES_TOOL = 'get_adcp_capabilities';
export const TEST_CONTROLLER = 'comply_test_controller';

/** Index of the tool named `name` in a tools/list answer, or -1. */
export function toolIndex(tools: readonly unknown[], name: string): number {
  return tools.findIndex((t) => own(t, 'name') === name);
}

const SHOWN_NAMES = 10;

/** The listed tool names as one bounded line: `3 tool(s): "ping", "echo", "time"` (… and how many more). */
export function listedNames(tools: readonly unknown[]): string {
  if (tools.length === 0) return 'no tools';
  const shown = tools.slice(0, SHOWN_NAMES).map((t) => {
    const name = own(t, 'name');
    return typeof name === 'string' ? JSON.stringify(name.slice(0, 64)) : `(name ${preview(name).slice(0, 40)})`;
  });
  const rest = tools.length - shown.length;
  return `${tools.length} tool(s): ${shown.join(', ')}${rest > 0 ? `, … (${rest} more)` : ''}`;
}
