// The reference seller as a V8 startup snapshot (`node --snapshot-blob`), for the test suite: it starts ~600
// sellers, and a seller's start was ~0.27 CPU-s over stdio and ~0.33 over HTTP, most of it loading and running
// its modules' top levels (bench/README.md). Started from the snapshot, a seller begins with that done.
//
// Node 20 snapshots one CommonJS script that loads no module by path while it is built: the compiled seller
// (dist/) is bundled by rolldown into one script, with every fault module inside it (sellers/faults/_load.ts
// BUILT_IN_FAULTS) and the Ajv helpers its precompiled input validators require. Each module's
// `import.meta.url` becomes its own file's URL in dist/, so what it reads beside itself is found as before.
// @adcp/sdk's signer loads at the first webhook signature (sellers/reference/sdk-signing.ts), node:http and
// the MCP SDK's HTTP adapter at an HTTP seller's start (lateLoadPlugin).
//
// Test-only (test/setup/seller-snapshot.ts; sellers/launch.ts starts sellers from it when
// ADCP_CONFORMANCE_SELLER_SNAPSHOT names one): the API is experimental in Node 20, and a blob runs only on
// the node binary that wrote it. A seller started any other way runs dist/ as before.
import { spawnSync } from 'node:child_process';
import { readdirSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve, sep } from 'node:path';
import { pathToFileURL } from 'node:url';
import { replaceModuleUrls } from './bundle-cli.mjs';

/**
 * Each module's `import.meta.url` as the absolute URL of its own file (`id`). The precompiled validators'
 * `require` made for an ES module (`prelude`, sellers/reference/validate-input.ts) is dropped: the bundle's own
 * `require` then loads Ajv's helpers into the script, not by path at run time.
 */
function ownUrlPlugin(root, parseAst, prelude) {
  return {
    name: 'adcp-conformance-own-url',
    transform(code, id) {
      if (!id.startsWith(root + sep)) return null;
      const body = code.startsWith(prelude) ? code.slice(prelude.length) : code;
      const rewritten = replaceModuleUrls(body, id, parseAst, JSON.stringify(pathToFileURL(id).href)) ?? body;
      return rewritten === code ? null : { code: rewritten };
    },
  };
}

/**
 * What a snapshot cannot hold, loaded when first used instead: node:http (Node 20 cannot serialize the
 * handles it makes as it loads) and @hono/node-server, the MCP SDK's HTTP adapter (it reads
 * globalThis.Request as it loads, and Node's fetch needs WebAssembly, which a snapshot being built lacks).
 * Each import of them becomes a stand-in that loads the real module at its first use, through `require` made
 * at that time (the snapshot's script loads no package by path while it is built).
 */
function lateLoadPlugin() {
  const prefix = '\0adcp-conformance-late:';
  const late = {
    'node:http': 'export default new Proxy({}, { get: (_, key) => load()[key], has: (_, key) => key in load() });',
    '@hono/node-server': 'export function getRequestListener(...args) { return load().getRequestListener(...args); }',
  };
  return {
    name: 'adcp-conformance-late-load',
    resolveId(source, importer) {
      const name = source === 'http' ? 'node:http' : source;
      return late[name] && importer ? `${prefix}${name}\0${importer}` : null;
    },
    load(id) {
      if (!id.startsWith(prefix)) return null;
      const [name, importer] = id.slice(prefix.length).split('\0');
      // Resolved from the importing module's own file, as its import would have been.
      return [
        "import { createRequire } from 'node:module';",
        'let loaded;',
        `const load = () => (loaded ??= createRequire(${JSON.stringify(pathToFileURL(importer).href)})(${JSON.stringify(name)}));`,
        late[name],
        '',
      ].join('\n');
    },
  };
}

/**
 * Write the seller's snapshot to `blob` from the compiled seller in `dist` (its script beside it, `.cjs`, and
 * `<blob>.json` naming `dist`).
 * Returns null, or why there is none (the suite then starts sellers as a user would).
 */
export async function buildSellerSnapshot(dist, blob) {
  const script = blob.replace(/\.blob$/, '') + '.cjs';
  const entry = blob.replace(/\.blob$/, '') + '-entry.mjs';
  try {
    const url = (file) => JSON.stringify(pathToFileURL(join(dist, 'sellers', file)).href);
    const faultsDir = join(dist, 'sellers', 'faults');
    const faults = readdirSync(faultsDir)
      .filter((f) => f.endsWith('.js') && !f.startsWith('_'))
      .sort()
      .map((f) => f.slice(0, -3));
    writeFileSync(
      entry,
      [
        "import { startupSnapshot } from 'node:v8';",
        `import { runSeller } from ${url('reference/run-seller.js')};`,
        // Loaded now, so the snapshot holds them: run-seller imports its transport, and the transport the
        // validators, when it starts serving.
        `import ${url('reference/stdio.js')};`,
        `import ${url('reference/http.js')};`,
        `import ${url('reference/input-validators.js')};`,
        `import { BUILT_IN_FAULTS } from ${url('faults/_load.js')};`,
        ...faults.map((name, i) => `import f${i} from ${url(`faults/${name}.js`)};`),
        `globalThis[BUILT_IN_FAULTS] = new Map([${faults.map((name, i) => `[${JSON.stringify(name)}, f${i}]`).join(', ')}]);`,
        // Started from a snapshot, process.argv is [node, ...the arguments after `--`]: no script name.
        'startupSnapshot.setDeserializeMainFunction(() => runSeller(process.argv.slice(1)));',
        '',
      ].join('\n'),
    );
    const { rolldown } = await import('rolldown');
    const { parseAst } = await import('rolldown/parseAst');
    const { STANDALONE_PRELUDE } = await import(pathToFileURL(join(dist, 'sellers', 'reference', 'validate-input.js')).href);
    const bundle = await rolldown({
      input: entry,
      platform: 'node',
      logLevel: 'warn',
      external: [/^@adcp\/sdk(\/|$)/],
      onLog: () => {},
      plugins: [ownUrlPlugin(dist, parseAst, STANDALONE_PRELUDE), lateLoadPlugin()],
    });
    await bundle.write({ file: script, format: 'cjs', codeSplitting: false });
    await bundle.close();
    const built = spawnSync(process.execPath, ['--snapshot-blob', blob, '--build-snapshot', script], {
      cwd: dirname(blob),
      encoding: 'utf8',
    });
    if (built.status !== 0) throw new Error(`node --build-snapshot exited ${built.status}: ${built.stderr.trim().slice(-2000)}`);
    // Which dist/ it holds (sellers/launch.ts starts a project's sellers only from a snapshot of its own).
    writeFileSync(`${blob}.json`, `${JSON.stringify({ dist: resolve(dist) })}\n`);
    return null;
  } catch (e) {
    rmSync(blob, { force: true });
    rmSync(`${blob}.json`, { force: true });
    return e instanceof Error ? e.message : String(e);
  } finally {
    rmSync(entry, { force: true });
  }
}
