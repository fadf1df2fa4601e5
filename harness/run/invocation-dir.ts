// The directory the user ran the CLI from, which relative paths on its command line mean (--stdio's
// command, --cwd, --watch, --config, --out …). That is the process's working directory — except when the
// CLI runs as an npm script of its own package (`npm start -- --stdio 'node server.js'`, or
// `npm --prefix <clone> start …` from a seller's folder): npm runs scripts in the package root and passes
// the user's directory as INIT_CWD. bin/adcp-conformance.js changes into it before the CLI starts.
import { dirname, resolve } from 'node:path';

/**
 * The user's directory: `env.INIT_CWD` when npm is running one of the scripts of the package at `root`
 * that starts this CLI (npm's `npm_package_json` is root's package.json, npm_lifecycle_script names the
 * CLI, and the process runs in root, as npm runs scripts), else `cwd`. Another package's script that
 * calls the installed bin keeps `cwd` (its package root, where its own paths are relative to), and so
 * does anything this package's scripts start indirectly (its tests spawn the CLI themselves).
 */
export function invocationDir(cwd: string, env: NodeJS.ProcessEnv, root: string): string {
  const initCwd = env.INIT_CWD;
  const packageJson = env.npm_package_json;
  if (!initCwd || !packageJson) return cwd;
  if (resolve(dirname(packageJson)) !== resolve(root) || resolve(cwd) !== resolve(root)) return cwd;
  if (!/\bbin\/adcp-conformance\.js\b/.test(env.npm_lifecycle_script ?? '')) return cwd;
  return resolve(initCwd);
}
