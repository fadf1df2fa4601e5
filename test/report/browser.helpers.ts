// A real headless browser for the report.html tests: Debian's chromium (or CHROMIUM_PATH) driven by
// playwright-core, launched once per test file; the reason when it cannot be (the tests then skip, saying why).
import { existsSync } from 'node:fs';
import { chromium, type Browser } from 'playwright-core';

export async function launchBrowser(): Promise<{ browser: Browser } | { why: string }> {
  const candidates = [process.env['CHROMIUM_PATH'], '/usr/bin/chromium', '/usr/bin/chromium-browser', '/usr/bin/google-chrome'].filter(
    (p): p is string => !!p,
  );
  const executablePath = candidates.find((p) => existsSync(p));
  if (!executablePath)
    return { why: `no Chromium found (looked for ${candidates.join(', ')}); install it with: apt-get install -y chromium` };
  try {
    // --no-sandbox: CI runs as root, where Chromium's sandbox refuses to start.
    return { browser: await chromium.launch({ executablePath, args: ['--no-sandbox', '--disable-gpu'], timeout: 60_000 }) };
  } catch (err) {
    return {
      why: `Chromium at ${executablePath} could not be launched: ${(err instanceof Error ? err.message : String(err)).split('\n')[0]}`,
    };
  }
}
