// The code → recovery fallback table: SDK 3.0 metadata + our supplement (+ run-time additions).
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, test } from 'vitest';
import { addRecoveryMetadata, recoveryForCode, recoveryTable } from '../../harness/extract/recovery-table.ts';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const shared = path.resolve(root, '..', 'shared');
const enum3119 = path.join(shared, 'adcp', 'schemas', '3.1.19', 'enums', 'error-code.json');
const hasShared = existsSync(enum3119);

function metadataRecoveries(file: string): Array<[string, string]> {
  const meta = (JSON.parse(readFileSync(file, 'utf8')) as { enumMetadata: Record<string, { recovery?: string }> }).enumMetadata;
  return Object.keys(meta)
    .filter((k) => !k.startsWith('$'))
    .map((k) => [k, String(meta[k]?.recovery)]);
}

describe('recovery table', () => {
  test('covers the 3.0 codes shipped in @adcp/sdk', () => {
    expect(recoveryForCode('RATE_LIMITED')).toBe('transient');
    expect(recoveryForCode('BUDGET_TOO_LOW')).toBe('correctable');
    expect(recoveryForCode('ACCOUNT_SUSPENDED')).toBe('terminal');
    expect(recoveryTable().size).toBeGreaterThanOrEqual(90);
  });

  test('ACCOUNT_MOVED and ACCOUNT_IDENTITY_CONFLICT are correctable; unknown codes are undefined', () => {
    expect(recoveryForCode('ACCOUNT_MOVED')).toBe('correctable');
    expect(recoveryForCode('ACCOUNT_IDENTITY_CONFLICT')).toBe('correctable');
    expect(recoveryForCode('X_NOBODY_KNOWS')).toBeUndefined();
    expect(recoveryForCode('constructor')).toBeUndefined();
    expect(recoveryForCode('__proto__')).toBeUndefined();
  });

  test.skipIf(!hasShared)('every 3.1.19 code maps to the same recovery (skipped when ../shared is absent)', () => {
    const pairs = metadataRecoveries(enum3119);
    expect(pairs.length).toBeGreaterThan(80);
    const wrong = pairs.filter(([code, recovery]) => recoveryForCode(code) !== recovery);
    expect(wrong).toEqual([]);
  });

  test('addRecoveryMetadata extends the table at run time and ignores junk', () => {
    addRecoveryMetadata({
      enumMetadata: {
        $comment: 'ignored',
        X_TEST_LATER_CODE: { recovery: 'transient' },
        X_TEST_BAD_RECOVERY: { recovery: 'eventually' },
        X_TEST_NOT_OBJECT: 'correctable',
      },
    });
    addRecoveryMetadata(null);
    addRecoveryMetadata({ enumMetadata: [] });
    expect(recoveryForCode('X_TEST_LATER_CODE')).toBe('transient');
    expect(recoveryForCode('X_TEST_BAD_RECOVERY')).toBeUndefined();
    expect(recoveryForCode('X_TEST_NOT_OBJECT')).toBeUndefined();
    expect(recoveryForCode('RATE_LIMITED')).toBe('transient');
  });
});
