// The tool list as later checks read it: the listed tools, or the verdict that stands in for them when
// there is no usable list. transport.initialize and transport.tools-list own those failures, so the
// checks that need the list are `untested` (pointing at them), never passed and never failed twice.
import type { AgentCapture } from '../../record/exchange.ts';
import { untested, type AgentVerdict, type Verdict } from '../check.ts';

/** The listed tools, or the verdict that stands in for them (initialize or tools/list failed). */
export function listedTools(a: AgentCapture): { tools: unknown[] } | { verdict: Verdict } {
  if (!a.initialize.ok) return { verdict: untested('initialize failed: see transport.initialize') };
  if (!a.toolsList) return { verdict: untested('no tools/list answer recorded: see transport.tools-list') };
  if (!a.toolsList.ok) return { verdict: untested('tools/list failed: see transport.tools-list') };
  if (!Array.isArray(a.toolsList.tools)) return { verdict: untested('tools/list is malformed: see transport.tools-list') };
  return { tools: a.toolsList.tools };
}

/** One verdict about one subject: the shape every agent check returns. */
export const one = (subject: string, verdict: Verdict): AgentVerdict[] => [{ subject, verdict }];
