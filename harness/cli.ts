// adcp-conformance: the command-line entry. Each sub-command lives in harness/commands/<name>.ts
// and exports `main(argv): Promise<number>` returning the process exit code (0/1/2/3: docs/run.md#exit-codes).
import { didYouMean, usageErrorText } from './run/usage-error.ts';
import { stripUnsafeKeepingLines } from './sanitize.ts';

const commands: Record<string, { summary: string; load: () => Promise<{ main(argv: string[]): Promise<number> }> }> = {
  run: { summary: 'run the checks against live agents (default: the embedded reference seller)', load: () => import('./commands/run.ts') },
  probe: {
    summary: 'call one tool of one agent and show the answer and every check on it (dev loop)',
    load: () => import('./commands/probe.ts'),
  },
  checks: { summary: 'list the check catalog, or explain one check: checks ID', load: () => import('./commands/checks.ts') },
  vectors: { summary: 'run vector files (ours or the official AdCP format)', load: () => import('./commands/vectors.ts') },
};

function usage(): string {
  const rows = Object.entries(commands).map(([name, c]) => `  ${name.padEnd(9)} ${c.summary}`);
  return [
    'usage: adcp-conformance <command> [options]',
    '       adcp-conformance --version',
    '',
    'commands:',
    ...rows,
    '',
    "'adcp-conformance help <command>' (or '<command> --help') for its options",
  ].join('\n');
}

async function cli(argv: string[]): Promise<number> {
  const [name, ...rest] = argv;
  if (name === '--version' || name === '-V' || name === 'version') {
    const { toolVersions } = await import('./version.ts');
    const v = toolVersions();
    process.stdout.write(
      `adcp-conformance ${v.harnessVersion} (node ${v.node}, @modelcontextprotocol/sdk ${v.mcpSdkVersion}, @adcp/sdk ${v.adcpSdkVersion})\n`,
    );
    return 0;
  }
  if (name === 'help' && rest.length > 0 && rest[0] !== '--help' && rest[0] !== '-h') return help(rest);
  if (!name || name === '--help' || name === '-h' || name === 'help') {
    process.stdout.write(usage() + '\n');
    return name ? 0 : 2;
  }
  const command = commands[name];
  if (!command) return unknownCommand(name);
  return (await command.load()).main(rest);
}

/** `help COMMAND` is `COMMAND --help`. */
async function help([name, ...extra]: string[]): Promise<number> {
  const command = commands[name!];
  if (!command) return unknownCommand(name!);
  if (extra.length > 0) {
    process.stderr.write(usageErrorText('', `help takes one command (got ${[name, ...extra].join(' ')})`));
    return 2;
  }
  return (await command.load()).main(['--help']);
}

function unknownCommand(name: string): number {
  const known = [...Object.keys(commands), 'help', 'version'];
  // A flag before the command (`adcp-conformance --strict run`) is not a command either.
  const what = name.startsWith('-') ? `unknown option ${name} (options follow the command)` : `unknown command '${name}'`;
  process.stderr.write(usageErrorText('', `${what}${didYouMean(name.replace(/^-+/, ''), known)}`));
  return 2;
}

/** An internal error is exit 3 (docs/run.md#exit-codes), never Node's default 1, which would read as a conformance failure. */
function internalError(err: unknown): void {
  const text = err instanceof Error ? (err.stack ?? err.message) : String(err);
  // The message may quote a seller: no terminal escape sequences reach the terminal.
  process.stderr.write(`adcp-conformance: internal error: ${stripUnsafeKeepingLines(text)}\n`);
  process.exitCode = 3;
}

process.on('uncaughtException', (err) => {
  internalError(err);
  process.exit(3);
});
process.on('unhandledRejection', (err) => {
  internalError(err);
  process.exit(3);
});

cli(process.argv.slice(2)).then((code) => {
  process.exitCode = code;
}, internalError);
