// The reference seller's start: parse the command line, serve stdio or HTTP. Run by main.ts (the seller
// process's entry) and by the seller's V8 startup snapshot (scripts/seller-snapshot.mjs), which holds every
// module already loaded.
// HTTP: prints exactly one line `listening http://127.0.0.1:<port>/mcp` on stdout, then nothing else.
import { faultNames, parseSellerArgs, sellerUsage, UsageError } from './options.ts';

async function start(argv: string[]): Promise<void> {
  // The public JWKS this seller signs its webhooks with, for a config's `webhookKeys` (then exit).
  if (argv.includes('--print-webhook-jwks')) {
    const { webhookJwks } = await import('./webhooks.ts');
    process.stdout.write(`${JSON.stringify(webhookJwks(), null, 2)}\n`);
    return;
  }
  let config;
  try {
    config = await parseSellerArgs(argv);
  } catch (err) {
    if (err instanceof UsageError) {
      process.stderr.write(`reference-seller: ${err.message}\n${sellerUsage()}\n`);
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

/** Start the seller with these arguments (`process.argv.slice(2)`); a failure to start exits 1. */
export function runSeller(argv: string[]): void {
  start(argv).catch((err: unknown) => {
    process.stderr.write(`reference-seller: failed to start: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
    process.exit(1);
  });
}
