// The shipped request schemas, read for the task facts derived from them (adcp-tasks.ts takesAccount,
// takesPushNotification): AdCP 3.0 inside @adcp/sdk and 3.1.19 from ../shared when present.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';

const ROOT = join(import.meta.dirname, '..', '..');
export const SDK_30 = join(ROOT, 'node_modules/@adcp/sdk/dist/lib/schemas-data/3.0');
export const SHARED_31 = resolve(ROOT, '..', 'shared', 'adcp', 'schemas', '3.1.19');

/** Task names (snake_case) whose request schema has a top-level `property` that is a `$ref` ending in `refSuffix`. */
export function tasksTaking(dir: string, property: string, refSuffix: string): Set<string> {
  const out = new Set<string>();
  const walk = (d: string): void => {
    for (const name of readdirSync(d)) {
      const p = join(d, name);
      if (statSync(p).isDirectory()) {
        if (name !== 'bundled') walk(p);
      } else if (name.endsWith('-request.json')) {
        const schema = JSON.parse(readFileSync(p, 'utf8')) as { properties?: Record<string, { $ref?: string }> };
        const ref = schema.properties?.[property]?.$ref;
        if (typeof ref === 'string' && ref.endsWith(refSuffix)) out.add(name.replace(/-request\.json$/, '').replace(/-/g, '_'));
      }
    }
  };
  walk(dir);
  return out;
}
