// The creative library, on sandbox agents only: sync one creative for real and look for it with
// list_creatives; sync another with `dry_run: true` and look for that one too (it must not be there).
// Every call is a recorded scenario step; creative.read-after-write judges them. Bounded: at most
// MAX_CREATIVE_CALLS calls, each list walk at most MAX_LIST_PAGES pages; a step without an answer ends it.
// The synced creative stays in the seller's library (listed in the record's `created` with why): AdCP
// gives a buyer no way to delete one creative.
import { randomUUID } from 'node:crypto';
import type { Exchange, ScenarioRecord } from '../record/exchange.ts';
import { tasksNeededBy } from '../adcp-tasks.ts';
import { own } from '../json.ts';
import { accountFor } from './probes.ts';
import { SANDBOX_ONLY, unanswered } from './media-buy-flow.ts';
import { isSuccess, MAX_CURSOR_CHARS, pageInfo, successPayload } from './scenario-facts.ts';
import type { ScenarioHost } from './scenario-host.ts';

export const CREATIVE_FLOW = 'creative-library';

export const CR_STEP = { sync: 'sync', dryRun: 'dry-run' } as const;
/** Page n of the list_creatives walk after the sync (`list-n`) or after the dry run (`list-after-dry-run-n`). */
export const listAfterSync = (n: number): string => `list-${n}`;
export const listAfterDryRun = (n: number): string => `list-after-dry-run-${n}`;
export const MAX_LIST_PAGES = 3;
const LIST_PAGE_SIZE = 100;
export const MAX_CREATIVE_CALLS = 2 + 2 * MAX_LIST_PAGES;

/** Why the synced creative is kept: the one removal AdCP offers archives every other creative too. */
export const KEPT_WHY =
  'AdCP offers no way to remove one creative (sync_creatives `delete_missing` would archive every other creative of the account): it stays in the sandbox library';

const SYNC = 'sync_creatives';
/** The tasks the flow cannot go without. */
const NEEDED = tasksNeededBy(CREATIVE_FLOW);

type Created = NonNullable<ScenarioRecord['created']>[number];

/** A creative of the harness's own (AdCP 3.x creative-asset: a 300x250 static image on the public creative agent's format). */
function creative(id: string): Record<string, unknown> {
  return {
    creative_id: id,
    name: 'adcp-conformance flow creative',
    format_id: { agent_url: 'https://creative.adcontextprotocol.org', id: 'display_static' },
    assets: { image: { asset_type: 'image', url: 'https://conformance-test.example/banner.png', width: 300, height: 250 } },
  };
}

/** The sync answer's result for `id`, when the seller accepted it (a success whose item is not `failed`). */
export function acceptedIn(x: Exchange | undefined, id: string): boolean {
  const items = x ? own(successPayload(x), 'creatives') : undefined;
  if (!Array.isArray(items)) return false;
  const item: unknown = items.find((c) => own(c, 'creative_id') === id);
  const action = own(item, 'action');
  return item !== undefined && action !== 'failed' && action !== 'deleted';
}

/** Whether a list_creatives answer holds creative `id`. */
export function listed(x: Exchange | undefined, id: string): boolean {
  const items = x ? own(successPayload(x), 'creatives') : undefined;
  return Array.isArray(items) && items.some((c) => own(c, 'creative_id') === id);
}

async function creativeLibrary(host: ScenarioHost): Promise<ScenarioRecord> {
  const name = CREATIVE_FLOW;
  if (!host.agent.sandbox) return { name, status: 'not-applicable', reason: SANDBOX_ONLY };
  const missing = NEEDED.filter((t) => !host.listed.has(t));
  if (missing.length) return { name, status: 'not-applicable', reason: `the agent does not list ${missing.join(' or ')}` };
  const account = accountFor(host.agent);
  const created: Created[] = [];
  let calls = 0;
  let dead = false;
  const call = async (tool: string, args: Record<string, unknown>, step: string): Promise<Exchange | undefined> => {
    if (dead || calls >= MAX_CREATIVE_CALLS) return undefined;
    calls++;
    const x = await host.call(tool, args, { name, step });
    if (!x || unanswered(x)) dead = true;
    return x;
  };
  /** Walks list_creatives (filtered by the id) until the creative shows up or the list ends. */
  const look = async (id: string, step: (n: number) => string): Promise<boolean> => {
    const seen = new Set<string>();
    let cursor: string | undefined;
    for (let page = 1; page <= MAX_LIST_PAGES; page++) {
      const pagination = cursor === undefined ? { max_results: LIST_PAGE_SIZE } : { max_results: LIST_PAGE_SIZE, cursor };
      const x = await call(
        'list_creatives',
        { account: structuredClone(account), filters: { creative_ids: [id] }, pagination },
        step(page),
      );
      if (!x || !isSuccess(x)) return false;
      if (listed(x, id)) return true;
      const next = pageInfo(successPayload(x));
      if (next.hasMore !== true || typeof next.cursor !== 'string' || next.cursor === '' || next.cursor.length > MAX_CURSOR_CHARS)
        return false;
      if (seen.has(next.cursor)) return false;
      seen.add(next.cursor);
      cursor = next.cursor;
    }
    return false;
  };
  const synced = `adcp-conformance-${randomUUID().slice(0, 8)}`;
  const sync = await call(
    SYNC,
    { idempotency_key: randomUUID(), account: structuredClone(account), creatives: [creative(synced)] },
    CR_STEP.sync,
  );
  if (sync && acceptedIn(sync, synced)) {
    created.push({ kind: 'creative', id: synced, call: host.exchanges().indexOf(sync), cleanup: 'kept', why: KEPT_WHY });
    await look(synced, listAfterSync);
  }
  const rehearsed = `adcp-conformance-dry-${randomUUID().slice(0, 8)}`;
  const dry = await call(
    SYNC,
    { idempotency_key: randomUUID(), account: structuredClone(account), dry_run: true, creatives: [creative(rehearsed)] },
    CR_STEP.dryRun,
  );
  if (dry && acceptedIn(dry, rehearsed) && (await look(rehearsed, listAfterDryRun))) {
    created.push({
      kind: 'creative',
      id: rehearsed,
      call: host.exchanges().indexOf(dry),
      cleanup: 'kept',
      why: `the seller stored it from a dry run; ${KEPT_WHY}`,
    });
  }
  return { name, status: 'ran', created };
}

export const creativeLibraryScenario = { name: CREATIVE_FLOW, run: creativeLibrary };
