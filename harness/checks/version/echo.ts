// version.echo — a request carrying `adcp_version` gets `adcp_version` back on every answer: the release
// SERVED (release precision, one of the seller's supported_versions), the same for the same pin all
// session. Judged over every call whose request pinned `adcp_version` (the harness's probes once it pins
// them, and the version scenarios' calls), success or AdCP error; a VERSION_UNSUPPORTED refusal served no
// release and is not judged, nor is a JSON-RPC error (no result to carry it). One verdict per tool: its
// first finding, else pass.
import type { AgentCapture, Exchange } from '../../record/exchange.ts';
import { echoOf, parseRelease, pinOf } from '../../capture/version-facts.ts';
import { locatedAdcpError } from '../error/_adcp-error.ts';
import { defineCheck, fail, notApplicable, pass, untested, type AgentVerdict, type Verdict } from '../check.ts';
import { own, preview } from '../../json.ts';
import { viewResult } from '../views.ts';
import { gate31 } from './_negotiation.ts';

const SUBJECT = 'adcp_version echo';

/** Whether the call was refused for its version (no release was served, so none is echoed). */
function refusedForVersion(x: Exchange): boolean {
  const located = locatedAdcpError(x);
  return !('verdict' in located) && own(located.error, 'code') === 'VERSION_UNSUPPORTED';
}

/** What a pinned call's answer says about the echo, with the session's first echo per pin. */
export function judgeEcho(
  x: Exchange,
  call: number,
  supported: readonly string[],
  firstByPin: Map<string, { value: string; call: number }>,
): Verdict {
  const pin = pinOf(x)!;
  const echo = echoOf(x);
  const want = `adcp_version: the release served for the pin ${preview(pin)} (one of ${preview(supported.slice(0, 8))})`;
  if (!echo) return fail(`/exchanges/${call}/result/structuredContent/adcp_version`, want, 'absent');
  const pointer = `/exchanges/${call}${echo.pointer}`;
  const r = parseRelease(echo.value);
  if (typeof echo.value !== 'string' || r === null)
    return fail(pointer, `${want}: release precision M.m or M.m-pre (no patch)`, preview(echo.value));
  if (!supported.includes(echo.value)) return fail(pointer, want, `${preview(echo.value)}, which adcp.supported_versions does not list`);
  const first = firstByPin.get(pin);
  if (!first) {
    firstByPin.set(pin, { value: echo.value, call });
    return pass();
  }
  if (first.value !== echo.value)
    return fail(
      pointer,
      `the release echoed for the same pin earlier in the session: ${preview(first.value)} (call ${first.call})`,
      preview(echo.value),
    );
  return pass();
}

export default defineCheck({
  id: 'version.echo',
  scope: 'agent',
  severity: 'SHOULD',
  live: false,
  title:
    'a request pinning `adcp_version` gets `adcp_version` back on every answer: the release served (release precision, one of supported_versions), the same for the same pin all session',
  spec: {
    label:
      'AdCP 3.1 · Versioning, "Server echoes: adcp_version on every response tells the buyer which release the seller actually served … never the seller\'s own latest release"; a SHOULD through 3.x ("Spec — seller: SHOULD honor and echo adcp_version"; the compliance grader blocks on it from 3.2)',
    url: 'https://adcontextprotocol.org/docs/reference/versioning',
  },
  fix: 'put the negotiated release in every answer: `"adcp_version": "3.0"` beside the payload (and beside `adcp_error` on errors) — the release you served, not your newest',
  judge(a: AgentCapture): AgentVerdict[] {
    const gate = gate31(a);
    if ('verdict' in gate) return [{ subject: SUBJECT, verdict: gate.verdict }];
    const exchanges = Array.isArray(a.exchanges) ? a.exchanges : [];
    const byTool = new Map<string, Verdict>();
    const firstByPin = new Map<string, { value: string; call: number }>();
    let pinned = 0;
    exchanges.forEach((x, call) => {
      if (pinOf(x) === undefined || x.outcome?.kind !== 'result') return;
      if (viewResult(x).kind === 'none' || refusedForVersion(x)) return;
      pinned++;
      const verdict = judgeEcho(x, call, gate.releases, firstByPin);
      const prior = byTool.get(x.tool);
      if (!prior || (prior.status === 'pass' && verdict.status !== 'pass')) byTool.set(x.tool, verdict);
    });
    if (pinned === 0) {
      const any = exchanges.some((x) => pinOf(x) !== undefined);
      return [
        {
          subject: SUBJECT,
          verdict: any
            ? notApplicable(
                'every call that pinned adcp_version was refused for its version or got no result: no release was served to echo',
              )
            : untested('no call pinned adcp_version (the release-negotiation scenario did not run: see version.release-negotiation)'),
        },
      ];
    }
    return [...byTool].map(([tool, verdict]) => ({ subject: tool, verdict }));
  },
});
