// Public surface of the config stage.
export { ConfigError } from './errors.ts';
export { DEFAULT_MAX_BYTES, DEFAULT_TIMEOUTS, loadConfig } from './load.ts';
export { SCHEMA_PATH } from './validate.ts';
export type { AgentConfig, Config, HttpAgentConfig, Probe, StdioAgentConfig, Timeouts } from './types.ts';
