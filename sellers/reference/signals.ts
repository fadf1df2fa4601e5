// get_signals' selection (signals/task-reference/get_signals): the signals named by `signal_ids`, else
// every signal ranked by a toy relevance to `signal_spec` (how many of its words the signal's name and
// description share), narrowed by `filters.max_cpm`.
import { isPlainObject, type JsonObject } from './json.ts';

/** Words too common to say anything about relevance. */
const STOP_WORDS = new Set(['the', 'and', 'with', 'for', 'who', 'that', 'near', 'from', 'into', 'likely', 'have', 'not']);

const wordsOf = (text: string): Set<string> =>
  new Set(
    text
      .toLowerCase()
      .split(/[^a-z0-9]+/)
      .filter((w) => w.length >= 3 && !STOP_WORDS.has(w)),
  );

function relevance(signal: JsonObject, spec: Set<string>): number {
  const own = wordsOf(`${String(signal['name'] ?? '')} ${String(signal['description'] ?? '')}`);
  let score = 0;
  for (const w of spec) if (own.has(w)) score += 1;
  return score;
}

/** Whether a requested signal id (core/signal-id.json: catalog or agent source) names this signal. */
function names(wantedId: unknown, signal: JsonObject): boolean {
  const own = signal['signal_id'];
  if (!isPlainObject(wantedId) || !isPlainObject(own) || wantedId['id'] !== own['id']) return false;
  for (const k of ['source', 'data_provider_domain', 'agent_url']) if (wantedId[k] !== undefined && wantedId[k] !== own[k]) return false;
  return true;
}

const cpmOf = (signal: JsonObject): number | undefined => {
  const options = Array.isArray(signal['pricing_options']) ? signal['pricing_options'].filter(isPlainObject) : [];
  const cpms = options.flatMap((o) => (o['model'] === 'cpm' && typeof o['cpm'] === 'number' ? [o['cpm']] : []));
  return cpms.length > 0 ? Math.min(...cpms) : undefined;
};

export function selectSignals(all: readonly JsonObject[], args: JsonObject): JsonObject[] {
  const ids = args['signal_ids'];
  if (Array.isArray(ids)) return all.filter((s) => ids.some((id) => names(id, s)));
  const filters = isPlainObject(args['filters']) ? args['filters'] : {};
  const maxCpm = typeof filters['max_cpm'] === 'number' ? filters['max_cpm'] : undefined;
  const spec = wordsOf(typeof args['signal_spec'] === 'string' ? args['signal_spec'] : '');
  return all
    .filter((s) => maxCpm === undefined || (cpmOf(s) ?? 0) <= maxCpm)
    .map((s, i) => ({ s, i, score: relevance(s, spec) }))
    .sort((a, b) => b.score - a.score || a.i - b.i)
    .map(({ s }) => s);
}
