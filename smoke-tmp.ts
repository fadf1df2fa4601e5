import { captureAgent } from './harness/connect/index.ts';
import { startHostileHttp } from './test/fixtures/servers/hostile-http.mjs';
const base = { timeouts: { connectMs: 5000, callMs: 2000, agentMs: 60000 }, production: false, sandbox: false, maxBytes: 1_114_112, secrets: ['Bearer s3cr3t-token', 's3cr3t-token'] };
const probes = ['get_adcp_capabilities','odd_result','my_tool','hang','junk','huge','bad_envelope','get_adcp_capabilities','crash','odd_result'].map(tool => ({ tool, arguments: {} }));
const t0 = Date.now();
const c = await captureAgent({ ...base, name: 's', transport: 'stdio', command: process.execPath, args: ['test/fixtures/servers/hostile-stdio.mjs', '--junk-at-start'], env: {}, probes } as any);
console.log(Date.now()-t0, JSON.stringify(c, (k, v) => k === 'tools' ? `[${v.length} tools]` : v));
for (const mode of ['json','sse'] as const) {
  const srv = await startHostileHttp({ mode });
  const p2 = ['get_adcp_capabilities','odd_result','hang','huge','html500','html200','echo_auth','echo_auth_http','bad_envelope','crash','get_adcp_capabilities'].map(tool => ({ tool, arguments: {} }));
  const t1 = Date.now();
  const h = await captureAgent({ ...base, name: 'h-'+mode, transport: 'http', url: srv.url, headers: { Authorization: 'Bearer s3cr3t-token' }, probes: p2 } as any);
  console.log(mode, Date.now()-t1, JSON.stringify({ init: h.initialize, tl: h.toolsList && (h.toolsList as any).pages, ab: h.aborted, http: h.http, ex: h.exchanges.map(x => [x.tool, x.outcome, x.bytes, x.durationMs]) }).slice(0, 5000));
  await srv.close();
}
