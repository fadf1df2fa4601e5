// report.html in a real headless browser (Debian's chromium driven by playwright-core), as a person
// opens it from disk: two live nightly runs through the CLI (one seller newly failing, one flaky, one
// down, one whose server name and answers carry markup and script), then the page — the comparison
// first, a card per seller with its verdict and counts, findings with their evidence, filters that work
// by clicking, the check × seller matrix — and not one network request, nor any seller markup rendered.
// Skips, saying why, when no Chromium can be launched (.ci/run installs Debian's `chromium`).
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { runCli, tempDirs } from '../run/cli.helpers.ts';
import { inventory } from '../run/nightly.helpers.ts';
import { launchBrowser } from './browser.helpers.ts';

const tmp = tempDirs();
const HOSTILE_TEXT =
  '<script>window.__pwned = 1</script><img src="http://127.0.0.1:9/pwned.png" onerror="window.__pwned = 2">" onmouseover="window.__pwned = 3';

const launched = await launchBrowser();

if ('why' in launched) {
  test.skip(`report.html in a real browser — skipped: ${launched.why}`, () => {});
} else {
  const browser = launched.browser;
  describe('report.html in headless Chromium', () => {
    let out: string;
    let page: Page;
    const requests: string[] = [];
    const consoleErrors: string[] = [];

    beforeAll(async () => {
      const dir = await tmp('html');
      const inv = inventory(dir);
      const config = await inv.writeConfig(['alpha', 'bravo', 'charlie', 'delta']);
      await inv.set({ alpha: 'clean', bravo: 'hostile', charlie: 'clean', delta: 'clean' });
      const night1 = await runCli(['run', '--config', config, '--out', join(dir, 'night1'), '--reporter', 'json']);
      expect(night1.code, night1.stdout + night1.stderr).toBe(1);
      await inv.set({ alpha: 'broken', charlie: 'flaky', delta: 'down' });
      out = join(dir, 'night2');
      const night2 = await runCli([
        'run',
        '--config',
        config,
        '--out',
        out,
        '--compare',
        join(dir, 'night1', 'report.json'),
        '--reporter',
        'json,html,badge',
      ]);
      expect(night2.code, night2.stdout + night2.stderr).toBe(3);

      const context = await browser.newContext({ javaScriptEnabled: true });
      // Every request the page makes is recorded, and anything but the report file itself is refused.
      await context.route('**/*', (route) => {
        const url = route.request().url();
        if (url.startsWith('file:') && url.endsWith('/report.html')) return route.continue();
        requests.push(url);
        return route.abort();
      });
      page = await context.newPage();
      page.on('request', (r) => {
        if (!r.url().endsWith('/report.html')) requests.push(r.url());
      });
      page.on('console', (m) => {
        if (m.type() === 'error') consoleErrors.push(m.text());
      });
      page.on('pageerror', (e) => consoleErrors.push(e.message));
      await page.goto(pathToFileURL(join(out, 'report.html')).href, { waitUntil: 'load' });
      await page.screenshot({ path: join(dir, 'report.png'), fullPage: true });
    }, 240_000);

    afterAll(async () => {
      await browser.close();
    });

    test('the page opens with the comparison, before the sellers', async () => {
      expect(await page.locator('h2').first().textContent()).toBe('Since the compared run');
      await expect
        .poll(() => page.locator('#comparison .headline').textContent())
        .toMatch(/: 1 new failure · 0 fixed · 1 flaky · 1 still failing · 1 newly unreachable · /);
      const changes = await page.locator('#comparison tbody tr').evaluateAll((rows) =>
        rows.map((r) =>
          Array.from(r.children, (c) => (c as HTMLElement).innerText.trim())
            .slice(0, 3)
            .join(' | '),
        ),
      );
      expect(changes).toEqual([
        'new failure | alpha | envelope.context-echo › get_adcp_capabilities',
        'newly unreachable | delta | ',
        'flaky | charlie | envelope.context-echo › get_adcp_capabilities',
      ]);
    });

    test('a card per seller with its verdict and counts', async () => {
      const cards = page.locator('.card');
      expect(await cards.locator('h3').allInnerTexts()).toEqual(['alpha', 'bravo', 'charlie', 'delta']);
      expect(await cards.locator('.verdict').allInnerTexts()).toEqual([
        '✗ nonconformant',
        '✗ nonconformant',
        '✗ nonconformant',
        '⚠ incomplete',
      ]);
      const count = (agent: string, what: string) => page.locator(`.card[data-agent="${agent}"] [data-count="${what}"] .n`).innerText();
      expect(await count('alpha', 'fail')).toBe('1');
      expect(await count('charlie', 'flaky')).toBe('1');
      expect(await count('delta', 'fail')).toBe('1');
      expect(await page.locator('.card[data-agent="delta"]').innerText()).toContain('FATAL: upstream inventory service unreachable');
      // The headline counts verdicts; the gate line states what decided the exit code.
      expect(await page.locator('#run-verdict').innerText()).toMatch(
        /^⚠ 4 agents: 3 nonconformant · 1 unreachable(?: \([^)]*\))? — incomplete: conformance to AdCP 3\.0\.\d+ not established per adcp-conformance /,
      );
      expect(await page.locator('#gate').innerText()).toBe('gate: FAIL — 3 nonconformant, 1 unreachable (exit 3)');
    });

    test('seller text is shown as text: no markup, script or image of the seller reaches the page', async () => {
      expect(await page.locator('.card[data-agent="bravo"]').innerText()).toContain(`seller ${HOSTILE_TEXT}`);
      await page.locator('.card[data-agent="bravo"]').hover();
      await page.locator('.finding[data-agent="bravo"] summary').first().click();
      // The seller's answer, as JSON text (its quotes escaped), in the finding's evidence.
      expect(await page.locator('.finding[data-agent="bravo"]').first().innerText()).toContain(HOSTILE_TEXT.replace(/"/g, '\\"'));
      expect(await page.evaluate(() => (window as unknown as { __pwned?: number }).__pwned)).toBeUndefined();
      expect(await page.locator('img').count()).toBe(0);
      expect(await page.locator('script').count()).toBe(1);
    });

    test('a failure shows its evidence: request, answer, fix and a link to the spec', async () => {
      const alpha = page.locator('.finding[data-agent="alpha"][data-status="fail"]');
      await alpha.locator('summary').click();
      const text = await alpha.innerText();
      expect(text).toMatch(/request\s+get_adcp_capabilities \{"context":\{"correlation_id":"adcp-conformance\.alpha\.0\./);
      expect(text).toMatch(/answer\s+structuredContent: \{"adcp":/);
      expect(text).toMatch(/\bfix\s+\S/);
      expect(await alpha.locator('a').getAttribute('href')).toMatch(/^https:\/\/adcontextprotocol\.org\//);
    });

    test('filters by status and by check area work by clicking; the matrix follows the area', async () => {
      const flaky = page.locator('.finding[data-status="flaky"]');
      const alphaFail = page.locator('.finding[data-agent="alpha"][data-status="fail"]');
      const deltaInit = page.locator('.finding[data-agent="delta"][data-area="transport"]');
      expect(await flaky.count()).toBe(1);
      expect(await flaky.isVisible()).toBe(true);
      await page.getByLabel('flaky').click();
      expect(await flaky.isVisible()).toBe(false);
      expect(await alphaFail.isVisible()).toBe(true);
      await page.getByRole('radio', { name: 'transport' }).click();
      expect(await alphaFail.isVisible()).toBe(false);
      expect(await deltaInit.first().isVisible()).toBe(true);
      expect(await page.locator('.matrix tr[data-check="envelope.context-echo"]').isVisible()).toBe(false);
      expect(await page.locator('.matrix tr[data-check="transport.initialize"]').isVisible()).toBe(true);
      expect(await page.locator('#finding-count').innerText()).toMatch(/^\d+ of \d+ findings shown$/);
      await page.getByRole('radio', { name: 'all' }).click();
      await page.getByLabel('flaky').click();
      expect(await flaky.isVisible()).toBe(true);
      expect(await alphaFail.isVisible()).toBe(true);
    });

    test('the check × seller matrix shows the worst outcome of each check per seller', async () => {
      const row = page.locator('.matrix tr[data-check="envelope.context-echo"] td');
      expect(await row.allInnerTexts()).toEqual(['✗', '✗', '≈', '?']);
      expect(await page.locator('.matrix thead th').allInnerTexts()).toEqual(['check', 'alpha', 'bravo', 'charlie', 'delta']);
    });

    test('the page made no network request and no error (nothing refused by its Content-Security-Policy)', async () => {
      expect(requests).toEqual([]);
      expect(consoleErrors).toEqual([]);
      const html = await readFile(join(out, 'report.html'), 'utf8');
      // No element that could load anything, and no src/href but https spec links (followed only on a click).
      expect(/<(link|img|iframe|object|embed|audio|video|source)\b[^>]*>/i.exec(html)?.[0] ?? null).toBeNull();
      expect(/<[a-z]+\b[^>]*\s(src|href)=(?!"https:\/\/)[^>]*>/i.exec(html)?.[0] ?? null).toBeNull();
      // Belt and braces: a Content-Security-Policy that allows no fetch at all, and only the page's own style and script.
      expect(await page.locator('meta[http-equiv="Content-Security-Policy"]').getAttribute('content')).toMatch(
        /^default-src 'none'; style-src 'sha256-[^']+'; script-src 'sha256-[^']+'; img-src 'none'; font-src 'none'; connect-src 'none';/,
      );
    });

    test('badges: one shields.io endpoint file per seller', async () => {
      const badge = async (name: string) => JSON.parse(await readFile(join(out, 'badges', `${name}.json`), 'utf8')) as unknown;
      expect(await badge('alpha')).toEqual({
        schemaVersion: 1,
        label: expect.stringMatching(/^AdCP 3\.0\.\d+$/),
        message: 'nonconformant · 1 fail',
        color: 'red',
      });
      expect(await badge('charlie')).toEqual({
        schemaVersion: 1,
        label: expect.stringMatching(/^AdCP /),
        message: 'nonconformant · 1 fail (1 flaky)',
        color: 'red',
      });
      expect(await badge('delta')).toEqual({
        schemaVersion: 1,
        label: 'AdCP conformance',
        message: 'incomplete · unreachable',
        color: 'lightgrey',
      });
    });
  });
}
