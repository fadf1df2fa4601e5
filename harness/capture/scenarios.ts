// Business-rule scenarios: small sequences of calls, made after the probes in the same session, whose
// answers only mean something together (a version the seller must refuse next to one it must accept, a
// cursor walk, an idempotent replay). Every call is a real tools/call recorded as an Exchange carrying
// `scenario: {name, step}`, so every exchange check judges it too; each scenario also leaves a
// ScenarioRecord saying whether it ran, or why not. The checks (error.version-unsupported,
// pagination.cursor, idempotency.*, error.unknown-reference) judge the steps.
//
// Cost, per agent: version negotiation 2 calls; pagination 1–4 pages (2 against the reference seller);
// on sandbox agents only, idempotency 1–9 create_media_buy calls and the cancels of what they booked
// (idempotency-flow.ts), unknown references 1–2 calls, the media-buy lifecycle at most 20 calls (14 against
// the reference seller: media-buy-flow.ts), the creative library at most 8 (4: creative-flow.ts) and the
// task lifecycle at most 21 calls within the agent's `timeouts.task` (3 test-controller calls, the booking, 15
// polls, the replay, the cancel; 6–8 against the reference seller: task-flow.ts). A scenario varies a call the probes already made (same arguments); only when none succeeded does it
// make that call itself first (step `base`).
import { randomUUID } from 'node:crypto';
import type { Exchange, ScenarioRecord } from '../record/exchange.ts';
import { defaultArguments, updateMediaBuyArguments } from './probes.ts';
import {
  capabilityFacts,
  isSuccess,
  LIST_TASKS,
  listItems,
  MAX_CURSOR_CHARS,
  MAX_PAGES,
  pageInfo,
  pageSize,
  pageStep,
  isPlainCall,
  SCENARIO,
  scenarioOf,
  UNSUPPORTED_MAJOR,
  STEP,
  successPayload,
  type ListTask,
  variedArguments,
} from './scenario-facts.ts';
import { PINNED_TASKS } from '../adcp-tasks.ts';
import { majorMismatchScenario, releaseNegotiationScenario } from './version-scenario.ts';
import { contextNotFabricatedScenario, protocolFieldsScenario } from './envelope-scenario.ts';
import { CREDENTIAL_IN_ARGS, credentialInArgsScenario } from './credential-in-args.ts';
import { idempotencyScenario, SANDBOX_ONLY } from './idempotency-flow.ts';
import { mediaBuyLifecycleScenario } from './media-buy-flow.ts';
import { creativeLibraryScenario } from './creative-flow.ts';
import { taskLifecycleFlow } from './task-flow.ts';

import type { ScenarioHost } from './scenario-host.ts';
export type { ScenarioHost };

type Scenario = (host: ScenarioHost) => Promise<ScenarioRecord>;

const ran = (name: string, extra: Partial<ScenarioRecord> = {}): ScenarioRecord => ({ name, status: 'ran', ...extra });
const notApplicable = (name: string, reason: string): ScenarioRecord => ({ name, status: 'not-applicable', reason });
const untested = (name: string, reason: string): ScenarioRecord => ({ name, status: 'untested', reason });

interface Base {
  tool: string;
  args: Record<string, unknown>;
  exchange: Exchange;
}

/**
 * The call a scenario varies: the first probe of one of `tools` (or an earlier scenario's `base` call) that
 * succeeded and that `usable` accepts; failing that, the scenario's own call of the first listed tool
 * nothing called yet (step `base`). A record
 * instead when there is none: not-applicable (no such tool listed), untested (none succeeded).
 */
async function baseCall(
  host: ScenarioHost,
  name: string,
  tools: readonly string[],
  usable: (x: Exchange) => boolean,
  unusable: string,
): Promise<Base | ScenarioRecord> {
  const listed = tools.filter((t) => host.listed.has(t));
  if (listed.length === 0) return notApplicable(name, `the agent lists none of ${tools.join(', ')}`);
  for (const tool of listed) {
    const x = host.exchanges().find((e) => isPlainCall(e, tool) && isSuccess(e));
    if (x && usable(x)) return { tool, args: variedArguments(x), exchange: x };
  }
  const uncalled = listed.find((t) => defaultArguments(t) !== undefined && !host.exchanges().some((x) => isPlainCall(x, t)));
  if (uncalled !== undefined) {
    const args = defaultArguments(uncalled)!;
    const x = await host.call(uncalled, args, { name, step: STEP.base });
    if (x && usable(x)) return { tool: uncalled, args, exchange: x };
  }
  return untested(name, `no call of ${listed.join(', ')} ${unusable}: see their own outcomes`);
}

/** The index of `x` in the session's calls (a ScenarioRecord points at the call it varied). */
const indexOf = (host: ScenarioHost, x: Exchange): number => host.exchanges().indexOf(x);

/** `adcp_major_version` 99 must be refused with VERSION_UNSUPPORTED; the seller's own major accepted as usual. */
const versionNegotiation: Scenario = async (host) => {
  const name = SCENARIO.version;
  const base = await baseCall(host, name, PINNED_TASKS, isSuccess, 'succeeded');
  if (!('tool' in base)) return base;
  const { supportedMajor } = capabilityFacts(host.exchanges());
  await host.call(base.tool, { ...base.args, adcp_major_version: UNSUPPORTED_MAJOR }, { name, step: STEP.unsupportedVersion });
  await host.call(base.tool, { ...base.args, adcp_major_version: supportedMajor }, { name, step: STEP.supportedVersion });
  return ran(name, { baseCall: indexOf(host, base.exchange) });
};

/** Walk a list with a small `max_results`, following the pagination cursor while `has_more` is true. */
const pagination: Scenario = async (host) => {
  const name = SCENARIO.pagination;
  const tasks = LIST_TASKS.map((t) => t.tool);
  const withItems = (x: Exchange): boolean => {
    const task = LIST_TASKS.find((t) => t.tool === x.tool);
    return task && listItems(task, successPayload(x))?.length ? true : false;
  };
  const base = await baseCall(host, name, tasks, withItems, 'returned a non-empty list');
  if (!('tool' in base)) {
    // Lists that came back empty leave nothing to page through: the rule has no page boundary to hold at.
    const empty = LIST_TASKS.some((t) => host.exchanges().some((x) => x.tool === t.tool && listItems(t, successPayload(x))?.length === 0));
    return base.status === 'untested' && empty
      ? notApplicable(
          name,
          `every list the agent returned (${tasks.filter((t) => host.listed.has(t)).join(', ')}) was empty: nothing to page through`,
        )
      : base;
  }
  const task = LIST_TASKS.find((t) => t.tool === base.tool) as ListTask;
  const size = pageSize(listItems(task, successPayload(base.exchange))!.length);
  let cursor: string | undefined;
  const seen = new Set<string>();
  for (let page = 1; page <= MAX_PAGES; page++) {
    const args = { ...base.args, pagination: cursor === undefined ? { max_results: size } : { max_results: size, cursor } };
    const x = await host.call(base.tool, args, { name, step: pageStep(page) });
    if (!x) break;
    const next = pageInfo(successPayload(x));
    // Stop where a client would: no more pages, no usable cursor, or a cursor it already followed.
    if (next.hasMore !== true || typeof next.cursor !== 'string' || next.cursor === '' || next.cursor.length > MAX_CURSOR_CHARS) break;
    if (seen.has(next.cursor)) break;
    seen.add(next.cursor);
    cursor = next.cursor;
  }
  return ran(name, { baseCall: indexOf(host, base.exchange) });
};

/** The idempotency walk (idempotency-flow.ts): replay, conflict, missing key, error then retry, malformed key, a concurrent pair. */
const idempotency: Scenario = idempotencyScenario;

/** Ids the seller never issued: a product to book, a media buy to update. */
const unknownReference: Scenario = async (host) => {
  const name = SCENARIO.unknownReference;
  if (!host.agent.sandbox) return notApplicable(name, SANDBOX_ONLY);
  const create = host.listed.has('create_media_buy');
  const update = host.listed.has('update_media_buy');
  if (!create && !update)
    return notApplicable(
      name,
      'the agent lists neither create_media_buy nor update_media_buy (the tasks that take a product or media buy id)',
    );
  const unknown = `adcp-conformance-unknown-${randomUUID().slice(0, 8)}`;
  let steps = 0;
  // The booking that worked, with only the product id changed: a refusal can then only be about that id.
  const booked = host.exchanges().find((x) => scenarioOf(x)?.name === SCENARIO.idempotency && scenarioOf(x)?.step === STEP.original);
  if (create && booked && isSuccess(booked)) {
    const args: Record<string, unknown> = { ...variedArguments(booked), idempotency_key: randomUUID() };
    args['packages'] = (args['packages'] as Array<Record<string, unknown>>).map((p, i) => (i === 0 ? { ...p, product_id: unknown } : p));
    if (await host.call('create_media_buy', args, { name, step: STEP.unknownProduct })) steps++;
  }
  if (update && (await host.call('update_media_buy', updateMediaBuyArguments(unknown, host.agent), { name, step: STEP.unknownMediaBuy })))
    steps++;
  if (steps > 0) return ran(name);
  return untested(
    name,
    create
      ? 'a valid create_media_buy did not succeed, so a refusal of an unknown product could not be told from it: see the idempotency original step'
      : 'the call was not made',
  );
};

/** In call order: read-only first, then the sandbox ones (unknown references reuse the idempotency booking). */
export const SCENARIOS: ReadonlyArray<{ name: string; run: Scenario }> = [
  { name: SCENARIO.version, run: versionNegotiation },
  { name: SCENARIO.pagination, run: pagination },
  { name: SCENARIO.idempotency, run: idempotency },
  { name: SCENARIO.unknownReference, run: unknownReference },
  mediaBuyLifecycleScenario,
  creativeLibraryScenario,
  taskLifecycleFlow,
  releaseNegotiationScenario,
  majorMismatchScenario,
  protocolFieldsScenario,
  contextNotFabricatedScenario,
  { name: CREDENTIAL_IN_ARGS.name, run: credentialInArgsScenario },
];

/** Run every scenario in order, handing each record over as it is made (a session cut short keeps what ran). */
export async function runScenarios(host: ScenarioHost, stopped: () => boolean, record: (r: ScenarioRecord) => void): Promise<void> {
  for (const { name, run } of SCENARIOS) {
    if (stopped()) {
      record(untested(name, 'the session ended before this scenario ran'));
      continue;
    }
    try {
      record(await run(host));
    } catch (err) {
      // A bug of ours is never the seller's failure, nor a reason to lose the session.
      record(untested(name, `the scenario could not run (harness error: ${err instanceof Error ? err.message : String(err)})`));
    }
  }
}
