// `adcp-conformance vectors FILE…` — run vector files (ours or the official AdCP format).
// Exit 0 all pass · 1 any failure · 2 usage error or an unreadable / unparsable file.
import { formatSummary, runVectorFiles } from '../vectors/run.ts';

const USAGE = `usage: adcp-conformance vectors FILE…

Runs vector files: success extraction (expected_data), error extraction (expected_error /
expected_action), structured-content layer (expected_target) and envelope-check cases
(expected_outcomes). A2A cases are skipped. Prints a FAIL line per failing case and a last line
"N passed, N failed[, N skipped]".`;

export async function main(argv: string[]): Promise<number> {
  if (argv.includes('--help') || argv.includes('-h')) {
    process.stdout.write(`${USAGE}\n`);
    return 0;
  }
  const unknown = argv.filter((a) => a.startsWith('-') && a !== '-');
  if (unknown.length) {
    process.stderr.write(`adcp-conformance vectors: unknown option ${unknown[0]}\n\n${USAGE}\n`);
    return 2;
  }
  if (argv.length === 0) {
    process.stderr.write(`adcp-conformance vectors: no vector file given\n\n${USAGE}\n`);
    return 2;
  }
  const summary = await runVectorFiles(argv);
  if (!summary.ok) {
    process.stderr.write(`adcp-conformance vectors: ${summary.message}\n`);
    return 2;
  }
  process.stdout.write(`${formatSummary(summary).join('\n')}\n`);
  return summary.failed > 0 ? 1 : 0;
}
