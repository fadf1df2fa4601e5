// transport.initialize — the MCP handshake answers, with a revision we speak and a serverInfo.
import { downReason } from '../../capture/down-reason.ts';
import { SUPPORTED_PROTOCOL_VERSIONS } from '../../connect/protocol-versions.ts';
import { defineCheck, fail, pass } from '../check.ts';
import { isObject, own, preview } from '../../json.ts';

export default defineCheck({
  id: 'transport.initialize',
  scope: 'agent',
  severity: 'MUST',
  live: true,
  title: '`initialize` answers within the timeout with a protocol revision the harness supports and a `serverInfo`',
  spec: {
    label: 'MCP 2025-11-25 · Basic › Lifecycle › Initialization',
    url: 'https://modelcontextprotocol.io/specification/2025-11-25/basic/lifecycle#initialization',
  },
  fix: 'answer `initialize` with `protocolVersion` (e.g. "2025-06-18"), `capabilities` and `serverInfo: {name, version}`; check the server starts and listens where the config points',
  judge(a) {
    const init = a.initialize;
    if (!init.ok)
      return [
        {
          subject: 'initialize',
          // Found: why it is down, in the words every report uses (cause-specific: refused, DNS, crash …).
          verdict: fail('/initialize', 'an initialize answer within the connect timeout', downReason(a)?.detail ?? init.failure.message),
        },
      ];
    const revision = init.protocolVersion;
    if (typeof revision !== 'string' || !SUPPORTED_PROTOCOL_VERSIONS.includes(revision)) {
      return [
        {
          subject: 'initialize',
          verdict: fail('/initialize/protocolVersion', `one of ${SUPPORTED_PROTOCOL_VERSIONS.join(', ')}`, preview(revision)),
        },
      ];
    }
    const info = init.serverInfo;
    if (!isObject(info) || typeof own(info, 'name') !== 'string' || typeof own(info, 'version') !== 'string') {
      return [
        {
          subject: 'initialize',
          verdict: fail('/initialize/serverInfo', 'an object with string name and version', info === undefined ? 'absent' : preview(info)),
        },
      ];
    }
    return [{ subject: 'initialize', verdict: pass() }];
  },
});
