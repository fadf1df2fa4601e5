// schema.legacy-wrapper — the harness's own rule: a tool declared with an id (zod `.meta({id})`) answers
// under MCP 2025-11-25 with its payload at the structuredContent root. A lone `{result:{…}}` wrapper is
// what the MCP TypeScript SDK did before 2.4.0: the harness still validates the inner object (so
// schema.output-conformance can pass), but an up-to-date client reads the wrapper as the payload, so a
// server still wrapping is stale or was not restarted after the upgrade.
import { defineCheck, fail, notApplicable, pass, untested } from '../check.ts';
import { layerOf, rootOnlyRevision } from './_layer.ts';

export default defineCheck({
  id: 'schema.legacy-wrapper',
  scope: 'exchange',
  severity: 'SHOULD',
  live: false,
  harnessAddition: true,
  title: 'the `legacy_wrapper` branch was not needed (a server still wrapping in `result` is stale or not restarted)',
  spec: {
    label: "adcp-conformance's own rule (MCP 2025-11-25 · Tools › Structured content; the MCP TypeScript SDK 2.4.0 unwraps `result`)",
    url: 'docs/checks.md#schemalegacy-wrapper',
  },
  fix: 'upgrade the MCP server SDK (@modelcontextprotocol/server ≥ 2.4.0) and restart, so structuredContent is the payload itself, not `{"result":{…}}`',
  judge(x, ctx) {
    const layer = layerOf(x, ctx);
    if ('verdict' in layer) return layer.verdict;
    // The wrapper question only arises for id-declared tools under 2025-11-25 (the gate's audited set).
    if ('reason' in layer) return layer.target === 'schema' ? notApplicable(layer.reason) : untested(layer.reason);
    if (rootOnlyRevision(x.protocolVersion))
      return notApplicable(`MCP ${String(x.protocolVersion)} predates the structured-content layer question (2025-11-25)`);
    if (layer.target === 'validate_root') return pass();
    return fail(
      '/result/structuredContent',
      'the payload at the structuredContent root (SDK 2.4.0, protocol 2025-11-25)',
      'a lone {"result":{…}} wrapper (legacy_wrapper)',
    );
  },
});
