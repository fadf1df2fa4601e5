// Code → recovery fallback table (used when an adcp_error has no `recovery`). Built lazily, once:
// the AdCP 3.0 `error-code` enumMetadata shipped inside @adcp/sdk, then our supplement of newer codes,
// then anything added at run time from another schema tree (`--schemas DIR`), later sources winning.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { isObject, own } from '../json.ts';
import { RECOVERY_SUPPLEMENT } from './recovery-supplement.ts';
import { isRecovery, type Recovery } from './recovery-types.ts';

let base: Map<string, Recovery> | undefined;
const added = new Map<string, Recovery>();
let merged: Map<string, Recovery> | undefined;

/** code → recovery pairs of an `enums/error-code.json` schema; junk entries are ignored. */
function metadataPairs(errorCodeSchema: unknown): Array<[string, Recovery]> {
  const meta = own(errorCodeSchema, 'enumMetadata');
  if (!isObject(meta)) return [];
  const pairs: Array<[string, Recovery]> = [];
  for (const code of Object.keys(meta)) {
    if (code.startsWith('$')) continue; // `$comment`
    const recovery = own(own(meta, code), 'recovery');
    if (isRecovery(recovery)) pairs.push([code, recovery]);
  }
  return pairs;
}

/** The SDK's 3.0 error-code schema, or undefined when the package or file is not there. */
function loadSdkErrorCodeSchema(): unknown {
  try {
    const pkg = createRequire(import.meta.url).resolve('@adcp/sdk/package.json');
    const file = path.join(path.dirname(pkg), 'dist', 'lib', 'schemas-data', '3.0', 'enums', 'error-code.json');
    return JSON.parse(readFileSync(file, 'utf8'));
  } catch {
    return undefined; // the supplement alone still covers the newer codes
  }
}

function baseTable(): Map<string, Recovery> {
  if (!base) {
    base = new Map(metadataPairs(loadSdkErrorCodeSchema()));
    for (const [code, recovery] of RECOVERY_SUPPLEMENT) base.set(code, recovery);
  }
  return base;
}

export function recoveryTable(): ReadonlyMap<string, Recovery> {
  if (!merged) {
    merged = new Map(baseTable());
    for (const [code, recovery] of added) merged.set(code, recovery);
  }
  return merged;
}

export function recoveryForCode(code: string): Recovery | undefined {
  return recoveryTable().get(code);
}

/** Extend at run time from another schema tree's `enums/error-code.json`. */
export function addRecoveryMetadata(errorCodeSchema: unknown): void {
  for (const [code, recovery] of metadataPairs(errorCodeSchema)) added.set(code, recovery);
  merged = undefined;
}
