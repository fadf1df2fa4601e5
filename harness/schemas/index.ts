// The SchemaService of one agent (harness/checks/check.ts): the AdCP response schemas of the version the
// agent serves, from a schema source (the @adcp/sdk data by default, a directory, or a base URL cached on
// disk), and the agent's own tool outputSchemas compiled by their dialect.
import type { AgentCapture } from '../record/exchange.ts';
import type { SchemaError, SchemaService } from './service.ts';
import { isObject, own } from '../json.ts';
import type { ErrorObject } from 'ajv';
import { ERROR_CAP, validateBounded } from './bounded.ts';
import { loadErrorVocabulary, type ErrorVocabulary } from './error-codes.ts';
import { boundSchemaErrors } from './errors.ts';
import { errorText } from './fetch.ts';
import { OutputSchemaCompiler, type StepBlocker, type StepListener } from './output.ts';
import { ASYNC_STATUSES, registryFor, type AdcpRegistry, type AsyncStatus } from './registry.ts';
import type { SchemaSource } from './source.ts';
import { chooseAdcpVersion, matchVersion, parseVersion, type VersionChoice } from './version.ts';
import { extractSuccess } from '../extract/success.ts';

export {
  compositeSchemaSource,
  defaultSchemaSource,
  shippedSchemaSource,
  shippedSchemasDir,
  SHIPPED_DIR_ENV,
  dirSchemaSource,
  parseSchemasOption,
  schemaSourceFromSpec,
  sdkSchemaSource,
  urlSchemaSource,
  SchemaSourceError,
} from './source.ts';
export type { SchemaSource, SchemaSourceSpec, SchemaTree } from './source.ts';
export { chooseAdcpVersion, matchVersion, parseVersion } from './version.ts';
export type { VersionChoice, VersionRule } from './version.ts';
export { boundSchemaErrors, MAX_ERRORS, toSchemaErrors } from './errors.ts';
export { ERROR_CAP } from './bounded.ts';
export { patternTester } from './linear-regexp.ts';
export { BUDGET_KEYWORD, describeSchemaStep } from './output.ts';
export type { SchemaStep, StepBlocker, StepListener } from './output.ts';
export { registryFor } from './registry.ts';
export type { TaskSchemas } from './registry.ts';

/** A SchemaService plus what tests and reports may want to see. */
export interface AgentSchemaService extends SchemaService {
  /** The version rule that decided (`echoed by seller`, `capabilities`, `config`, `default`). */
  versionChoice: VersionChoice;
  /** Which `$id` a payload of `tool` would be validated against (undefined + reason when none). */
  responseSchemaId(tool: string, payload: Record<string, unknown>): { id: string } | { skip: string };
  /**
   * Compile now the AdCP response schemas of the tools that were called (our own schemas: harness work,
   * done before the seller's judging budget starts), and the meta-schema seller outputSchemas are checked
   * against. Returns how many AdCP validators are ready.
   */
  compileAdcpSchemas(): number;
}

export interface SchemaServiceOptions {
  /** Told before each piece of seller-controlled work (a compile, a validation): the judge worker's progress. */
  onStep?: StepListener;
  /**
   * Runs our own work that happens while judging (compiling an AdCP schema in its first-error form, when a
   * payload trips the error cap): the judge worker stops the seller's clock around it.
   */
  ownWork?: OwnWork;
  /** Steps not to run (they ran past the budget before): see StepBlocker. */
  blocked?: StepBlocker;
}

export type OwnWork = <T>(what: string, work: () => T) => T;

/** Tools the session actually called: only their outputSchemas are compiled. */
function calledTools(capture: AgentCapture): Set<string> {
  const names = new Set<string>();
  for (const x of Array.isArray(capture.exchanges) ? capture.exchanges : []) if (typeof x.tool === 'string') names.add(x.tool);
  return names;
}

/** Tool names the agent exposed or was called with: what a URL source must fetch schemas for. */
function toolsOf(capture: AgentCapture): Set<string> {
  const names = new Set<string>();
  for (const x of capture.exchanges) names.add(x.tool);
  if (capture.toolsList?.ok) {
    for (const t of capture.toolsList.tools) {
      const name = own(t, 'name');
      if (typeof name === 'string' && name.length <= 128) names.add(name);
    }
  }
  return names;
}

/**
 * Choose the AdCP version for an agent and build its service. Schemas are added once per process and
 * version and compiled lazily, one response schema at a time. Never throws for an unusable source: the
 * service then skips AdCP validation with the reason (output schemas still work).
 */
export async function createSchemaService(
  capture: AgentCapture,
  source: SchemaSource,
  options: SchemaServiceOptions = {},
): Promise<AgentSchemaService> {
  let available: string[] = [];
  let unavailable: string | undefined;
  try {
    available = await source.versions();
  } catch (e) {
    unavailable = `${source.label}: ${errorText(e)}`;
  }
  // The webhook payload schema is loaded (or compiled) with the called tasks' when deliveries arrived (our
  // own work, before the budget).
  const webhooks = Array.isArray(capture.webhooks?.deliveries) && capture.webhooks.deliveries.length > 0;
  const chosen = chooseAdcpVersion(capture, available);
  const choice = chosen.version ? { ...chosen, reason: `${chosen.reason} · ${await releaseLine(source, chosen.version)}` } : chosen;
  let registry: AdcpRegistry | undefined;
  if (choice.version && !unavailable) {
    try {
      registry = await registryFor(source, choice.version);
      await registry.prepare(toolsOf(capture));
      // The build's precompiled validators of the called tasks, where the tree is one it compiled.
      await registry.preload(calledTools(capture), webhooks ? [registry.webhookPayloadId()] : []);
    } catch (e) {
      unavailable = `AdCP ${choice.version} schemas from ${source.label} could not be loaded: ${errorText(e)}`;
      registry = undefined;
    }
  }
  // A response that echoes another release than the agent's (a negotiation scenario pinned 3.0 on a 3.1
  // seller) is validated against that release's tree (versioning.mdx: "Buyers SHOULD validate the response
  // against that release's schema"), when the source has it.
  const others = new Map<string, AdcpRegistry>();
  if (registry) {
    for (const version of echoedReleases(capture, available, registry.version)) {
      try {
        const other = await registryFor(source, version);
        await other.prepare(toolsOf(capture));
        await other.preload(calledTools(capture));
        others.set(version, other);
      } catch {
        // that release stays judged at the agent's own (the main registry)
      }
    }
  }
  unavailable ??= registry
    ? undefined
    : choice.declaredMissing
      ? `${source.label}: ${choice.reason}`
      : `${source.label} has no AdCP schema tree to validate against`;
  const vocabulary: ErrorVocabulary = registry ? await loadErrorVocabulary(registry.tree) : { skip: unavailable ?? 'no AdCP schemas' };
  const ownWork: OwnWork = options.ownWork ?? ((_what, work) => work());
  const hooks = { onStep: options.onStep ?? (() => {}), ownWork, blocked: options.blocked ?? (() => undefined) };
  return { ...buildService(choice, registry, unavailable, calledTools(capture), hooks, others, webhooks), errorCodes: () => vocabulary };
}

/** Trees (full versions, other than `main`) of the releases the agent's success payloads echo; at most 3. */
function echoedReleases(capture: AgentCapture, available: readonly string[], main: string): string[] {
  const out = new Set<string>();
  for (const x of Array.isArray(capture.exchanges) ? capture.exchanges.slice(0, 500) : []) {
    if (x.outcome?.kind !== 'result') continue;
    const echoed = own(extractSuccess(x.outcome.result), 'adcp_version');
    const hit = typeof echoed === 'string' ? matchVersion(echoed, available) : undefined;
    if (hit && hit !== main) out.add(hit);
    if (out.size >= 3) break;
  }
  return [...out];
}

/**
 * `judged at AdCP 3.1 (patch 3.1.19), schemas: shipped adcp-schemas 3.1.19 from adcontextprotocol/adcp@…`: the
 * release judged, its patch and where the tree comes from, after the why (`VersionChoice.reason`), for every report.
 */
async function releaseLine(source: SchemaSource, version: string): Promise<string> {
  const parsed = parseVersion(version);
  const release = parsed && parsed.minor >= 0 ? `${parsed.major}.${parsed.minor}` : version;
  let from: string;
  try {
    from = await source.provenance(version);
  } catch {
    from = source.label;
  }
  return `judged at AdCP ${release} (patch ${version}), schemas: ${from}`;
}

function buildService(
  choice: VersionChoice,
  registry: AdcpRegistry | undefined,
  unavailable: string | undefined,
  called: ReadonlySet<string>,
  { onStep, ownWork, blocked }: { onStep: StepListener; ownWork: OwnWork; blocked: StepBlocker },
  others: ReadonlyMap<string, AdcpRegistry> = new Map(),
  webhooks = false,
): AgentSchemaService {
  const outputs = new OutputSchemaCompiler({ called, onStep, blocked });
  /** The registry of the release a payload echoes, when it is another one the source has; else the agent's. */
  const registryOf = (payload: Record<string, unknown>): AdcpRegistry | undefined => {
    if (!others.size) return registry;
    const echoed = own(payload, 'adcp_version');
    const hit = typeof echoed === 'string' ? matchVersion(echoed, [...others.keys()]) : undefined;
    return (hit && others.get(hit)) || registry;
  };

  const responseSchemaId = (tool: string, payload: Record<string, unknown>): { id: string } | { skip: string } => {
    const registry = registryOf(payload);
    if (!registry) return { skip: unavailable ?? 'no AdCP schemas' };
    const task = registry.task(tool);
    if (!task) return { skip: `AdCP ${registry.version} defines no response schema for tool ${JSON.stringify(tool.slice(0, 128))}` };
    const status = own(payload, 'status');
    if (typeof status === 'string' && (ASYNC_STATUSES as readonly string[]).includes(status)) {
      const id = task.async[status as AsyncStatus];
      if (!id || !registry.has(id)) return { skip: `AdCP ${registry.version} has no '${status}' response schema for ${tool}` };
      return { id };
    }
    return { id: task.response };
  };

  return {
    adcpVersion: {
      version: choice.version ?? (choice.declaredMissing ? `${choice.declaredMissing} (no schemas)` : 'none'),
      reason: unavailable && choice.version ? `${choice.reason}; ${unavailable}` : choice.reason,
    },
    versionChoice: choice,
    responseSchemaId,

    validateAdcpResponse(tool: string, payload: Record<string, unknown>): { errors: SchemaError[]; omitted?: number } | { skip: string } {
      if (!isObject(payload)) return { skip: 'payload is not an object' };
      const target = responseSchemaId(tool, payload);
      const registry = registryOf(payload);
      if ('skip' in target || !registry) return 'skip' in target ? target : { skip: 'no AdCP schemas' };
      const validate = registry.validator(target.id);
      if (typeof validate === 'string') return { skip: validate };
      // Our schema on the seller's data past the budget: not verified, and said so (never a pass or a fail).
      const stopped = blocked({ action: 'validate', tool, schema: target.id });
      if (stopped) return { skip: stopped };
      onStep({ action: 'validate', tool, schema: target.id, patterns: '' });
      try {
        const firstError = () =>
          ownWork(`compiling the AdCP schema ${target.id} to stop at its first error`, () => registry.firstErrorValidator(target.id));
        const outcome = validateBounded(validate, firstError, payload);
        if (outcome.valid) return { errors: [] };
        const { errors, omitted } = boundSchemaErrors(outcome.errors as ErrorObject[], payload);
        const left = outcome.capped ? Math.max(omitted ?? 0, ERROR_CAP - errors.length) : omitted;
        return left ? { errors, omitted: left } : { errors };
      } catch (e) {
        return { skip: `validating ${tool} against ${target.id} threw: ${errorText(e)}` };
      }
    },

    validateWebhookPayload(payload: Record<string, unknown>): { errors: SchemaError[]; omitted?: number } | { skip: string } {
      if (!registry) return { skip: unavailable ?? 'no AdCP schemas' };
      const id = registry.webhookPayloadId();
      if (!registry.has(id)) return { skip: `AdCP ${registry.version} has no core/mcp-webhook-payload.json` };
      const validate = registry.validator(id);
      if (typeof validate === 'string') return { skip: validate };
      const stopped = blocked({ action: 'validate', tool: 'webhook', schema: id });
      if (stopped) return { skip: stopped };
      onStep({ action: 'validate', tool: 'webhook', schema: id, patterns: '' });
      try {
        const firstError = () =>
          ownWork(`compiling the AdCP schema ${id} to stop at its first error`, () => registry.firstErrorValidator(id));
        const outcome = validateBounded(validate, firstError, payload);
        if (outcome.valid) return { errors: [] };
        const { errors, omitted } = boundSchemaErrors(outcome.errors as ErrorObject[], payload);
        const left = outcome.capped ? Math.max(omitted ?? 0, ERROR_CAP - errors.length) : omitted;
        return left ? { errors, omitted: left } : { errors };
      } catch (e) {
        return { skip: `validating a webhook payload against ${id} threw: ${errorText(e)}` };
      }
    },

    compileAdcpSchemas(): number {
      outputs.warm();
      if (!registry) return 0;
      let ready = 0;
      for (const tool of called) {
        const task = registry.task(tool);
        if (!task) continue;
        for (const id of [task.response, ...Object.values(task.async)]) {
          if (registry.has(id) && typeof registry.validator(id) !== 'string') ready++;
        }
      }
      // mcp-webhook-payload refers to every async response: a compile of seconds on a loaded machine, which
      // must not run in webhook.delivery's budget (the seller's) nor leave it untested.
      const webhookPayload = registry.webhookPayloadId();
      if (webhooks && registry.has(webhookPayload) && typeof registry.validator(webhookPayload) !== 'string') ready++;
      return ready;
    },

    compileOutputSchema(tool: string, outputSchema: unknown) {
      return outputs.compile(tool, outputSchema);
    },

    validateOutput(tool: string, outputSchema: unknown, instance: unknown, layer?: 'legacy_wrapper' | 'validate_root') {
      return outputs.validate(tool, outputSchema, instance, layer);
    },
  };
}
