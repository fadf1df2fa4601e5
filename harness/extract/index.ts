// The normative client algorithms of RULES.md §1, as small pure functions.
export * from './success.ts';
export * from './error.ts';
export * from './layer.ts';
export { recoveryForCode, recoveryTable, addRecoveryMetadata } from './recovery-table.ts';
