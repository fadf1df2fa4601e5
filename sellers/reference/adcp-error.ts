// AdCP errors as the seller raises them (transport-errors: `adcp_error` {code, message, recovery,
// field?, suggestion?, …}). Handlers throw `AdcpFailure`; the envelope turns it into an MCP result.

export type Recovery = 'transient' | 'correctable' | 'terminal';

export interface AdcpErrorBody {
  code: string;
  message: string;
  recovery: Recovery;
  field?: string;
  suggestion?: string;
  issues?: Array<{ pointer: string; message: string; keyword: string }>;
  details?: Record<string, unknown>;
  retry_after?: number;
}

export class AdcpFailure extends Error {
  constructor(readonly body: AdcpErrorBody) {
    super(body.message);
    this.name = 'AdcpFailure';
  }
}

/** RFC 6901 pointer → the JSONPath-lite `field` of AdCP errors (`/packages/0/budget` → `packages[0].budget`). */
export function pointerToField(pointer: string): string {
  let field = '';
  for (const raw of pointer.split('/').slice(1)) {
    const part = raw.replaceAll('~1', '/').replaceAll('~0', '~');
    field += /^\d+$/.test(part) ? `[${part}]` : field === '' ? part : `.${part}`;
  }
  return field;
}
