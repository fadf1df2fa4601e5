// What an Exchange records of the tool it called, as advertised in tools/list: the one rule the capture
// and the judge's handover (run/judge/capture-parts.ts) share. A ground-floor module (it imports only the
// ground floor).
import { own } from '../json.ts';
import type { Exchange } from './exchange.ts';

/** The tool's own `inputSchema` and `outputSchema`, each present when the tool has it (seller values, unread). */
export function advertisedOf(tool: unknown): NonNullable<Exchange['advertised']> {
  const inputSchema = own(tool, 'inputSchema');
  const outputSchema = own(tool, 'outputSchema');
  return { ...(inputSchema !== undefined ? { inputSchema } : {}), ...(outputSchema !== undefined ? { outputSchema } : {}) };
}
