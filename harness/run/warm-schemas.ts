// Compiling an AdCP response schema takes a few hundred milliseconds of CPU (get_products is the biggest),
// and judging needs it only after the seller answered. Started while the seller is still starting up or
// the calls are in flight, that CPU runs on this core while the seller works on its own: a probe (or a
// run) then judges with the validators already compiled. The registry is per process and per version
// (harness/schemas/registry.ts), so what is compiled here is exactly what judging would compile.
// Only a guess of the version the seller will be judged at (the config's, else the newest the schema
// source has): a wrong guess costs CPU that was idle anyway, never a verdict. Never throws.
import { matchVersion, parseVersion, registryFor, type SchemaSource } from '../schemas/index.ts';

const tick = () => new Promise<void>((r) => setImmediate(r));

/** The version judging will most likely use: the pinned one, else the newest available. */
export function guessVersion(available: readonly string[], pinned?: string): string | undefined {
  if (pinned !== undefined) {
    const hit = matchVersion(pinned, available);
    if (hit) return hit;
  }
  const rank = (v: string) => {
    const p = parseVersion(v);
    return p ? [p.major, p.minor, p.patch ?? 0, p.prerelease ? 0 : 1] : [-1];
  };
  return [...available].sort((a, b) => {
    const [x, y] = [rank(a), rank(b)];
    for (let i = 0; i < Math.max(x.length, y.length); i++) if ((x[i] ?? 0) !== (y[i] ?? 0)) return (y[i] ?? 0) - (x[i] ?? 0);
    return 0;
  })[0];
}

/**
 * Compile the response schemas of `tools` for the guessed version, one tool per turn of the event loop
 * (the calls in flight are read between two compiles).
 */
export async function warmSchemas(source: SchemaSource, tools: readonly string[], pinned?: string): Promise<void> {
  try {
    await tick(); // after the caller's synchronous start (a spawned seller, a request on its way)
    const version = guessVersion(await source.versions(), pinned);
    if (version === undefined) return;
    const registry = await registryFor(source, version);
    for (const tool of tools) {
      const task = registry.task(tool);
      if (!task) continue;
      await tick();
      registry.validator(task.response);
    }
  } catch {
    // judging will meet the same problem and report it
  }
}
