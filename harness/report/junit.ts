// junit.xml comes from vitest's own junit reporter. Vitest names a <testsuite> after its file and has
// no place for suite <properties> or a skip reason, so this one small pass over its output renames
// each agent's suite, adds the agent facts as <properties> and gives <skipped> its message.
// It relies only on what vitest guarantees for its XML: every attribute value and text node is escaped,
// so a literal `<` always starts a tag.
import { escapeXml } from '../sanitize.ts';
import { LAYERS, type AgentFacts } from './model.ts';

export interface JunitSuiteInfo {
  /** Base name of the suite file vitest ran for this agent (what vitest puts in `<testsuite name>`). */
  file: string;
  /** The agent's name, to replace the file name. */
  name: string;
  properties: ReadonlyArray<readonly [string, string]>;
  /** Skip reason per testcase name, exactly as vitest writes the name (`<describe> > <test>`). */
  skipReasons: ReadonlyMap<string, string>;
}

const TAG = /<(\/?)(testsuites|testsuite|testcase|skipped)\b([^>]*?)(\/?)>/g;

export function decorateJunit(xml: string, suites: readonly JunitSuiteInfo[], runName = 'adcp-conformance'): string {
  const byFile = new Map(suites.map((s) => [s.file, s]));
  let suite: JunitSuiteInfo | undefined;
  let testcase: string | undefined;
  return xml.replace(TAG, (tag: string, closing: string, element: string, attrs: string, selfClosing: string) => {
    if (closing) {
      if (element === 'testsuite') suite = undefined;
      if (element === 'testcase') testcase = undefined;
      return tag;
    }
    switch (element) {
      case 'testsuites':
        return `<testsuites${withAttr(attrs, 'name', runName)}${selfClosing}>`;
      case 'testsuite': {
        const name = attr(attrs, 'name');
        suite = name === undefined ? undefined : byFile.get(baseName(name));
        if (!suite) return tag;
        const props = suite.properties.map(([k, v]) => `<property name="${escapeXml(k)}" value="${escapeXml(v)}"/>`);
        const open = `<testsuite${withAttr(attrs, 'name', suite.name)}${selfClosing}>`;
        return selfClosing ? open : `${open}\n<properties>${props.join('')}</properties>`;
      }
      case 'testcase':
        testcase = selfClosing ? undefined : attr(attrs, 'name');
        return tag;
      default: {
        // <skipped/>: add the reason when vitest left it out.
        const reason = testcase === undefined ? undefined : suite?.skipReasons.get(testcase);
        if (reason === undefined || attr(attrs, 'message') !== undefined) return tag;
        return `<skipped${attrs} message="${escapeXml(reason)}"${selfClosing}>`;
      }
    }
  });
}

/** The JUnit properties of one agent's suite. */
export function agentProperties(facts: AgentFacts): Array<[string, string]> {
  const props: Array<[string, string]> = [
    ['agent', facts.name],
    ['transport', facts.transport],
    ['protocolVersion', facts.protocolVersion ?? ''],
    ['server.name', facts.server.name ?? ''],
    ['server.version', facts.server.version ?? ''],
    ['adcpVersion', facts.adcpVersion ?? ''],
    ['adcpVersion.reason', facts.adcpVersionReason ?? ''],
    ['reachable', String(facts.reachable)],
  ];
  if (facts.incomplete !== null) props.push(['incomplete', facts.incomplete]);
  if (facts.aborted !== null) props.push(['aborted', facts.aborted]);
  for (const layer of LAYERS) props.push([`layers.${layer}`, String(facts.layers[layer])]);
  return props;
}

function attr(attrs: string, name: string): string | undefined {
  const m = new RegExp(`\\s${name}="([^"]*)"`).exec(attrs);
  return m?.[1] === undefined ? undefined : unescapeXml(m[1]);
}

function withAttr(attrs: string, name: string, value: string): string {
  const re = new RegExp(`(\\s${name}=)"[^"]*"`);
  const escaped = `"${escapeXml(value)}"`;
  return re.test(attrs) ? attrs.replace(re, (_m, head: string) => head + escaped) : `${attrs} ${name}=${escaped}`;
}

function unescapeXml(text: string): string {
  return text.replace(/&(amp|lt|gt|quot|apos);/g, (_m, e: string) => ({ amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" })[e] ?? '');
}

function baseName(path: string): string {
  return path.slice(Math.max(path.lastIndexOf('/'), path.lastIndexOf('\\')) + 1);
}
