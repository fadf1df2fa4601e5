// The user's cache directory for the harness: `$XDG_CACHE_HOME/adcp-conformance/<name>` (default
// `~/.cache`): schema trees fetched from a `--schemas` URL, the storyboard runner's compiled validators.
import { homedir } from 'node:os';
import { join } from 'node:path';

export function userCacheDir(name: string, env: NodeJS.ProcessEnv = process.env): string {
  return join(env.XDG_CACHE_HOME || join(homedir(), '.cache'), 'adcp-conformance', name);
}
