// The SchemaService of one agent (harness/checks/check.ts): the AdCP response schemas of the version the
// agent serves, from a schema source (the @adcp/sdk data by default, a directory, or a base URL cached on
// disk), and the agent's own tool outputSchemas compiled by their dialect.
import type { AgentCapture } from '../capture/exchange.ts';
import type { SchemaError, SchemaService } from '../checks/check.ts';
import { isObject, own } from '../extract/json.ts';
import { boundSchemaErrors } from './errors.ts';
import { errorText } from './fetch.ts';
import { OutputSchemaCompiler } from './output.ts';
import { ASYNC_STATUSES, registryFor, type AdcpRegistry, type AsyncStatus } from './registry.ts';
import type { SchemaSource } from './source.ts';
import { chooseAdcpVersion, type VersionChoice } from './version.ts';

export { dirSchemaSource, parseSchemasOption, sdkSchemaSource, urlSchemaSource, SchemaSourceError } from './source.ts';
export type { SchemaSource, SchemaTree } from './source.ts';
export { chooseAdcpVersion, matchVersion, parseVersion } from './version.ts';
export type { VersionChoice, VersionRule } from './version.ts';
export { boundSchemaErrors, MAX_ERRORS, toSchemaErrors } from './errors.ts';
export { registryFor } from './registry.ts';
export type { TaskSchemas } from './registry.ts';

/** A SchemaService plus what tests and reports may want to see. */
export interface AgentSchemaService extends SchemaService {
  /** The version rule that decided (`echoed by seller`, `capabilities`, `config`, `default`). */
  versionChoice: VersionChoice;
  /** Which `$id` a payload of `tool` would be validated against (undefined + reason when none). */
  responseSchemaId(tool: string, payload: Record<string, unknown>): { id: string } | { skip: string };
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
export async function createSchemaService(capture: AgentCapture, source: SchemaSource): Promise<AgentSchemaService> {
  let available: string[] = [];
  let unavailable: string | undefined;
  try {
    available = await source.versions();
  } catch (e) {
    unavailable = `${source.label}: ${errorText(e)}`;
  }
  const choice = chooseAdcpVersion(capture, available);
  let registry: AdcpRegistry | undefined;
  if (choice.version && !unavailable) {
    try {
      registry = await registryFor(source, choice.version);
      await registry.prepare(toolsOf(capture));
    } catch (e) {
      unavailable = `AdCP ${choice.version} schemas from ${source.label} could not be loaded: ${errorText(e)}`;
      registry = undefined;
    }
  }
  unavailable ??= registry ? undefined : choice.declaredMissing ? `${source.label}: ${choice.reason}` : `${source.label} has no AdCP schema tree to validate against`;
  return buildService(choice, registry, unavailable);
}

function buildService(choice: VersionChoice, registry: AdcpRegistry | undefined, unavailable: string | undefined): AgentSchemaService {
  const outputs = new OutputSchemaCompiler();

  const responseSchemaId = (tool: string, payload: Record<string, unknown>): { id: string } | { skip: string } => {
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
      if ('skip' in target || !registry) return 'skip' in target ? target : { skip: 'no AdCP schemas' };
      const validate = registry.validator(target.id);
      if (typeof validate === 'string') return { skip: validate };
      try {
        return validate(payload) ? { errors: [] } : boundSchemaErrors(validate.errors, payload);
      } catch (e) {
        return { skip: `validating ${tool} against ${target.id} threw: ${errorText(e)}` };
      }
    },

    compileOutputSchema(tool: string, outputSchema: unknown) {
      return outputs.compile(tool, outputSchema);
    },

    validateOutput(tool: string, outputSchema: unknown, instance: unknown, layer?: 'legacy_wrapper' | 'validate_root') {
      return outputs.validate(tool, outputSchema, instance, layer);
    },
  };
}
