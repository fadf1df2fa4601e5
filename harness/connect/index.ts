// Public surface of the connect stage: capture one agent over its live session.
export { captureAgent, type CaptureOptions } from '../capture/capture-agent.ts';
export { PermissiveResult, PinnedClient } from './session.ts';
