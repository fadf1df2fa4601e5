// One sanitizer for every writer: the same hostile seller strings (controls, ANSI escapes, bidi
// overrides, zero-width characters, line breaks, lone surrogates, markup, a secret) go through the real
// judging path into every report writer, and none of them comes out unescaped.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import type { AgentCapture, Exchange } from '../../harness/record/exchange.ts';
import { judgeCapture } from '../../harness/run/judge/judge.ts';
import { sdkSchemaSource } from '../../harness/schemas/index.ts';
import { buildReportJson } from '../../harness/report/json.ts';
import { renderSummaryMarkdown } from '../../harness/report/markdown.ts';
import { plain, renderTerminalSummary } from '../../harness/report/terminal.ts';
import { agentProperties, decorateJunit } from '../../harness/report/junit.ts';
import { renderHtmlReport } from '../../harness/report/html.ts';
import { badgeFiles } from '../../harness/report/badge.ts';
import { testCases } from '../../harness/run/vitest/suite-data.ts';
import { escapeXml, sellerText } from '../../harness/sanitize.ts';
import type { RunReport } from '../../harness/report/model.ts';
import { canValidateJunit, validateJunit } from '../run/cli.helpers.ts';

const SECRET = 'tok-5ecr3t-XYZ';
const NASTY = `A\u0000B\u001b[31mRED\u001b[0m\u202eevil\u2066iso\u200bzw\ufeffbom\r\nforged line\u2028sep\ud800lone<b>&"'|*_\`${SECRET}`;

// Everything the sanitizer calls unsafe, except the line breaks and tabs a multi-line report needs.
/* eslint-disable no-control-regex -- asserting no control character survives */
const UNSAFE_IN_OUTPUT =
  /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F-\u009F\u061C\u180E\u200B-\u200F\u2028-\u202E\u2060-\u2064\u2066-\u206F\uFEFF\uFFF9-\uFFFB\uFFFE\uFFFF]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;
/* eslint-enable no-control-regex */

function hostileCapture(): AgentCapture {
  const x = (tool: string, result: unknown, extra: Partial<Exchange> = {}): Exchange => ({
    agent: NASTY,
    tool,
    intent: 'valid',
    request: { name: tool, arguments: { brief: NASTY, context: { trace: NASTY } } },
    outcome: { kind: 'result', result },
    protocolVersion: '2025-11-25',
    startedAt: '2026-12-01T00:00:00.000Z',
    durationMs: 5,
    stderrDuring: `${NASTY}\nTypeError: ${NASTY}`,
    ...extra,
  });
  return {
    agent: { name: NASTY, transport: 'stdio', production: false, sandbox: false },
    initialize: { ok: true, protocolVersion: '2025-11-25', serverInfo: { name: NASTY, version: NASTY }, durationMs: 1 },
    toolsList: {
      ok: true,
      pages: 1,
      tools: [
        { name: 'get_products', inputSchema: { type: 'object' } },
        { name: NASTY, inputSchema: { type: 'object' } },
      ],
    },
    stdio: { stdoutJunk: [NASTY], stderrTail: NASTY, exit: { code: 1, signal: null } },
    exchanges: [
      x('get_products', {
        isError: true,
        content: [{ type: 'text', text: NASTY }],
        structuredContent: { adcp_error: { code: NASTY, message: NASTY, recovery: NASTY } },
      }),
      x('get_products', { content: [{ type: 'text', text: NASTY }], structuredContent: { status: NASTY, [NASTY]: NASTY } }),
      x(NASTY, { isError: true, content: [{ type: 'text', text: `Cannot read properties of undefined ${NASTY}` }] }),
      // The task lifecycle trace and the webhook deliveries quote the seller too.
      x('create_media_buy', { content: [], structuredContent: { status: 'submitted', task_id: NASTY, message: NASTY } }, {
        scenario: { name: 'task-lifecycle', step: 'book' },
      } as Partial<Exchange>),
      x('tasks/get', { content: [], structuredContent: { status: NASTY, task_id: NASTY, result: { media_buy_id: NASTY } } }, {
        scenario: { name: 'task-lifecycle', step: 'poll-1' },
      } as Partial<Exchange>),
    ],
    scenarios: [{ name: 'task-lifecycle', status: 'ran' }],
    webhooks: {
      base: NASTY,
      kind: 'loopback',
      omitted: 0,
      waitedMs: 1,
      deliveries: [
        {
          at: 1,
          method: NASTY,
          target: NASTY,
          call: 3,
          headers: [[NASTY, NASTY]],
          body: JSON.stringify({ status: NASTY, note: NASTY }),
          bodyEncoding: 'utf8',
          bodyBytes: 5,
          answered: 503,
          verification: { ok: false, code: NASTY, step: 3, message: NASTY },
        },
        {
          at: 2,
          method: 'POST',
          target: '/x',
          call: 3,
          headers: [],
          body: NASTY,
          bodyEncoding: 'utf8',
          bodyBytes: 5,
          answered: 204,
          verification: { ok: true, keyid: NASTY },
        },
      ],
    },
  };
}

async function hostileReport(): Promise<RunReport> {
  const data = await judgeCapture(hostileCapture(), { index: 0, schemaSource: sdkSchemaSource(), secrets: [SECRET], strict: false });
  // The pipeline passes its own messages (which may quote a seller) through the same sanitizer.
  return { agents: [{ ...data.facts, outcomes: data.outcomes }], strict: false, cutShort: sellerText(`cut: ${NASTY}`, [SECRET]) };
}

/** A junit.xml as vitest writes it for these outcomes (names escaped as vitest escapes them). */
function vitestXml(report: RunReport): string {
  const a = report.agents[0]!;
  const cases = testCases(a.outcomes, false, report.strict).map(({ name, status }) => {
    const full = escapeXml(`${a.name} > ${name}`);
    const body = status === 'fail' ? '<failure message="x" type="AssertionError">stack</failure>' : status === 'skip' ? '<skipped/>' : '';
    return `<testcase classname="${escapeXml(a.name)}" name="${full}" time="0.001">${body}</testcase>`;
  });
  return `<?xml version="1.0" encoding="UTF-8" ?>\n<testsuites name="vitest tests" tests="${cases.length}" failures="0" errors="0" time="0.1">\n<testsuite name="agent.adcp.test.ts" timestamp="2026-01-01T00:00:00.000Z" hostname="h" tests="${cases.length}" failures="0" errors="0" skipped="0" time="0.1">\n${cases.join('\n')}\n</testsuite>\n</testsuites>\n`;
}

describe('every writer, the same hostile strings', async () => {
  const report = await hostileReport();
  const a = report.agents[0]!;
  const cases = new Map(testCases(a.outcomes, false, report.strict).map((c) => [`${a.name} > ${c.name}`, c]));
  const outputs: Record<string, string> = {
    terminal: renderTerminalSummary(report, plain),
    'summary.md': renderSummaryMarkdown(report),
    'report.json': JSON.stringify(buildReportJson(report), null, 2),
    'junit.xml': decorateJunit(vitestXml(report), [
      { file: 'agent.adcp.test.ts', name: a.name, properties: agentProperties(a, false), cases },
    ]),
    'report.html': renderHtmlReport(report),
  };

  test('the report has findings carrying the hostile text (the test is not vacuous)', () => {
    expect(a.outcomes.some((o) => o.status === 'fail' && (o.evidence?.answer ?? '').includes('forged line'))).toBe(true);
    expect(a.outcomes.some((o) => o.evidence?.diagnosis)).toBe(true);
    expect(a.stderrTail).toContain('RED');
    expect(a.taskTrace?.calls).toHaveLength(2);
    expect(a.webhooks?.deliveries).toHaveLength(2);
  });

  test.for(Object.keys(outputs))('%s: no control, bidi, zero-width or lone-surrogate character, and no secret', (name) => {
    const text = outputs[name]!;
    const bad = UNSAFE_IN_OUTPUT.exec(text);
    expect(
      bad ? `U+${bad[0].charCodeAt(0).toString(16)} at ${bad.index}: …${text.slice(Math.max(0, bad.index - 40), bad.index + 10)}…` : null,
    ).toBeNull();
    expect(text).not.toContain(SECRET);
    expect(text).toContain('forged line');
  });

  test('no seller line break forges a line of its own in the line-based outputs', () => {
    for (const name of ['terminal', 'summary.md']) {
      for (const line of outputs[name]!.split('\n')) expect(line.startsWith('forged line'), `${name}: ${line}`).toBe(false);
    }
  });

  test('HTML: no seller markup survives (every <, quote and backtick escaped); badges: a safe file name, plain JSON', () => {
    const html = outputs['report.html']!;
    expect(html.includes('<b>')).toBe(false);
    expect(html.includes('&lt;b&gt;&amp;&quot;&#39;')).toBe(true);
    // The only elements are the report's own: nothing the seller wrote opens a tag.
    const tags = new Set([...html.matchAll(/<([a-zA-Z][a-zA-Z0-9]*)/g)].map((m) => m[1]!.toLowerCase()));
    expect(
      [...tags].filter(
        (t) =>
          ![
            'html',
            'head',
            'meta',
            'title',
            'style',
            'body',
            'header',
            'h1',
            'h2',
            'h3',
            'p',
            'section',
            'div',
            'fieldset',
            'legend',
            'label',
            'input',
            'span',
            'noscript',
            'details',
            'summary',
            'strong',
            'code',
            'dl',
            'dt',
            'dd',
            'pre',
            'a',
            'article',
            'ul',
            'li',
            'table',
            'thead',
            'tbody',
            'tr',
            'th',
            'td',
            'script',
          ].includes(t),
      ),
    ).toEqual([]);
    const badges = badgeFiles(report);
    expect(badges.map(([name]) => name)).toEqual([expect.stringMatching(/^badges\/[A-Za-z0-9._-]+\.json$/)]);
    for (const [, content] of badges) {
      expect(UNSAFE_IN_OUTPUT.test(content)).toBe(false);
      expect(content).not.toContain(SECRET);
      expect(Object.keys(JSON.parse(content) as object)).toEqual(['schemaVersion', 'label', 'message', 'color']);
    }
  });

  test('Markdown: no raw HTML from the seller; JUnit: well-formed XML', () => {
    expect(outputs['summary.md']).not.toContain('<b>');
    expect(outputs['junit.xml']).not.toContain('<b>');
    if (!canValidateJunit) return;
    const dir = mkdtempSync(join(tmpdir(), 'hostile-junit-'));
    try {
      writeFileSync(join(dir, 'junit.xml'), outputs['junit.xml']!);
      validateJunit(join(dir, 'junit.xml'));
      execFileSync('xmllint', ['--noout', join(dir, 'junit.xml')]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
