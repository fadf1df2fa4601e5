// What an Exchange records of the tool it called, as advertised in tools/list: the one rule the capture
// and the judge's handover (run/judge/capture-parts.ts) share. A ground-floor module (it imports nothing
// of ours).
import type { Exchange } from './exchange.ts';

/** The tool's own `inputSchema` and `outputSchema`, each present when the tool has it (seller values, unread). */
export function advertisedOf(tool: unknown): NonNullable<Exchange['advertised']> {
  const inputSchema = ownValue(tool, 'inputSchema');
  const outputSchema = ownValue(tool, 'outputSchema');
  return { ...(inputSchema !== undefined ? { inputSchema } : {}), ...(outputSchema !== undefined ? { outputSchema } : {}) };
}

function ownValue(v: unknown, key: string): unknown {
  if (v === null || typeof v !== 'object' || !Object.hasOwn(v, key)) return undefined;
  return Object.getOwnPropertyDescriptor(v, key)?.value;
}
