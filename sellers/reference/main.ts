// Entry of the reference seller process (sellers/reference-seller.js loads it through tsx).
// HTTP: prints exactly one line `listening http://127.0.0.1:<port>/mcp` on stdout, then nothing else.
import { faultNames, parseSellerArgs, USAGE, UsageError } from './options.ts';

async function main(): Promise<void> {
  // The public JWKS this seller signs its webhooks with, for a config's `webhookKeys` (then exit).
  if (process.argv.slice(2).includes('--print-webhook-jwks')) {
    const { webhookJwks } = await import('./webhooks.ts');
    process.stdout.write(`${JSON.stringify(webhookJwks(), null, 2)}\n`);
    return;
  }
  let config;
  try {
    config = await parseSellerArgs(process.argv.slice(2));
  } catch (err) {
    if (err instanceof UsageError) {
      process.stderr.write(`reference-seller: ${err.message}\n${USAGE}\n`);
      process.exit(2);
    }
    throw err;
  }
  // Each transport loads only its own SDK modules (start-up time matters: tests start many sellers).
  if (config.transport === 'stdio') {
    const { startStdio } = await import('./stdio.ts');
    await startStdio(config);
    return;
  }
  const { startHttp } = await import('./http.ts');
  const seller = await startHttp(config);
  process.stdout.write(`listening http://127.0.0.1:${seller.port}/mcp\n`);
  process.stderr.write(
    `reference-seller: HTTP (${config.responseMode}) on port ${seller.port} (faults: ${faultNames(config)}${config.token !== undefined ? '; bearer token required' : ''})\n`,
  );
  const stop = () => {
    // A hung call or a stuck client must not keep a stopping seller alive.
    setTimeout(() => process.exit(0), 2_000).unref();
    void seller.close().finally(() => process.exit(0));
  };
  process.once('SIGTERM', stop);
  process.once('SIGINT', stop);
  if (config.exitOnStdinEnd) {
    process.stdin.once('end', stop);
    process.stdin.resume();
  }
}

main().catch((err: unknown) => {
  process.stderr.write(`reference-seller: failed to start: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
  process.exit(1);
});
