// Cursor pagination of list answers (AdCP core/pagination-request.json / pagination-response.json): a
// request with `pagination: {max_results, cursor}` gets at most max_results items and, while more remain,
// `has_more: true` with an opaque cursor to the next page; the last page says `has_more: false` and has no
// cursor. A request without `pagination` gets the whole list, as before. A cursor names its task and
// offset; one this seller did not issue for that task is refused.
import { AdcpFailure } from './adcp-error.ts';
import { isPlainObject, type JsonObject } from './json.ts';

const DEFAULT_MAX_RESULTS = 50;

function encode(tool: string, offset: number): string {
  return Buffer.from(JSON.stringify({ t: tool, o: offset }), 'utf8').toString('base64url');
}

function decode(tool: string, cursor: string): number {
  try {
    const v: unknown = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
    if (isPlainObject(v) && v['t'] === tool && Number.isInteger(v['o']) && (v['o'] as number) >= 0) return v['o'] as number;
  } catch {
    // not one of ours
  }
  throw new AdcpFailure({
    code: 'VALIDATION_ERROR',
    message: `pagination.cursor is not a cursor this seller issued for ${tool}`,
    recovery: 'correctable',
    field: 'pagination.cursor',
    suggestion: 'Start again without a cursor, then pass the cursor of the previous page unchanged.',
  });
}

/** The page of `items` the request asks for, and its pagination block (absent when the request had none). */
export function page<T>(tool: string, args: JsonObject, items: readonly T[]): { items: T[]; pagination?: JsonObject } {
  const asked = args['pagination'];
  if (!isPlainObject(asked)) return { items: [...items] };
  const max = typeof asked['max_results'] === 'number' ? asked['max_results'] : DEFAULT_MAX_RESULTS;
  const offset = typeof asked['cursor'] === 'string' ? decode(tool, asked['cursor']) : 0;
  const slice = items.slice(offset, offset + max);
  const next = offset + slice.length;
  const hasMore = next < items.length;
  return { items: slice, pagination: { has_more: hasMore, ...(hasMore ? { cursor: encode(tool, next) } : {}), total_count: items.length } };
}
