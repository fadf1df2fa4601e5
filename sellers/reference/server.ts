// One MCP session of the reference seller: the SDK's low-level Server with tools/list and tools/call
// handlers, fault hooks applied along the call path.
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { Protocol } from '@modelcontextprotocol/sdk/shared/protocol.js';
import { z } from 'zod';
import { InitializeRequestSchema, ListToolsRequestSchema, McpError, type InitializeRequest } from '@modelcontextprotocol/sdk/types.js';
import { AdcpFailure, type AdcpErrorBody } from './adcp-error.ts';
import { rejectCredentialsInArgs } from './credentials.ts';
import { SELLER_NAME, SELLER_VERSION } from './catalog.ts';
import { streamedAnswer } from './streamed-answer.ts';
import { errorResult, payloadOf, sanitizeError, successResult, type ToolResult } from './envelope.ts';
import type { FaultBehaviour, Takeover } from '../faults/_fault.ts';
import { inputSchemas } from './input-schemas.ts';
import { cloneJson, isPlainObject, type JsonObject } from './json.ts';
import type { SellerConfig } from './options.ts';
import { outputSchemaFor } from './output-schemas.ts';
import { checkIdempotencyKey } from './idempotency-key.ts';
import { requireAccount } from './account.ts';
import type { IdempotencyBugs, SellerState } from './state.ts';
import { toolSpecs, type ToolSpec } from './tools.ts';
import { compileAllInputValidators, validateArguments } from './validate-input.ts';
import { DEFAULT_RELEASE, negotiateRelease, type ServedRelease } from './version.ts';
import { tasksOf } from './tasks.ts';
import { ControllerFailure } from './test-controller.ts';
import { deliverTaskWebhooks, WebhookSender, type WebhookBugs } from './webhooks.ts';

/** The release a call would be served at, or undefined when its pin cannot be honoured. */
function releaseOrUndefined(args: JsonObject): ServedRelease | undefined {
  try {
    return negotiateRelease(args);
  } catch {
    return undefined;
  }
}

/** tools/call with any params: the method literal routes it, nothing else is checked by the SDK. */
const AnyToolCall = z.object({ method: z.literal('tools/call'), params: z.unknown() });

/** The behaviours of the faults the seller runs with. */
export function activeBehaviours(config: SellerConfig): FaultBehaviour[] {
  return config.faults.map((f) => f.behaviour);
}

/** Whether a fault the seller runs with bends the transport this way (stdio.ts, http.ts implement it). */
export function transportFault(config: SellerConfig, kind: NonNullable<FaultBehaviour['transport']>): boolean {
  return activeBehaviours(config).some((b) => b.transport === kind);
}

/** tools/list as this seller advertises it (fault hooks applied); fresh objects on every call. */
export function advertisedTools(config: SellerConfig): JsonObject[] {
  const tools: JsonObject[] = toolSpecs
    .filter((spec) => config.sandbox || !spec.mutating)
    // The controller never on a production seller (comply-test-controller.mdx › Sandbox gating).
    .filter((spec) => !spec.testController || (config.sandbox && config.testController === true))
    .map((spec) => ({
      name: spec.name,
      description: spec.description,
      inputSchema: cloneJson(spec.inputSchema ?? inputSchemas[spec.name]),
      outputSchema: outputSchemaFor(spec, config.outputShape),
      annotations: { readOnlyHint: !spec.mutating && !spec.testController, idempotentHint: true },
    }));
  for (const b of activeBehaviours(config)) b.tools?.(tools);
  return tools;
}

function log(message: string): void {
  process.stderr.write(`reference-seller: ${message}\n`);
}

/** Carries out a takeover: never answer, die, answer with a JSON-RPC error, or answer as told. */
function takeOver(takeover: Takeover, tool: string): Promise<unknown> {
  switch (takeover.kind) {
    case 'hang':
      log(`fault: leaving tools/call ${tool} unanswered`);
      return new Promise<never>(() => {});
    case 'crash':
      log(`fault: exiting while handling tools/call ${tool}`);
      return process.exit(70);
    case 'jsonrpc-error':
      throw new McpError(takeover.code, takeover.message);
    case 'answer':
      return Promise.resolve(takeover.result);
  }
}

export interface SessionHooks {
  /** Runs before a tools/call answer is handed to the transport (stdio logs fault). */
  beforeAnswer?(tool: string): void;
  /** Writes a whole JSON-RPC answer piece by piece, past the SDK (stdio; HTTP streams in http.ts). */
  stream?(pieces: Iterable<string>): Promise<void>;
}

/** The streamed-answer fault aimed at `tool`, if active. */
export function streamedFault(config: SellerConfig, tool: unknown): { tool: string; bytes: number } | undefined {
  return activeBehaviours(config).find((b) => b.stream && b.stream.tool === tool)?.stream;
}

/**
 * The streamed answer of a tools/call under the 50 MiB fault, or undefined when the call would not
 * succeed (bad input: the ordinary path answers it).
 */
export function streamedAnswerFor(
  config: SellerConfig,
  state: SellerState,
  tool: unknown,
  rawArgs: unknown,
  id: string | number,
): Iterable<string> | undefined {
  const fault = streamedFault(config, tool);
  const spec = toolSpecs.find((s) => s.name === tool);
  if (!fault || !spec) return undefined;
  const args: JsonObject = isPlainObject(rawArgs) ? rawArgs : {};
  try {
    const release = negotiateRelease(args);
    validateArguments(spec.name, args);
    const body = spec.run(args, { state, sandbox: config.sandbox, release });
    if (body instanceof Promise) return undefined; // a task that awaits is never the streamed one
    return streamedAnswer(id, spec, payloadOf(body, isPlainObject(args['context']) ? args['context'] : undefined, release), fault.bytes);
  } catch {
    return undefined;
  }
}

export function createSellerServer(config: SellerConfig, state: SellerState, hooks: SessionHooks = {}): Server {
  compileAllInputValidators(); // once per process (cached): no compile pause inside a timed call
  const server = new Server({ name: SELLER_NAME, version: SELLER_VERSION }, { capabilities: { tools: { listChanged: false } } });
  const active = activeBehaviours(config);
  state.bugs = Object.assign({}, ...active.map((b) => b.idempotency ?? {})) as IdempotencyBugs;
  // Async tasks report their status changes to the buyer's webhook (once per seller: sessions share its tasks).
  deliverTaskWebhooks(tasksOf(state), new WebhookSender(Object.assign({}, ...active.map((b) => b.webhook ?? {})) as WebhookBugs));
  const env = {
    state,
    sandbox: config.sandbox,
    ...(config.requireAccount !== undefined ? { requireAccount: config.requireAccount } : {}),
    ...(config.brandJsonUrl !== undefined ? { brandJsonUrl: config.brandJsonUrl } : {}),
  };
  // Only listed tools are served (a fault may hide one, or add names that are not ours).
  const served = new Set(advertisedTools(config).map((t) => t['name']));

  if (active.some((b) => b.initialize)) {
    // Re-register initialize to bend the SDK's own answer (`_oninitialize` keeps the session state right).
    const sdk = server as unknown as { _oninitialize(r: InitializeRequest): Promise<JsonObject> };
    server.setRequestHandler(InitializeRequestSchema, async (request) => {
      const result = { ...(await sdk._oninitialize(request)) };
      for (const b of active) b.initialize?.(result);
      return result as never;
    });
  }

  server.setRequestHandler(ListToolsRequestSchema, () => ({ tools: advertisedTools(config) }) as never);

  const errorAnswer = (
    error: AdcpErrorBody,
    context: JsonObject | undefined,
    release: ServedRelease | undefined,
    controller?: JsonObject,
  ): unknown => {
    const body = sanitizeError(error);
    for (const b of active) b.error?.(body);
    let result: unknown = errorResult(body, context, release);
    // A controller refusal is also its response schema's ControllerError branch (success: false, error, …).
    if (controller) {
      const r = result as ToolResult;
      result = { ...r, structuredContent: { ...controller, ...(r.structuredContent as JsonObject) } };
    }
    for (const b of active) if (b.errorResult) result = b.errorResult(result as ToolResult);
    return result;
  };

  const answer = async (params: unknown, requestId: string | number): Promise<unknown> => {
    const name = isPlainObject(params) && typeof params['name'] === 'string' ? params['name'] : '';
    for (const b of active) {
      const takeover = b.takeover?.(name);
      if (takeover) return takeOver(takeover, name);
    }
    const rawArgs = isPlainObject(params) ? params['arguments'] : undefined;
    const args: JsonObject = isPlainObject(rawArgs) ? rawArgs : {};
    for (const b of active) b.request?.(name, args);
    const context = isPlainObject(args['context']) ? args['context'] : undefined;
    if (rawArgs !== undefined && !isPlainObject(rawArgs)) {
      return errorAnswer(
        { code: 'VALIDATION_ERROR', message: 'Invalid request: arguments must be an object', recovery: 'correctable', field: 'arguments' },
        undefined,
        DEFAULT_RELEASE,
      );
    }
    const spec: ToolSpec | undefined = served.has(name) ? toolSpecs.find((s) => s.name === name) : undefined;
    if (!spec) {
      return errorAnswer(
        { code: 'UNSUPPORTED_FEATURE', message: `This seller does not serve the tool '${name}'`, recovery: 'terminal', field: 'name' },
        context,
        releaseOrUndefined(args),
      );
    }
    let body: JsonObject;
    // The release served: set once negotiation succeeded, echoed on the answer, success or error.
    let release: ServedRelease | undefined;
    try {
      // A pinned version the seller does not speak is refused first: the rest of the request follows that version.
      release = negotiateRelease(args);
      rejectCredentialsInArgs(args);
      // The key's presence and format before anything else reads the request (security.mdx rule 1).
      if (spec.mutating) checkIdempotencyKey(args);
      requireAccount(config.requireAccount, spec.name, args);
      validateArguments(spec.name, args);
      body = await spec.run(args, { ...env, release });
    } catch (err) {
      if (err instanceof AdcpFailure) {
        const invalid = active.find((b) => b.invalidInput)?.invalidInput;
        if (invalid && err.body.code === 'VALIDATION_ERROR') return takeOver(invalid, name);
        return errorAnswer(err.body, context, release, err instanceof ControllerFailure ? err.controller : undefined);
      }
      // A bug of ours: say so without leaking internals; the details go to stderr.
      log(`internal error in ${name}: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}`);
      return errorAnswer(
        { code: 'INTERNAL_ERROR', message: 'The seller failed to process the request', recovery: 'terminal' },
        context,
        release,
      );
    }
    const payload = payloadOf(body, context, release);
    const streamed = streamedFault(config, spec.name);
    if (streamed && hooks.stream) {
      await hooks.stream(streamedAnswer(requestId, spec, payload, streamed.bytes));
      return new Promise<never>(() => {}); // answered already: the SDK must not send a second one
    }
    let text: 'summary' | undefined;
    for (const b of active) text = b.payload?.(spec.name, payload)?.text ?? text;
    let result: unknown = successResult(spec, payload, { shape: config.outputShape, ...(text ? { text } : {}) });
    for (const b of active) {
      const replaced = b.result?.({ tool: spec.name, payload, result: result as ToolResult });
      if (replaced !== undefined) result = replaced;
    }
    return result;
  };

  // Registered through Protocol, not Server: Server's override parses every tools/call result with
  // the SDK's CallToolResultSchema (and answers −32602 on a mismatch), which would refuse the very
  // results the faults must put on the wire. The request schema is permissive for the same reason:
  // every argument problem is ours to answer as an AdCP error (validate-input.ts), never the SDK's.
  Protocol.prototype.setRequestHandler.call(server, AnyToolCall, async (request, extra) => {
    const result = await answer(request.params, extra.requestId);
    hooks.beforeAnswer?.(isPlainObject(request.params) ? String(request.params['name']) : '');
    return result as never;
  });

  return server;
}
