// `--require-account ID`: the seller serves one account, named by its seller-assigned id, and refuses a
// call that takes an `account` without it — the errors of AdCP's accounts page (building/by-layer/L2/
// accounts-and-agents.mdx › Error codes, 3.0 and 3.1): no account named → ACCOUNT_REQUIRED (correctable,
// with the available accounts); a reference that does not resolve to it → ACCOUNT_NOT_FOUND (terminal,
// the same answer whether it exists elsewhere or not: error-handling.mdx › uniform response).
import { AdcpFailure } from './adcp-error.ts';
import { inputSchemas } from './input-schemas.ts';
import { isPlainObject, type JsonObject } from './json.ts';

/** Whether the tool's request takes an `account` (its advertised inputSchema lists one). */
export function takesAccount(tool: string): boolean {
  const properties = inputSchemas[tool]?.['properties'];
  return isPlainObject(properties) && Object.hasOwn(properties, 'account');
}

/** Throws the AdCP error for a call that does not name the one account this seller serves. */
export function requireAccount(required: string | undefined, tool: string, args: JsonObject): void {
  if (required === undefined || !takesAccount(tool)) return;
  const account = args['account'];
  if (account === undefined) {
    throw new AdcpFailure({
      code: 'ACCOUNT_REQUIRED',
      message: `${tool} needs an account: pass account {"account_id": "…"} (one of details.available_accounts)`,
      recovery: 'correctable',
      field: 'account',
      details: { available_accounts: [{ account_id: required }] },
    });
  }
  if (!isPlainObject(account) || account['account_id'] !== required) {
    throw new AdcpFailure({
      code: 'ACCOUNT_NOT_FOUND',
      message: 'The account reference could not be resolved: verify it with the seller',
      recovery: 'terminal',
      field: 'account',
    });
  }
}
