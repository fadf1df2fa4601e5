// The defaults of an agent's limits. Their own module: ad-hoc agents (--url / --stdio) use them without
// loading the config loader (yaml, Ajv).
import type { Timeouts } from './types.ts';

export const DEFAULT_TIMEOUTS: Timeouts = { connectMs: 10_000, callMs: 30_000, agentMs: 180_000 };
/** 1 MiB (the spec's client limit) + 64 KiB for the JSON-RPC envelope around it. */
export const DEFAULT_MAX_BYTES = 1_114_112;
