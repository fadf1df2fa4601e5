// The versions a report is measured against: this harness, Node, and the two SDKs it is built on.
// Read once from the installed package.json files (no network, no child process).
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

function versionAt(file: string): string {
  try {
    const v = (JSON.parse(readFileSync(file, 'utf8')) as { version?: unknown }).version;
    return typeof v === 'string' ? v : 'unknown';
  } catch {
    return 'unknown';
  }
}

/** The installed version of a dependency: its package.json in the first node_modules Node would search. */
function dependencyVersion(name: string): string {
  const require = createRequire(import.meta.url);
  for (const dir of require.resolve.paths(name) ?? []) {
    const v = versionAt(join(dir, name, 'package.json'));
    if (v !== 'unknown') return v;
  }
  return 'unknown';
}

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');

export const HARNESS_VERSION = versionAt(join(ROOT, 'package.json'));

export function toolVersions(): { harnessVersion: string; node: string; mcpSdkVersion: string; adcpSdkVersion: string } {
  return {
    harnessVersion: HARNESS_VERSION,
    node: process.versions.node,
    mcpSdkVersion: dependencyVersion('@modelcontextprotocol/sdk'),
    adcpSdkVersion: dependencyVersion('@adcp/sdk'),
  };
}
