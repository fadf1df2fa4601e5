// `adcp-conformance vectors FILE…` — run vector files (ours or the official AdCP format).
// Exit 0 all pass · 1 any failure · 2 usage error or an unreadable / unparsable file.
import { parseCommandArgs, UsageError, usageErrorText } from '../run/usage-error.ts';
import { formatSummary, runVectorFiles } from '../vectors/run.ts';

const USAGE = `usage: adcp-conformance vectors FILE…

Runs vector files: success extraction (expected_data), error extraction (expected_error /
expected_action), structured-content layer (expected_target) and envelope-check cases
(expected_outcomes). A2A cases are skipped. Prints a FAIL line per failing case and a last line
"N passed, N failed[, N skipped]".`;

export async function main(argv: string[]): Promise<number> {
  let files: string[];
  try {
    const { values, positionals } = parseCommandArgs({
      args: argv,
      strict: true,
      allowPositionals: true,
      options: { help: { type: 'boolean', short: 'h' } },
    });
    if (values.help) {
      process.stdout.write(`${USAGE}\n`);
      return 0;
    }
    if (positionals.length === 0) throw new UsageError('no vector file given');
    files = positionals;
  } catch (err) {
    if (!(err instanceof UsageError)) throw err;
    process.stderr.write(usageErrorText('vectors', err.message));
    return 2;
  }
  const summary = await runVectorFiles(files);
  if (!summary.ok) {
    process.stderr.write(`adcp-conformance vectors: ${summary.message}\n`);
    return 2;
  }
  process.stdout.write(`${formatSummary(summary).join('\n')}\n`);
  return summary.failed > 0 ? 1 : 0;
}
