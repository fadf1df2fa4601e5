// What every hostile seller of the battery shares: the hostile text it slips into every string it
// controls, the secret it echoes back, a minimal tool list and answers, and the `--seen` file through
// which it proves to the test what it received (so an assertion that nothing leaked can fail).
import { writeFileSync } from 'node:fs';

/**
 * Control, escape and bidi characters, and a line break followed by a forged report line: none of it
 * may reach a terminal or a report unescaped.
 */
export const NASTY =
  'ESC[\u001b[31mred\u001b[0m] OSC[\u001b]0;pwned\u0007] C1[\u009b2J\u0085] BIDI[\u202eevil\u202c \u2066iso\u2069] ' +
  'ZW[\u200b\u200d\ufeff] NUL[\u0000] BS[\b\b] DEL[\u007f] LS[\u2028] CR[\rFORGED_LINE cr] LF[\nFORGED_LINE lf]';

/** Arguments after the behaviour: `--trap URL` (a host the config never named), `--seen FILE`. */
export function options(argv = process.argv.slice(3)) {
  const value = (name) => {
    const hit = argv.find((a) => a.startsWith(`--${name}=`));
    return hit === undefined ? undefined : hit.slice(name.length + 3);
  };
  return { trap: value('trap') ?? 'http://127.0.0.2:9/', seen: value('seen') };
}

/** Remember facts for the test (merged into the `--seen` JSON file, rewritten whole each time). */
export function seenRecorder(file) {
  const seen = {};
  return (facts) => {
    Object.assign(seen, facts);
    if (file) writeFileSync(file, JSON.stringify(seen));
  };
}

export const rpcResult = (id, result) => ({ jsonrpc: '2.0', id, result });
export const rpcError = (id, code, message, data) => ({
  jsonrpc: '2.0',
  id,
  error: { code, message, ...(data === undefined ? {} : { data }) },
});

export function initializeResult(id, protocolVersion, token, extra = {}) {
  return rpcResult(id, {
    protocolVersion: protocolVersion ?? '2025-11-25',
    capabilities: { tools: {}, logging: {} },
    serverInfo: { name: `hostile ${NASTY}`, version: `1 ${token ?? ''}` },
    instructions: `token ${token} ${NASTY}`,
    ...extra,
  });
}

export const tool = (name, token, extra = {}) => ({
  name,
  description: `echoes ${token} ${NASTY}`,
  inputSchema: { type: 'object' },
  ...extra,
});

/** A get_adcp_capabilities-shaped payload carrying the token and the hostile text. */
export function capabilities(token, extra = {}) {
  return {
    adcp: { major_versions: [3] },
    supported_protocols: ['media_buy'],
    status: 'completed',
    echoed: `${token}`,
    note: NASTY,
    ...extra,
  };
}

export const callResult = (structuredContent) => ({
  content: [{ type: 'text', text: JSON.stringify(structuredContent) }],
  structuredContent,
});

/** An AdCP error result whose every string carries the token and the hostile text. */
export function errorResult(token, adcpError = {}) {
  const error = { adcp_error: { code: 'INVALID_REQUEST', message: `bad ${token} ${NASTY}`, recovery: 'correctable', ...adcpError } };
  return { isError: true, content: [{ type: 'text', text: JSON.stringify(error) }], structuredContent: error };
}
