// Shared judging of the AdCP 3.1 version rules: whether they concern the seller (it declares a 3.1+
// release in adcp.supported_versions), and what a step's answer says — served (at which release, when the
// seller echoes it) or refused with VERSION_UNSUPPORTED (correctable, supported_versions in the error data).
import type { AgentCapture } from '../../record/exchange.ts';
import { declaredReleases, echoOf, parseRelease, releases31, type Resolution } from '../../capture/version-facts.ts';
import { fail, notApplicable, pass, untested, type AgentVerdict, type Verdict } from '../check.ts';
import { isObject, own, preview } from '../../json.ts';
import { answerOf, at, codeOf, recoveryOf, type Step } from '../scenario-view.ts';

/** The releases the seller declares when it declares a 3.1+ one; else the verdict saying why the rule does not apply. */
export function gate31(a: AgentCapture): { releases: string[] } | { verdict: Verdict } {
  const declared = declaredReleases(Array.isArray(a.exchanges) ? a.exchanges : []);
  if (declared.kind === 'unknown') {
    const called = Array.isArray(a.exchanges) && a.exchanges.some((x) => x.tool === 'get_adcp_capabilities');
    return { verdict: called ? untested(declared.why) : notApplicable(declared.why) };
  }
  if (declared.kind === 'none')
    return { verdict: notApplicable(`an AdCP 3.1 rule: the seller declares no 3.1+ release (${declared.found})`) };
  if (releases31(declared.releases).length === 0)
    return {
      verdict: notApplicable(
        `an AdCP 3.1 rule: the seller declares no 3.1+ release (adcp.supported_versions ${preview(declared.releases.slice(0, 8))})`,
      ),
    };
  return { releases: declared.releases };
}

/** The verdict of a step whose pin the seller had to refuse: VERSION_UNSUPPORTED, correctable, and (when `listed`) supported_versions in the error data. */
export function refused(s: Step, why: string, listed: boolean): Verdict {
  const want = `an AdCP error VERSION_UNSUPPORTED, recovery correctable${listed ? ', supported_versions in its details' : ''} (${why})`;
  const answer = answerOf(s.x, s.call);
  switch (answer.kind) {
    case 'none':
      return answer.verdict;
    case 'success': {
      const echo = echoOf(s.x);
      const at2 = echo ? ` at adcp_version ${preview(echo.value)}` : '';
      return fail(at(s, '/result/isError'), want, `a success: the request was served${at2}`);
    }
    case 'bare-jsonrpc':
      return fail(at(s, '/error'), want, answer.found);
  }
  const code = codeOf(answer.error, s.call);
  if ('verdict' in code) return code.verdict;
  if (code.code !== 'VERSION_UNSUPPORTED') return fail(at(s, `${answer.pointer}/code`), want, `code ${preview(code.code)}`);
  const recovery = recoveryOf(answer.error, s.call);
  if ('verdict' in recovery) return recovery.verdict;
  if (recovery.recovery !== 'correctable')
    return fail(
      at(s, `${answer.pointer}/recovery`),
      'recovery correctable (re-pin to a listed release and retry)',
      preview(recovery.recovery),
    );
  if (!listed) return pass();
  // versioning.mdx: "return VERSION_UNSUPPORTED with supported_versions in error.data"; on an AdCP error
  // that is `details` (error-details/version-unsupported.json); a literal `data` is accepted too.
  const details = own(answer.error, 'details');
  const data = own(answer.error, 'data');
  const where = isObject(details) && own(details, 'supported_versions') !== undefined ? 'details' : isObject(data) ? 'data' : 'details';
  const list = own(where === 'details' ? details : data, 'supported_versions');
  const pointer = at(s, `${answer.pointer}/${where}/supported_versions`);
  if (!Array.isArray(list) || list.length === 0)
    return fail(pointer, 'a non-empty supported_versions array (the releases to re-pin to)', list === undefined ? 'absent' : preview(list));
  const bad = list.slice(0, 50).find((v) => parseRelease(v) === null);
  if (bad !== undefined || list.length > 50)
    return fail(
      pointer,
      'release-precision strings ("3.0", "3.1", "3.1-beta")',
      bad !== undefined ? preview(bad) : `${list.length} entries`,
    );
  return pass();
}

/**
 * The verdict of a step the seller had to serve at `release`, and a note for the subject when which release
 * it served stayed unverified (no `adcp_version` echoed: version.echo owns that).
 */
export function served(s: Step, release: string, why: string): { verdict: Verdict; note?: string } {
  const want = `served at adcp_version "${release}" (${why})`;
  const answer = answerOf(s.x, s.call);
  switch (answer.kind) {
    case 'none':
      return { verdict: answer.verdict };
    case 'bare-jsonrpc':
      return { verdict: fail(at(s, '/error'), want, answer.found) };
    case 'adcp-error':
      return {
        verdict: fail(
          at(s, answer.pointer),
          want,
          `an AdCP error ${preview(own(answer.error, 'code'))}: ${preview(own(answer.error, 'message'))}`,
        ),
      };
  }
  const echo = echoOf(s.x);
  if (!echo) return { verdict: pass(), note: 'release served unverified: no adcp_version echo' };
  if (echo.value !== release) return { verdict: fail(at(s, echo.pointer), want, `adcp_version ${preview(echo.value)}`) };
  return { verdict: pass() };
}

/** `get_products (adcp_version "3.99")`, with the unverified part said when there is one. */
export function stepSubject(s: Step, note?: string): string {
  const pin = own(s.x.request?.arguments, 'adcp_version');
  const major = own(s.x.request?.arguments, 'adcp_major_version');
  const pins = [`adcp_version ${preview(pin)}`, ...(major !== undefined ? [`adcp_major_version ${preview(major)}`] : [])].join(', ');
  return `${s.x.tool} (${pins}${note ? `; ${note}` : ''})`;
}

/** One verdict per step, by a resolution of its pin. */
export function judgeResolution(s: Step, resolution: Resolution): AgentVerdict {
  if ('serve' in resolution) {
    const { verdict, note } = served(s, resolution.serve, resolution.why);
    return { subject: stepSubject(s, note), verdict };
  }
  return { subject: stepSubject(s), verdict: refused(s, resolution.unsupported, true) };
}
