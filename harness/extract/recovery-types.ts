// Shared by the recovery table and error extraction (kept apart to avoid an import cycle).
export type Recovery = 'transient' | 'correctable' | 'terminal';

export const RECOVERIES: readonly Recovery[] = ['transient', 'correctable', 'terminal'];

export function isRecovery(v: unknown): v is Recovery {
  return v === 'transient' || v === 'correctable' || v === 'terminal';
}
