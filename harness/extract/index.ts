// The normative client algorithms of AdCP (docs/architecture.md, step 4), as small pure functions.
export * from './success.ts';
export * from './error.ts';
export * from './layer.ts';
export { recoveryForCode, recoveryTable, addRecoveryMetadata } from './recovery-table.ts';
